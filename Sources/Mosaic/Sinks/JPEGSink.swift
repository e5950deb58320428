/// One baseline JPEG per page: `sheet.jpg`, or `sheet-1.jpg`, `sheet-2.jpg`, ... when there
/// are several (`PNGSink.pagePaths`). Each page is compressed band by band (libjpeg-turbo,
/// `JPEGStream`: memory does not grow with the page) into a temporary file beside its
/// destination; `commit()` renames them all into place, `abandon()` removes them. A page
/// says it is mosaic's with a COM segment "mosaic", so a later run replaces (and removes
/// as stale) only JPEGs mosaic wrote. JPEG has no alpha: a sheet with transparency is
/// composited over white.
public final class JPEGSink: PageSink {
    /// JPEG's largest side: a board taller or wider is paginated to it.
    public static let maximumSide: Int? = JPEGStream.maximumSide
    /// The path given; the pages' names derive from it.
    public let destination: String
    /// 1 to 100 (default 90): 4:4:4 chroma from 90 up, 4:2:0 below.
    public let quality: Int
    /// The output pixel limit, checked per page.
    public let limits: ImageLimits
    /// The files of the pages, known once the first page begins.
    public var files: [String] { pages.files }
    let pages: PageFiles<JPEGFileWriter>

    /// - Parameters:
    ///   - destination: the JPEG to write (pages: `NAME-1.jpg`, ...).
    ///   - quality: 1 to 100 (checked when the first page begins).
    ///   - limits: `maximumOutputPixels` is checked for every page before it is written.
    public init(destination: String, quality: Int = JPEGStream.defaultQuality, limits: ImageLimits = ImageLimits()) {
        self.destination = destination
        self.quality = quality
        self.limits = limits
        pages = PageFiles(destination: destination, isMosaicSheet: Self.isMosaicSheet)
    }

    /// True when the file at `path` is a JPEG mosaic wrote (its COM segment says so).
    public static func isMosaicSheet(_ path: String) -> Bool { JPEGFileWriter.isMosaicFile(path) }

    /// Opens the page's JPEG beside its destination.
    ///
    /// - Throws: `.invalidParameter` (quality), `.sideTooLong`, `.tooLarge`, `.cannotCreate`.
    public func beginPage(_ index: Int, of count: Int, size: Size, hasAlpha: Bool) throws(ImageEncodingError) {
        try pages.begin(index, of: count) { path throws(ImageEncodingError) in
            try JPEGFileWriter(path: path, width: size.width, height: size.height, quality: quality, flatten: hasAlpha, limits: limits)
        }
    }

    /// Compresses the band's rows.
    public func write(band: Bitmap) throws(ImageEncodingError) { try pages.write(band) }

    /// Ends the page's JPEG (still beside its destination).
    public func endPage() throws(ImageEncodingError) { try pages.end() }

    /// Renames every page into place; removes stale pages mosaic wrote.
    public func commit() throws(ImageEncodingError) { try pages.commit() }

    /// Removes every temporary file; the destinations stay as they were.
    public func abandon() { pages.abandon() }
}
