import CMosaicShims
#if canImport(Glibc)
import Glibc
#endif

extension Bitmap {
    /// Writes the bitmap as a baseline JPEG (RGB, 4:2:0, libjpeg's standard tables scaled
    /// to `quality`) at `path`, directly: for files in a folder that is itself renamed into
    /// place (tiles). An opaque bitmap's pixels; alpha is dropped (the colour as drawn
    /// over black).
    ///
    /// - Throws: `ImageEncodingError.invalidParameter` for a quality outside 1...100,
    ///   `.cannotWrite` with the system's reason when a write failed (a full disk), `.jpeg`
    ///   with libjpeg's message otherwise.
    public func writeJPEG(to path: String, quality: Int) throws(ImageEncodingError) {
        guard (1...100).contains(quality) else { throw .invalidParameter(field: "quality", value: quality) }
        var rgb = [UInt8](repeating: 0, count: width * height * 3)
        pixels.withUnsafeBufferPointer { source in
            rgb.withUnsafeMutableBufferPointer { target in
                for i in 0..<(width * height) {
                    target[3 * i] = source[4 * i]
                    target[3 * i + 1] = source[4 * i + 1]
                    target[3 * i + 2] = source[4 * i + 2]
                }
            }
        }
        var options = mosaic_jpeg_encode_options()
        options.quality = Int32(quality)
        let result = rgb.withUnsafeBufferPointer { buffer in
            mosaic_jpeg_encode_file(path, buffer.baseAddress, Int32(width), Int32(height), 3, &options)
        }
        guard result.status == MOSAIC_OK else {
            if result.system_errno != 0 { throw .cannotWrite(path: path, reason: String(cString: strerror(result.system_errno))) }
            throw .jpeg(path: path, message: result.messageText)
        }
    }
}
