import MosaicLayout

import CMosaicShims

/// GIF through giflib: the first image (of an animation too) on the logical screen, with
/// transparency; interlaced images put in order. An animation's frame (`--frames`: the card's
/// `frameTime`) is its images composited up to it, each frame's disposal applied. No shrink-on-load (GIFs are small; the
/// resampler does it all).
public struct GIFCodec: ImageCodec {
    public static let format = ImageFormat(rawValue: "gif")
    public var format: ImageFormat { Self.format }
    public var cacheVersion: String? { "gif 2; " + DecoderLibraries.versions }
    public var fileExtensions: [String] { ["gif"] }

    public init() {}

    public func matches(signature: [UInt8]) -> Bool {
        signature.starts(with: Array("GIF87a".utf8)) || signature.starts(with: Array("GIF89a".utf8))
    }

    public func probe(_ bytes: [UInt8], isWholeFile: Bool, path: String) throws(ImageDecodingError) -> ImageInfo? {
        guard let raw = try probeWithShim(bytes, isWholeFile: isWholeFile, path: path, mosaic_gif_probe) else { return nil }
        return raw.imageInfo(format, interlacing: raw.interlaced != 0 ? .interlaced : nil, colorModel: .palette)
    }

    public func decode(_ bytes: [UInt8], info: ImageInfo, request: DecodeRequest) throws(ImageDecodingError) -> DecodedImage {
        // The logical screen is decoded whole, whatever the image in it: a few bytes can
        // declare 16384 x 16384.
        try checkDecodeMemory(info, request: request)
        let frame = info.video?.frameTime.map { time in Self.timeline(bytes)?.frame(at: time) ?? 0 } ?? 0
        let decoded = try decodeWithShim(bytes, width: info.width, height: info.height, info: info, request: request, color: colorConversion(bytes, request: request)) { input, output, stride in
            mosaic_gif_decode_frame(input.baseAddress, input.count, output.baseAddress, stride, Int32(info.width), Int32(info.height), Int32(frame))
        }
        return DecodedImage(bitmap: decoded.bitmap, info: info, scaleEighths: 8, reduction: 1, warning: decoded.warning)
    }

    /// The screen's pixels and one row of indices (and, for an animation's frame, the
    /// screen kept for a frame disposed of by restoring it).
    public func decodedBytes(_ info: ImageInfo, minimumSize: Size?) -> Int {
        info.width * info.height * (info.video?.frameTime == nil ? 4 : 8) + info.width
    }

    public func timeline(ofFile path: String, info: ImageInfo) -> AnimationTimeline? {
        guard let bytes = try? FileBytes.read(path).bytes else { return nil }
        return Self.timeline(bytes)
    }

    static func timeline(_ bytes: [UInt8]) -> AnimationTimeline? {
        AnimationTimeline.read(bytes) { mosaic_gif_timeline($0, $1, $2, $3, $4, $5).status == MOSAIC_OK }
    }
}

extension ImageFormat {
    /// GIF (`GIFCodec`).
    public static let gif = GIFCodec.format
}
