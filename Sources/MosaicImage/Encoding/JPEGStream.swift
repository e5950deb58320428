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
public final class JPEGStream: RowStream {
    /// JPEG's largest side (libjpeg's `JPEG_MAX_DIMENSION`).
    public static let maximumSide = 65500
    /// The quality used unless told otherwise.
    public static let defaultQuality = 90

    /// Composite over white (a sheet with transparency); otherwise alpha is ignored.
    public let flatten: Bool

    /// Starts a JPEG into `file` at its current position.
    ///
    /// - Parameters:
    ///   - path: the file's name, for messages.
    ///   - quality: 1 to 100, libjpeg's scale of its standard tables.
    ///   - flatten: composite premultiplied pixels over white (JPEG has no alpha).
    ///   - comment: a COM segment's text, or nil.
    /// - Throws: `.invalidParameter` for a quality outside 1...100, `.sideTooLong`,
    ///   `.jpeg` with libjpeg's message (later, a full disk reads "Output file write error
    ///   --- out of disk space?").
    public init(
        file: UnsafeMutablePointer<FILE>, path: String, width: Int, height: Int, quality: Int = defaultQuality, flatten: Bool,
        comment: String?
    ) throws(ImageEncodingError) {
        guard (1...100).contains(quality) else { throw .invalidParameter(field: "quality", value: quality) }
        try ImageLimits(maximumOutputPixels: .max).checkPage(path: path, width: width, height: height, format: "JPEG", maximumSide: Self.maximumSide)
        self.flatten = flatten
        var result = mosaic_result()
        guard let writer = mosaic_jpeg_writer_open(file, Int32(width), Int32(height), Int32(quality), comment, &result) else {
            throw .jpeg(path: path, message: result.messageText)
        }
        let encoder = Encoder(
            write: { mosaic_jpeg_writer_write($0, $1, $2, $3, flatten ? 1 : 0) }, finish: { mosaic_jpeg_writer_finish($0) },
            free: { mosaic_jpeg_writer_free($0) }, failure: { .jpeg(path: $0, message: $1) })
        super.init(path: path, width: width, height: height, writer: writer, encoder: encoder)
    }
}
