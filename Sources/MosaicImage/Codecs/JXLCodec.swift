import MosaicLayout

import CMosaicShims

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// JPEG XL through libjxl 0.7 (`jxl.c`): a bare codestream or the container, lossy (XYB,
/// asked of libjxl in sRGB) or lossless (in its own colour space, converted from its
/// profile), grey, alpha, an animation's first frame (with `--frames`, the frame shown at
/// the card's `frameTime`, its timeline read from the frame headers' durations); the
/// orientation kept as stored, for mosaic to turn as it turns a JPEG's. Shrink-on-load: the
/// embedded preview frame when the encoder wrote one that covers the size asked for and has
/// the image's aspect (never for an animation's frame); else the whole image (libjxl 0.7
/// decodes a progressive file into a full-size buffer too), so the decode budget counts
/// the full size.
public struct JXLCodec: ImageCodec {
    public static let format = ImageFormat(rawValue: "jxl")
    public var format: ImageFormat { Self.format }
    public var name: String { "JPEG XL" }
    public var cacheVersion: String? { "jxl 2; " + DecoderLibraries.versions }
    public var fileExtensions: [String] { ["jxl"] }

    /// A bare codestream's first bytes.
    static let codestream: [UInt8] = [0xFF, 0x0A]
    /// The container's signature box.
    static let container: [UInt8] = [0x00, 0x00, 0x00, 0x0C, 0x4A, 0x58, 0x4C, 0x20, 0x0D, 0x0A, 0x87, 0x0A]

    public init() {}

    public func matches(signature: [UInt8]) -> Bool {
        signature.starts(with: Self.codestream) || signature.starts(with: Self.container)
    }

    public func probe(_ bytes: [UInt8], isWholeFile: Bool, path: String) throws(ImageDecodingError) -> ImageInfo? {
        guard let raw = try Self.probeHeaders(bytes, isWholeFile: isWholeFile, path: path, format: format) else { return nil }
        let model: ColorModel =
            raw.frames > 0 ? .animation(frames: Int(raw.frames))
            : raw.is_grey != 0 ? (raw.has_alpha != 0 ? .greyAlpha : .grey) : (raw.has_alpha != 0 ? .rgba : .rgb)
        var info = ImageInfo(
            format: format, width: Int(raw.width), height: Int(raw.height), orientation: Orientation(rawValue: Int(raw.orientation)) ?? .up,
            hasAlpha: raw.has_alpha != 0, bitDepth: Int(raw.bits), colorModel: model)
        if raw.preview_width > 0 && raw.preview_height > 0 {
            info.previews = [Size(width: Int(raw.preview_width), height: Int(raw.preview_height))]
        }
        return info
    }

    /// The shim's probe: nil when `bytes` end before the headers do (or, for an
    /// animation, before its last frame's header).
    static func probeHeaders(_ bytes: [UInt8], isWholeFile: Bool, path: String, format: ImageFormat) throws(ImageDecodingError) -> mosaic_jxl_info? {
        var raw = mosaic_jxl_info()
        let result = bytes.withUnsafeBufferPointer { mosaic_jxl_probe($0.baseAddress, $0.count, isWholeFile ? 1 : 0, &raw) }
        if result.status == MOSAIC_NEED_MORE_DATA { return nil }
        guard result.status == MOSAIC_OK else { throw .codec(path: path, format: format, message: result.messageText) }
        return raw
    }

    /// The colour of the pixels `decode` gives: nil for sRGB (every lossy file, which libjxl
    /// turns into sRGB itself), else an ICC profile (the file's own, or one libjxl makes
    /// from the codestream's colour description).
    public func colorProfile(_ bytes: [UInt8]) -> ColorProfile? { profileWithShim(bytes, mosaic_jxl_icc_profile) }

    /// The container's `Exif` box (its TIFF data, past the box's 4-byte offset), when it
    /// is within `bytes` and not Brotli-compressed (`brob`).
    public func exifBlock(_ bytes: [UInt8]) -> ArraySlice<UInt8>? {
        guard bytes.starts(with: Self.container) else { return nil }
        var i = Self.container.count
        while i + 8 <= bytes.count {
            var size = Int(bytes[i]) << 24 | Int(bytes[i + 1]) << 16 | Int(bytes[i + 2]) << 8 | Int(bytes[i + 3])
            var header = 8
            if size == 1 {
                guard i + 16 <= bytes.count else { return nil }
                size = bytes[(i + 8)..<(i + 16)].reduce(0) { $0 > Int.max >> 9 ? Int.max : $0 << 8 | Int($1) }
                header = 16
            } else if size == 0 {
                size = bytes.count - i
            }
            guard size >= header, size <= bytes.count - i else { return nil }
            if bytes[(i + 4)..<(i + 8)].elementsEqual("Exif".utf8) {
                let body = (i + header)..<(i + size)
                guard body.count >= 4 else { return nil }
                let offset = Int(bytes[body.lowerBound]) << 24 | Int(bytes[body.lowerBound + 1]) << 16 | Int(bytes[body.lowerBound + 2]) << 8
                    | Int(bytes[body.lowerBound + 3])
                guard offset <= body.count - 4 else { return nil }
                return bytes[(body.lowerBound + 4 + offset)..<body.upperBound]
            }
            i += size
        }
        return nil
    }

