/// One baseline JPEG per page: `sheet.jpg`, or `sheet-1.jpg`, `sheet-2.jpg`, ... when there
/// are several (`PageNames.paths`). Each page is compressed band by band (libjpeg-turbo,
/// `JPEGStream`: memory does not grow with the page) into a temporary file beside its
/// destination; `commit()` renames them all into place, `abandon()` removes them. A page
/// says it is mosaic's with a COM segment "mosaic", so a later run replaces (and removes
/// as stale) only JPEGs mosaic wrote. JPEG has no alpha: a sheet with transparency is
/// composited over white.
public final class JPEGSink: PageFiles<JPEGFileWriter> {
    /// JPEG's largest side: a board taller or wider is paginated to it.
    public static let maximumSide: Int? = JPEGStream.maximumSide
    /// 1 to 100 (default 90): 4:4:4 chroma from 90 up, 4:2:0 below.
    public let quality: Int
    /// The output pixel limit, checked per page.
    public let limits: ImageLimits

    /// - Parameters:
    ///   - destination: the JPEG to write (pages: `NAME-1.jpg`, ...).
    ///   - quality: 1 to 100 (checked when the first page begins: `.invalidParameter`).
    ///   - limits: `maximumOutputPixels` is checked for every page before it is written.
    public init(destination: String, quality: Int = JPEGStream.defaultQuality, limits: ImageLimits = ImageLimits()) {
        self.quality = quality
        self.limits = limits
        super.init(destination: destination, isMosaicSheet: Self.isMosaicSheet) { path, size, hasAlpha throws(ImageEncodingError) in
            try JPEGFileWriter(path: path, width: size.width, height: size.height, quality: quality, flatten: hasAlpha, limits: limits)
        }
    }

    /// True when the file at `path` is a JPEG mosaic wrote (its COM segment says so).
    public static func isMosaicSheet(_ path: String) -> Bool { JPEGFileWriter.isMosaicFile(path) }
}
