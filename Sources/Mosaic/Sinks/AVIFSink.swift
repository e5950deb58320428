/// One AVIF per page: `sheet.avif`, or `sheet-1.avif`, ... when there are several
/// (`PageNames.paths`), through libheif's AV1 encoder (libaom in Debian 12). libheif
/// encodes whole pictures, so each page is gathered in memory (width x height x 3 bytes,
/// 4 with alpha, plus libaom's own: see `AVIFFileWriter`) and encoded when it ends, into a
/// temporary file beside its destination; `commit()` renames them all into place,
/// `abandon()` removes them. A page says it is mosaic's with an XMP item, so a later run
/// replaces (and removes as stale) only AVIFs mosaic wrote. Alpha is kept.
public final class AVIFSink: PageFiles<AVIFFileWriter> {
    /// The largest side libheif reads back: a board taller or wider is paginated to it.
    public static let maximumSide: Int? = AVIFFileWriter.maximumSide
    /// True when libheif has an AV1 encoder; without one every page fails with `.avif`.
    public static var isAvailable: Bool { AVIFFileWriter.isAvailable }
    /// 0 to 100 (default 90), libheif's lossy quality.
    public let quality: Int
    public let lossless: Bool
    /// libaom's speed, 0 (slowest) to 9 (fastest); default `AVIFFileWriter.defaultSpeed`.
    public let speed: Int
    /// The output pixel limit, checked per page.
    public let limits: ImageLimits

    /// - Parameters:
    ///   - destination: the AVIF to write (pages: `NAME-1.avif`, ...).
    ///   - quality: 0 to 100, and `speed` 0 to 9 (checked when the first page begins:
    ///     `.invalidParameter`).
    ///   - lossless: AV1's lossless mode.
    ///   - limits: `maximumOutputPixels` is checked for every page before it is written.
    public init(
        destination: String, quality: Int = AVIFFileWriter.defaultQuality, lossless: Bool = false, speed: Int = AVIFFileWriter.defaultSpeed,
        limits: ImageLimits = ImageLimits()
    ) {
        self.quality = quality
        self.lossless = lossless
        self.speed = speed
        self.limits = limits
        super.init(destination: destination, isMosaicSheet: Self.isMosaicSheet) { path, size, hasAlpha throws(ImageEncodingError) in
            try AVIFFileWriter(
                path: path, width: size.width, height: size.height, hasAlpha: hasAlpha, quality: quality, lossless: lossless, speed: speed,
                limits: limits)
        }
    }

    /// True when the file at `path` is an AVIF mosaic wrote (its XMP item says so).
    public static func isMosaicSheet(_ path: String) -> Bool { AVIFFileWriter.isMosaicFile(path) }
}
