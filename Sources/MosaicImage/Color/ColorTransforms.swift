import CMosaicShims
import MosaicSync

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Transforms from the colour images declare to sRGB (Little CMS, relative colorimetric
/// with black-point compensation: see color.c), made once per distinct profile and shared
/// by the decoding threads.
public final class ColorTransforms: Sendable {
    /// The process's transforms.
    public static let shared = ColorTransforms()

    /// One transform (or why there is none), freed with the cache.
    final class Entry: @unchecked Sendable {
        // Written once in init, then only read; Little CMS transforms made without a
        // cache are reentrant.
        let transform: UnsafeMutablePointer<mosaic_color_transform>?
        let failure: String?

        init(profile: ColorProfile) {
            switch profile {
            case .icc(let bytes):
                (transform, failure) = Self.make(bytes)
            case .rgb(let chromaticities, let curve):
                guard let bytes = ColorTransforms.iccBytes(chromaticities, curve) else {
                    (transform, failure) = (nil, "Little CMS could not build a profile from the file's chromaticities")
                    return
                }
                (transform, failure) = Self.make(bytes)
            case .unsupported(let reason):
                (transform, failure) = (nil, reason)
            }
        }

        static func make(_ bytes: [UInt8]) -> (UnsafeMutablePointer<mosaic_color_transform>?, String?) {
            var result = mosaic_result()
            let transform = bytes.withUnsafeBufferPointer { mosaic_color_transform_create($0.baseAddress, $0.count, 0, &result) }
            return (transform, transform == nil ? messageText(result.message) : nil)
        }

        /// The profile is for CMYK pixels.
        var isCMYK: Bool { (transform?.pointee.cmyk ?? 0) != 0 }

        func apply(_ pixels: inout [UInt8]) {
            guard let transform else { return }
            pixels.withUnsafeMutableBufferPointer { buffer in
                mosaic_color_transform_apply(transform, buffer.baseAddress, buffer.count / 4)
            }
        }

        deinit { mosaic_color_transform_free(transform) }
    }

    private let entries = Locked<[ColorProfile: Entry]>([:])

    public init() {}

    func entry(_ profile: ColorProfile) -> Entry {
        entries.withLock { cache in
            if let entry = cache[profile] { return entry }
            let entry = Entry(profile: profile)
            cache[profile] = entry
            return entry
        }
    }

    /// An ICC profile of `chromaticities` and `curve` (Little CMS), or nil.
    public static func iccBytes(_ chromaticities: Chromaticities, _ curve: ToneCurve) -> [UInt8]? {
        let (type, parameters) = curve.parametric
        var size = 0
        let bytes = chromaticities.values.withUnsafeBufferPointer { xy in
            parameters.withUnsafeBufferPointer { mosaic_color_rgb_profile(xy.baseAddress, type, $0.baseAddress, &size) }
        }
        guard let bytes else { return nil }
        defer { free(bytes) }
        return Array(UnsafeBufferPointer(start: bytes, count: size))
    }
}
