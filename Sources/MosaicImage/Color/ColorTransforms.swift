import CMosaicShims
import MosaicSync

/// Transforms from embedded ICC profiles to sRGB (Little CMS, relative colorimetric with
/// black-point compensation: see color.c), made once per distinct profile and shared by
/// the decoding threads.
public final class ColorTransforms: Sendable {
    /// The process's transforms.
    public static let shared = ColorTransforms()

    /// One transform (or why there is none), freed with the cache.
    final class Entry: @unchecked Sendable {
        // Written once in init, then only read; Little CMS transforms made without a
        // cache are reentrant.
        let transform: UnsafeMutablePointer<mosaic_color_transform>?
        let failure: String?

        init(profile: [UInt8]) {
            var result = mosaic_result()
            transform = profile.withUnsafeBufferPointer { mosaic_color_transform_create($0.baseAddress, $0.count, &result) }
            failure = transform == nil ? messageText(result.message) : nil
        }

        deinit { mosaic_color_transform_free(transform) }
    }

    private let entries = Locked<[[UInt8]: Entry]>([:])

    public init() {}

    /// Converts `pixels` (RGBA8, straight alpha) from `profile` to sRGB in place. Returns
    /// why not when the profile cannot be used (the pixels are then left as sRGB).
    public func convert(_ pixels: inout [UInt8], from profile: [UInt8]) -> String? {
        let entry = entries.withLock { cache in
            if let entry = cache[profile] { return entry }
            let entry = Entry(profile: profile)
            cache[profile] = entry
            return entry
        }
        guard let transform = entry.transform else { return entry.failure }
        pixels.withUnsafeMutableBufferPointer { buffer in
            mosaic_color_transform_apply(transform, buffer.baseAddress, buffer.count / 4)
        }
        return nil
    }
}
