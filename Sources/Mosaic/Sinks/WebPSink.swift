/// One WebP per page: `sheet.webp`, or `sheet-1.webp`, ... when there are several
/// (`PageNames.paths`). libwebp encodes whole pictures, so each page is gathered in
/// memory (width x height x 4 bytes, plus the encoder's own: see `WebPFileWriter`) and
/// encoded when it ends, into a temporary file beside its destination; `commit()` renames
/// them all into place, `abandon()` removes them. A page says it is mosaic's with an XMP
/// chunk, so a later run replaces (and removes as stale) only WebPs mosaic wrote. Alpha
/// is kept.
public final class WebPSink: PageFiles<WebPFileWriter> {
    /// WebP's largest side: a board taller or wider is paginated to it.
    public static let maximumSide: Int? = WebPFileWriter.maximumSide
    /// 0 to 100 (default 90): lossy quality, or with `lossless` libwebp's effort.
    public let quality: Int
    public let lossless: Bool
    /// The output pixel limit, checked per page.
    public let limits: ImageLimits

    /// - Parameters:
    ///   - destination: the WebP to write (pages: `NAME-1.webp`, ...).
    ///   - quality: 0 to 100 (checked when the first page begins: `.invalidParameter`).
    ///   - lossless: libwebp's lossless mode (then `quality` is its effort).
    ///   - limits: `maximumOutputPixels` is checked for every page before it is written.
    public init(
        destination: String, quality: Int = WebPFileWriter.defaultQuality, lossless: Bool = false, limits: ImageLimits = ImageLimits()
    ) {
        self.quality = quality
        self.lossless = lossless
        self.limits = limits
        super.init(destination: destination, isMosaicSheet: Self.isMosaicSheet) { path, size, _ throws(ImageEncodingError) in
            try WebPFileWriter(path: path, width: size.width, height: size.height, quality: quality, lossless: lossless, limits: limits)
        }
    }

    /// True when the file at `path` is a WebP mosaic wrote (its XMP chunk says so).
    public static func isMosaicSheet(_ path: String) -> Bool { WebPFileWriter.isMosaicFile(path) }
}
