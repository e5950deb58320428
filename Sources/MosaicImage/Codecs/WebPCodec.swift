import MosaicLayout

import CMosaicShims

/// WebP through libwebp: lossy and lossless, with alpha; an animation's first frame on its
/// canvas (with `--frames`, the frame at the card's `frameTime`); EXIF orientation from the EXIF chunk. Shrink-on-load: libwebp's own scaling
/// (an area average) to the size asked for, for still images.
public struct WebPCodec: ImageCodec {
    public static let format = ImageFormat(rawValue: "webp")
    public var format: ImageFormat { Self.format }
    public var name: String { "WebP" }
    public var cacheVersion: String? { "webp 2; " + DecoderLibraries.versions }
    public var fileExtensions: [String] { ["webp"] }

    public init() {}

    public func matches(signature: [UInt8]) -> Bool {
        signature.count >= 12 && signature[0..<4].elementsEqual("RIFF".utf8) && signature[8..<12].elementsEqual("WEBP".utf8)
    }

    public func probe(_ bytes: [UInt8], isWholeFile: Bool, path: String) throws(ImageDecodingError) -> ImageInfo? {
        guard let raw = try probeWithShim(bytes, isWholeFile: isWholeFile, path: path, mosaic_webp_probe) else { return nil }
        let model: ColorModel = raw.color_space == 3 ? .animation(frames: Int(raw.frames)) : raw.color_space == 2 ? .lossless : .lossy
        return raw.imageInfo(format, interlacing: nil, colorModel: model)
    }

    /// The EXIF chunk (of an extended file, when it is within `bytes`).
    public func exifBlock(_ bytes: [UInt8]) -> ArraySlice<UInt8>? {
        var i = 12
        while i + 8 <= bytes.count {
            let size = Int(bytes[i + 4]) | Int(bytes[i + 5]) << 8 | Int(bytes[i + 6]) << 16 | Int(bytes[i + 7]) << 24
            guard size <= bytes.count - i - 8 else { return nil }
            if bytes[i..<(i + 4)].elementsEqual("EXIF".utf8) { return bytes[(i + 8)..<(i + 8 + size)] }
            i += 8 + size + (size & 1)
        }
        return nil
    }

    /// The ICC profile of the ICCP chunk.
    public func colorProfile(_ bytes: [UInt8]) -> ColorProfile? { profileWithShim(bytes, mosaic_webp_icc_profile) }

    public func decode(_ bytes: [UInt8], info: ImageInfo, request: DecodeRequest) throws(ImageDecodingError) -> DecodedImage {
        // A few bytes can declare a 16384 x 16384 canvas, which libwebp holds three times.
        if Self.isAnimation(info) { try checkDecodeMemory(info, request: request) }
        let size = Self.decodedSize(info, minimumSize: request.minimumSize)
        let decoded = try decodeWithShim(bytes, width: size.width, height: size.height, info: info, request: request, color: colorConversion(bytes, request: request)) { input, output, stride in
            if Self.isAnimation(info), let time = info.video?.frameTime {
                let frame = Self.timeline(bytes)?.frame(at: time) ?? 0
                return mosaic_webp_decode_frame(input.baseAddress, input.count, output.baseAddress, stride, Int32(size.width), Int32(size.height), Int32(frame))
            }
            return mosaic_webp_decode(input.baseAddress, input.count, output.baseAddress, stride, Int32(size.width), Int32(size.height))
        }
        return DecodedImage(bitmap: decoded.bitmap, info: info, scaleEighths: 8, reduction: 1, warning: decoded.warning)
    }

    /// The size libwebp is asked to scale to: the smallest with the image's aspect that
    /// covers `minimumSize` (turned to the stored axes), or the whole image (always for an
    /// animation, whose frames are composited at full size).
    static func decodedSize(_ info: ImageInfo, minimumSize: Size?) -> Size {
        guard let minimumSize, !isAnimation(info), info.width > 0, info.height > 0 else { return info.size }
        let wanted = info.orientation.swapsAxes ? Size(width: minimumSize.height, height: minimumSize.width) : minimumSize
        let scale = max(Double(wanted.width) / Double(info.width), Double(wanted.height) / Double(info.height))
        guard scale < 1 else { return info.size }
        let width = min(info.width, max(1, Int((Double(info.width) * scale).rounded(.up))))
        let height = min(info.height, max(1, Int((Double(info.height) * scale).rounded(.up))))
        return Size(width: width, height: height)
    }

    /// The decoded pixels (libwebp decodes into them directly; an animation also holds the
    /// two canvases of libwebp's animation decoder).
    public func decodedBytes(_ info: ImageInfo, minimumSize: Size?) -> Int {
        let size = Self.decodedSize(info, minimumSize: minimumSize)
        let output = size.width * size.height * 4
        return Self.isAnimation(info) ? output * 3 : output
    }

    public func timeline(ofFile path: String, info: ImageInfo) -> AnimationTimeline? {
        guard Self.isAnimation(info), let bytes = try? FileBytes.read(path).bytes else { return nil }
        return Self.timeline(bytes)
    }

    static func timeline(_ bytes: [UInt8]) -> AnimationTimeline? {
        AnimationTimeline.read(bytes) { mosaic_webp_timeline($0, $1, $2, $3, $4, $5).status == MOSAIC_OK }
    }

    /// The probe found an animation (its colour model says so).
    static func isAnimation(_ info: ImageInfo) -> Bool { info.colorModel.isAnimation }
}

extension ImageFormat {
    /// WebP (`WebPCodec`).
    public static let webp = WebPCodec.format
}
