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
public final class FlateStream {
    /// The file's name, for messages.
    public let path: String
    public let width: Int
    public let height: Int
    /// The rows pushed so far.
    public var rowsWritten: Int { rows.written }
    var rows: RowCount
    var writer: OpaquePointer?

    /// Starts a zlib stream into `file` at its current position.
    ///
    /// - Parameters:
    ///   - level: zlib's 0 to 9.
    /// - Throws: `.invalidParameter`, `.cannotWrite` (out of memory).
    public init(file: UnsafeMutablePointer<FILE>, path: String, width: Int, height: Int, level: Int = 6) throws(ImageEncodingError) {
        try ImageLimits(maximumOutputPixels: .max).checkPage(path: path, width: width, height: height, format: "PDF", maximumSide: nil)
        guard (0...9).contains(level) else { throw .invalidParameter(field: "compressionLevel", value: level) }
        self.path = path
        self.width = width
        self.height = height
        rows = RowCount(path: path, width: width, height: height)
        var result = mosaic_result()
        writer = mosaic_flate_writer_open(file, Int32(width), Int32(level), &result)
        guard writer != nil else { throw .cannotWrite(path: path, reason: result.messageText) }
    }

    deinit { if let writer { mosaic_flate_writer_free(writer) } }

    /// Filters and deflates the band's rows.
    ///
    /// - Throws: `.rowMismatch`, `.cannotWrite` with the system's reason (a full disk).
    public func write(_ band: Bitmap) throws(ImageEncodingError) {
        guard let writer else { throw .rowMismatch(path: path, message: "the image stream was already finished or failed") }
        try rows.take(band)
        let result = band.pixels.withUnsafeBufferPointer { mosaic_flate_writer_write(writer, $0.baseAddress, width * 4, Int32(band.height)) }
        guard result.status == MOSAIC_OK else {
            abandon()
            throw .cannotWrite(path: path, reason: result.messageText)
        }
    }

    /// Ends the zlib stream; every row must have been written.
    public func finish() throws(ImageEncodingError) {
        guard let writer else { throw .rowMismatch(path: path, message: "the image stream was already finished or failed") }
        try rows.checkComplete()
        self.writer = nil
        let result = mosaic_flate_writer_finish(writer)
        guard result.status == MOSAIC_OK else { throw .cannotWrite(path: path, reason: result.messageText) }
    }

    /// Stops without finishing.
    public func abandon() {
        if let writer { mosaic_flate_writer_free(writer) }
        writer = nil
    }
}
