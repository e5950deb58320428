import MosaicLayout

import CMosaicShims

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
    /// The fields every codec fills, as an `ImageInfo` of `format`; `colorModel` names the
    /// format's own colour model.
    func imageInfo(_ format: ImageFormat, interlacing: String?, colorModel: String) -> ImageInfo {
        let software = MosaicImage.messageText(self.software)
        return ImageInfo(
            format: format, width: Int(width), height: Int(height),
            orientation: Orientation(rawValue: Int(orientation)) ?? .up, hasAlpha: has_alpha != 0,
            interlacing: interlacing, bitDepth: Int(bit_depth), colorModel: colorModel,
            software: software.isEmpty ? nil : software, decodeMemory: Int(coefficient_bytes))
    }
}

/// Premultiplies RGBA8 pixels in place.
func premultiplyInPlace(_ pixels: inout [UInt8]) {
    pixels.withUnsafeMutableBufferPointer { buffer in
        var i = 0
        while i < buffer.count {
            let alpha = buffer[i + 3]
            if alpha != 255 {
                buffer[i] = premultiply(buffer[i], alpha)
                buffer[i + 1] = premultiply(buffer[i + 1], alpha)
                buffer[i + 2] = premultiply(buffer[i + 2], alpha)
            }
            i += 4
        }
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
