import CMosaicShims

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A baseline JPEG compressed into an open file a band of rows at a time (libjpeg-turbo's
/// `jpeg_write_scanlines`): memory does not grow with the image's height. Chroma is kept
/// at full resolution (4:4:4) from quality 90 up and halved both ways (4:2:0) below; the
/// Huffman tables are libjpeg's standard ones (optimized tables would make libjpeg hold
/// every coefficient of the image first). The same pixels give the same bytes.
///
/// The file stays its owner's: `JPEGFileWriter` writes a JPEG file, the PDF writer embeds
/// pages in its own file. Use it from one thread at a time.
public final class JPEGStream {
    /// JPEG's largest side (libjpeg's `JPEG_MAX_DIMENSION`).
    public static let maximumSide = 65500
    /// The quality used unless told otherwise.
    public static let defaultQuality = 90

    /// The file's name, for messages.
    public let path: String
    public let width: Int
    public let height: Int
    /// Composite over white (a sheet with transparency); otherwise alpha is ignored.
    public let flatten: Bool
    /// The rows pushed so far.
    public var rowsWritten: Int { rows.written }
    var rows: RowCount
    var writer: OpaquePointer?

    /// Starts a JPEG into `file` at its current position.
    ///
    /// - Parameters:
    ///   - path: the file's name, for messages.
    ///   - quality: 1 to 100, libjpeg's scale of its standard tables.
    ///   - flatten: composite premultiplied pixels over white (JPEG has no alpha).
    ///   - comment: a COM segment's text, or nil.
    /// - Throws: `.invalidParameter` for a quality outside 1...100, `.sideTooLong`,
    ///   `.jpeg` with libjpeg's message.
    public init(
        file: UnsafeMutablePointer<FILE>, path: String, width: Int, height: Int, quality: Int = defaultQuality, flatten: Bool,
        comment: String?
    ) throws(ImageEncodingError) {
        guard (1...100).contains(quality) else { throw .invalidParameter(field: "quality", value: quality) }
        try ImageLimits(maximumOutputPixels: .max).checkPage(path: path, width: width, height: height, format: "JPEG", maximumSide: Self.maximumSide)
        self.path = path
        self.width = width
        self.height = height
        rows = RowCount(path: path, width: width, height: height)
        self.flatten = flatten
        var result = mosaic_result()
        writer = mosaic_jpeg_writer_open(file, Int32(width), Int32(height), Int32(quality), comment, &result)
        guard writer != nil else { throw .jpeg(path: path, message: result.messageText) }
    }

    deinit { if let writer { mosaic_jpeg_writer_free(writer) } }

    /// Compresses the band's rows.
    ///
    /// - Throws: `.rowMismatch` for a band of another width or past the last row, `.jpeg`
    ///   with libjpeg's message (a full disk reads "Output file write error --- out of
    ///   disk space?").
    public func write(_ band: Bitmap) throws(ImageEncodingError) {
        guard let writer else { throw .rowMismatch(path: path, message: "the JPEG was already finished or failed") }
        try rows.take(band)
        let result = band.pixels.withUnsafeBufferPointer { pixels in
            mosaic_jpeg_writer_write(writer, pixels.baseAddress, width * 4, Int32(band.height), flatten ? 1 : 0)
        }
        guard result.status == MOSAIC_OK else {
            abandon()
            throw .jpeg(path: path, message: result.messageText)
        }
    }

    /// Ends the JPEG (EOI); every row must have been written.
    public func finish() throws(ImageEncodingError) {
        guard let writer else { throw .rowMismatch(path: path, message: "the JPEG was already finished or failed") }
        try rows.checkComplete()
        self.writer = nil
        let result = mosaic_jpeg_writer_finish(writer)
        guard result.status == MOSAIC_OK else { throw .jpeg(path: path, message: result.messageText) }
    }

    /// Stops without finishing.
    public func abandon() {
        if let writer { mosaic_jpeg_writer_free(writer) }
        writer = nil
    }
}
