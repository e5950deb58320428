import CMosaicShims

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// RGB rows deflated into an open file a band at a time (zlib), each Paeth-filtered behind
/// its PNG filter byte: the data of a PDF image with `/FlateDecode` and `/DecodeParms <<
/// /Predictor 15 /Colors 3 /Columns width >>`. Premultiplied pixels are composited over
/// white. Memory is two rows and zlib's window. The same pixels give the same bytes.
/// Use it from one thread at a time.
public final class FlateStream: RowStream {
    /// Starts a zlib stream into `file` at its current position.
    ///
    /// - Parameters:
    ///   - level: zlib's 0 to 9.
    /// - Throws: `.invalidParameter`, `.cannotWrite` (out of memory; later, a full disk).
    public init(file: UnsafeMutablePointer<FILE>, path: String, width: Int, height: Int, level: Int = 6) throws(ImageEncodingError) {
        try ImageLimits(maximumOutputPixels: .max).checkPage(path: path, width: width, height: height, format: "PDF", maximumSide: nil)
        guard (0...9).contains(level) else { throw .invalidParameter(field: "compressionLevel", value: level) }
        var result = mosaic_result()
        guard let writer = mosaic_flate_writer_open(file, Int32(width), Int32(level), &result) else {
            throw .cannotWrite(path: path, reason: result.messageText)
        }
        let encoder = Encoder(
            write: { mosaic_flate_writer_write($0, $1, $2, $3) }, finish: { mosaic_flate_writer_finish($0) },
            free: { mosaic_flate_writer_free($0) }, failure: { .cannotWrite(path: $0, reason: $1) })
        super.init(path: path, width: width, height: height, writer: writer, encoder: encoder)
    }
}
