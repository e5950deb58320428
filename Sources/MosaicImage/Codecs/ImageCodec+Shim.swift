// What the codecs share of their calls into CMosaicShims: C message buffers and results as
// Swift values and errors, and the probe, decode and ICC-profile calls every codec makes.
import MosaicLayout

import CMosaicShims

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The text of a fixed-size C message buffer.
func messageText<T>(_ tuple: T) -> String {
    withUnsafeBytes(of: tuple) { raw in
        let bytes = raw.prefix { $0 != 0 }
        return String(decoding: bytes, as: UTF8.self)
    }
}

extension mosaic_result {
    /// The library's message of a failed call.
    var messageText: String { MosaicImage.messageText(message) }

    /// The decoder's warnings as the caller sees them: nil, a `DecodingWarning` (its
    /// message the first data-loss warning when there was one), or in strict mode, for
    /// lost or corrupt data only, a `.damaged` error. Benign warnings pass strict mode.
    func warning(path: String, strict: Bool) throws(ImageDecodingError) -> DecodingWarning? {
        guard warning_count > 0 else { return nil }
        let isDataLoss = damage_count > 0
        let text = MosaicImage.messageText(isDataLoss ? damage : warning)
        if strict && isDataLoss { throw .damaged(path: path, message: text) }
        return DecodingWarning(path: path, message: text, count: Int(warning_count), isDataLoss: isDataLoss)
    }
}

extension mosaic_image_info {
    /// The fields every codec fills, as an `ImageInfo` of `format`; `colorModel` is the
    /// format's own colour model.
    func imageInfo(_ format: ImageFormat, interlacing: Interlacing?, colorModel: ColorModel) -> ImageInfo {
        let software = MosaicImage.messageText(self.software)
        return ImageInfo(
            format: format, width: Int(width), height: Int(height),
            orientation: Orientation(rawValue: Int(orientation)) ?? .up, hasAlpha: has_alpha != 0,
            interlacing: interlacing, bitDepth: Int(bit_depth), colorModel: colorModel,
            software: software.isEmpty ? nil : software, decodeMemory: Int(coefficient_bytes))
    }
}

/// Premultiplies RGBA8 pixels in place (`premultiply` on each colour, four pixels at a
/// time: `mosaic_premultiply_rgba`).
func premultiplyInPlace(_ pixels: inout [UInt8]) {
    pixels.withUnsafeMutableBufferPointer { buffer in
        guard let base = buffer.baseAddress else { return }
        mosaic_premultiply_rgba(base, buffer.count / 4)
    }
}

extension ImageCodec {
    /// Runs one of the shim's probes (`mosaic_jpeg_probe`, `mosaic_png_probe`) on `bytes`:
    /// nil when they end before the headers do, the library's message as this codec's error.
    func probeWithShim(
        _ bytes: [UInt8], isWholeFile: Bool, path: String,
        _ probe: (UnsafePointer<UInt8>?, Int, Int32, UnsafeMutablePointer<mosaic_image_info>?) -> mosaic_result
    ) throws(ImageDecodingError) -> mosaic_image_info? {
        var raw = mosaic_image_info()
        let result = bytes.withUnsafeBufferPointer { probe($0.baseAddress, $0.count, isWholeFile ? 1 : 0, &raw) }
        if result.status == MOSAIC_NEED_MORE_DATA { return nil }
        guard result.status == MOSAIC_OK else { throw .codec(path: path, format: format, message: result.messageText) }
        return raw
    }
}

extension ImageCodec {
    /// Refuses, before any allocation, a decode of `info` for `request` that would hold
    /// more than the per-image limit (`ImageLimits.maximumDecodeMemory`): for the formats
    /// whose canvas a few bytes can declare (an animation's, a GIF's screen).
    func checkDecodeMemory(_ info: ImageInfo, request: DecodeRequest) throws(ImageDecodingError) {
        let bytes = decodedBytes(info, minimumSize: request.minimumSize)
        guard bytes <= request.limits.maximumDecodeMemory else {
            throw .overMemoryLimit(path: request.path, bytes: bytes, limit: request.limits.maximumDecodeMemory)
        }
    }
}