    public func decode(_ bytes: [UInt8], info: ImageInfo, request: DecodeRequest) throws(ImageDecodingError) -> DecodedImage {
        // An animation's frames are composited on a canvas besides the frame: a few bytes can
        // declare a large one (a still image's size is checked against the input limit).
        if info.colorModel.isAnimation { try checkDecodeMemory(info, request: request) }
        let frame = Self.frameTime(info).map { time in Self.timeline(bytes)?.frame(at: time) ?? 0 } ?? 0
        let preview = Self.preview(info, minimumSize: request.minimumSize)
        let size = preview ?? info.size
        var icc: UnsafeMutablePointer<UInt8>? = nil
        var iccSize = 0
        defer { free(icc) }
        var storage = try shimOutput(width: size.width, height: size.height, info: info, request: request)
        let result = bytes.withUnsafeBufferPointer { input in
            storage.withUnsafeMutableBufferPointer { output in
                mosaic_jxl_decode_frame(
                    input.baseAddress, input.count, preview == nil ? 0 : 1, Int32(clamping: frame), output.baseAddress, size.width * 4,
                    Int32(size.width), Int32(size.height), &icc, &iccSize)
            }
        }
        let profile: ColorProfile? = if let icc, iccSize > 0 { .icc(Array(UnsafeBufferPointer(start: icc, count: iccSize))) } else { nil }
        let decoded = try finishShimDecode(
            &storage, result: result, width: size.width, height: size.height, info: info, request: request,
            color: colorConversion(profile, request: request, cmyk: false))
        return DecodedImage(bitmap: decoded.bitmap, info: info, warning: decoded.warning)
    }

    /// The frames of an animation, from its frame headers (no pixels decoded); nil for a
    /// still image.
    public func timeline(ofFile path: String, info: ImageInfo) -> AnimationTimeline? {
        guard info.colorModel.isAnimation, let bytes = try? FileBytes.read(path).bytes else { return nil }
        return Self.timeline(bytes)
    }

    static func timeline(_ bytes: [UInt8]) -> AnimationTimeline? {
        AnimationTimeline.read(bytes) { mosaic_jxl_timeline($0, $1, $2, $3, $4, $5).status == MOSAIC_OK }
    }

    /// The time of the animation's frame a card shows (`--frames`), or nil: the first.
    static func frameTime(_ info: ImageInfo) -> Double? {
        info.colorModel.isAnimation ? info.video?.frameTime : nil
    }

    /// The embedded preview's size when it covers `minimumSize` (upright pixels, turned
    /// here to the stored axes) and has the image's aspect within 1%; nil: the image.
    static func preview(_ info: ImageInfo, minimumSize: Size?) -> Size? {
        guard let minimumSize, frameTime(info) == nil, let preview = info.previews?.first, info.width > 0, info.height > 0 else { return nil }
        let wanted = info.orientation.swapsAxes ? Size(width: minimumSize.height, height: minimumSize.width) : minimumSize
        guard preview.width >= wanted.width, preview.height >= wanted.height, preview.width < info.width else { return nil }
        let aspect = Double(preview.width) / Double(preview.height), own = Double(info.width) / Double(info.height)
        return abs(aspect / own - 1) <= 0.01 ? preview : nil
    }

    /// The decoded pixels and libjxl's own frame buffers (32-bit floats: 12 bytes a pixel
    /// for colour, 4 for alpha; an animation also its composited canvas, and a frame at a
    /// time, `--frames`, two more for the frames it is blended onto), for the image at full
    /// size or the preview that serves. (Measured: 40 bytes a pixel for the 12th frame of a
    /// 1500 x 1500 animation `cjxl` made from an APNG, counted here as 52.)
    public func decodedBytes(_ info: ImageInfo, minimumSize: Size?) -> Int {
        let size = Self.preview(info, minimumSize: minimumSize) ?? info.size
        let (pixels, overflow) = size.width.multipliedReportingOverflow(by: size.height)
        guard !overflow, pixels <= Int.max / 128 else { return Int.max }
        let frame = pixels * (info.hasAlpha ? 16 : 12)
        let frames = !info.colorModel.isAnimation ? 1 : Self.frameTime(info) == nil ? 2 : 4
        return pixels * 4 + frame * frames
    }
}

extension ImageFormat {
    /// JPEG XL (`JXLCodec`).
    public static let jxl = JXLCodec.format
}
