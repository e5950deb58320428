import CMosaicShims

/// A WebP file: libwebp encodes whole pictures, so the page's rows are gathered, band by
/// band, into libwebp's ARGB picture (width x height x 4 bytes), encoded when the page is
/// finished (lossy: libwebp's YUV planes, about 1.5 bytes a pixel more, and the
/// encoded bytes), and written beside the destination with an XMP chunk naming mosaic
/// (`MosaicMark.xmp`), then renamed into place. Alpha is kept. The same pixels give the
/// same bytes. Use it from one thread at a time.
public final class WebPFileWriter: EncodedFileWriter {
    /// WebP's largest side (libwebp's `WEBP_MAX_DIMENSION`).
    public static let maximumSide = 16383
    /// The quality used unless told otherwise.
    public static let defaultQuality = 90

    /// 0 to 100: lossy quality, or with `lossless` the effort (higher: smaller, slower).
    public let quality: Int
    public let lossless: Bool

    /// Allocates the page's picture (nothing is written until `finish`).
    ///
    /// - Throws: `.invalidParameter` for a quality outside 0...100, `.sideTooLong` (16383
    ///   a side), `.tooLarge`, `.webp` with libwebp's message (out of memory).
    public init(
        path: String, width: Int, height: Int, quality: Int = defaultQuality, lossless: Bool = false, limits: ImageLimits = ImageLimits()
    ) throws(ImageEncodingError) {
        try limits.checkPage(path: path, width: width, height: height, format: "WebP", maximumSide: Self.maximumSide)
        guard (0...100).contains(quality) else { throw .invalidParameter(field: "quality", value: quality) }
        self.quality = quality
        self.lossless = lossless
        var result = mosaic_result()
        guard let picture = mosaic_webp_writer_open(Int32(width), Int32(height), &result) else {
            throw .webp(path: path, message: result.messageText)
        }
        let output: OutputFile
        do { output = try OutputFile(path: path) } catch {
            mosaic_webp_writer_free(picture)
            throw error
        }
        let encoder = RowStream.Encoder(
            write: { mosaic_webp_writer_write($0, $1, $2, $3) },
            finish: { mosaic_webp_writer_finish($0, output.file, Int32(quality), lossless ? 1 : 0, MosaicMark.xmp) },
            free: { mosaic_webp_writer_free($0) }, failure: { .webp(path: $0, message: $1) })
        super.init(output: output, stream: RowStream(path: path, width: width, height: height, writer: picture, encoder: encoder))
    }

    /// True when the file at `path` is a WebP with an XMP chunk naming mosaic as its
    /// creator tool; false for anything else, readable or not.
    public static func isMosaicFile(_ path: String) -> Bool {
        guard MosaicMark.isRegularFile(path), let xmp = RIFFChunks.find("XMP ", in: path, form: "WEBP") else { return false }
        return MosaicMark.isMosaic(xmp: xmp)
    }
}