extension ImageCodec {
    /// Runs one of the shim's decoders (`decode(input, output, stride)`: the file's bytes,
    /// a `width` x `height` RGBA8 buffer it fills, straight alpha, or ink bytes when
    /// `color` takes CMYK) and turns its result into this codec's error, or the bitmap
    /// (in sRGB through `color`, premultiplied as asked) and its warning.
    func decodeWithShim(
        _ bytes: [UInt8], width: Int, height: Int, info: ImageInfo, request: DecodeRequest, color: @autoclosure () -> ColorConversion?,
        _ decode: (UnsafeBufferPointer<UInt8>, UnsafeMutableBufferPointer<UInt8>, Int) -> mosaic_result
    ) throws(ImageDecodingError) -> (bitmap: Bitmap, warning: DecodingWarning?) {
        var storage = try shimOutput(width: width, height: height, info: info, request: request)
        let result = bytes.withUnsafeBufferPointer { input in
            storage.withUnsafeMutableBufferPointer { output in decode(input, output, width * 4) }
        }
        return try finishShimDecode(&storage, result: result, width: width, height: height, info: info, request: request, color: color())
    }

    /// The RGBA8 buffer a shim decoder fills: refused first when the allocator cannot give
    /// it (a Swift array that cannot be allocated stops the process). Every byte is written
    /// by the decoder (or the call fails): no zero-fill.
    func shimOutput(width: Int, height: Int, info: ImageInfo, request: DecodeRequest) throws(ImageDecodingError) -> [UInt8] {
        if width * height * 4 >= 16 << 20, mosaic_can_allocate(width * height * 4) == 0 {
            throw .outOfMemory(path: request.path, bytes: decodedBytes(info, minimumSize: request.minimumSize))
        }
        return [UInt8](unsafeUninitializedCapacity: width * height * 4) { _, count in count = width * height * 4 }
    }

    /// A shim decoder's `result` as this codec's error, or the bitmap of `storage` (in sRGB
    /// through `color`, evaluated after the decode: a codec may learn the file's colour from
    /// it; premultiplied as asked) and its warning.
    func finishShimDecode(
        _ storage: inout [UInt8], result: mosaic_result, width: Int, height: Int, info: ImageInfo, request: DecodeRequest,
        color: @autoclosure () -> ColorConversion?
    ) throws(ImageDecodingError) -> (bitmap: Bitmap, warning: DecodingWarning?) {
        if result.status == MOSAIC_OUT_OF_MEMORY { throw .outOfMemory(path: request.path, bytes: decodedBytes(info, minimumSize: request.minimumSize)) }
        guard result.status == MOSAIC_OK else { throw .codec(path: request.path, format: format, message: result.messageText) }
        var warning = try result.warning(path: request.path, strict: request.strict)
        let color = color()
        color?.apply(&storage)
        if warning == nil { warning = color?.warning }
        if info.hasAlpha && request.premultiplyAlpha { premultiplyInPlace(&storage) }
        guard let bitmap = Bitmap(width: width, height: height, pixels: storage) else {
            throw .codec(path: request.path, format: format, message: "the decoder returned \(storage.count) bytes for \(width)x\(height)")
        }
        return (bitmap, warning)
    }
}

extension ImageCodec {
    /// The ICC profile a shim reader (`mosaic_jpeg_icc_profile`...) finds in `bytes`.
    func profileWithShim(
        _ bytes: [UInt8], _ read: (UnsafePointer<UInt8>?, Int, UnsafeMutablePointer<Int>?) -> UnsafeMutablePointer<UInt8>?
    ) -> ColorProfile? {
        var size = 0
        guard let profile = bytes.withUnsafeBufferPointer({ read($0.baseAddress, $0.count, &size) }) else { return nil }
        defer { free(profile) }
        return size > 0 ? .icc(Array(UnsafeBufferPointer(start: profile, count: size))) : nil
    }
}
