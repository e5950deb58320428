/// One AVIF per page: `sheet.avif`, or `sheet-1.avif`, ... when there are several
/// (`PNGSink.pagePaths`), through libheif's AV1 encoder (libaom in Debian 12). libheif
/// encodes whole pictures, so each page is gathered in memory (width x height x 3 bytes,
/// 4 with alpha, plus libaom's own: see `AVIFFileWriter`) and encoded when it ends, into a
/// temporary file beside its destination; `commit()` renames them all into place,
/// `abandon()` removes them. A page says it is mosaic's with an XMP item, so a later run
/// replaces (and removes as stale) only AVIFs mosaic wrote. Alpha is kept.
public final class AVIFSink: PageSink {
    /// The largest side libheif reads back: a board taller or wider is paginated to it.
    public static let maximumSide: Int? = AVIFFileWriter.maximumSide
    /// True when libheif has an AV1 encoder; without one every page fails with `.avif`.
    public static var isAvailable: Bool { AVIFFileWriter.isAvailable }
    /// The path given; the pages' names derive from it.
    public let destination: String
    /// 0 to 100 (default 90), libheif's lossy quality.
    public let quality: Int
    public let lossless: Bool
    /// libaom's speed, 0 (slowest) to 9 (fastest); default `AVIFFileWriter.defaultSpeed`.
    public let speed: Int
    /// The output pixel limit, checked per page.
    public let limits: ImageLimits
    /// The files of the pages, known once the first page begins.
    public var files: [String] { pages.files }
    let pages: PageFiles<AVIFFileWriter>

    /// - Parameters:
    ///   - destination: the AVIF to write (pages: `NAME-1.avif`, ...).
    ///   - quality: 0 to 100 (checked when the first page begins).
    ///   - lossless: AV1's lossless mode.
    ///   - speed: libaom's speed, 0 to 9.
    ///   - limits: `maximumOutputPixels` is checked for every page before it is written.
    public init(
        destination: String, quality: Int = AVIFFileWriter.defaultQuality, lossless: Bool = false, speed: Int = AVIFFileWriter.defaultSpeed,
        limits: ImageLimits = ImageLimits()
    ) {
        self.destination = destination
        self.quality = quality
        self.lossless = lossless
        self.speed = speed
        self.limits = limits
        pages = PageFiles(destination: destination, isMosaicSheet: Self.isMosaicSheet)
    }

    /// True when the file at `path` is an AVIF mosaic wrote (its XMP item says so).
    public static func isMosaicSheet(_ path: String) -> Bool { AVIFFileWriter.isMosaicFile(path) }

    /// Allocates the page's picture.
    ///
    /// - Throws: `.invalidParameter` (quality, speed), `.sideTooLong`, `.tooLarge`, `.avif`
    ///   (no AV1 encoder in libheif, out of memory).
    public func beginPage(_ index: Int, of count: Int, size: Size, hasAlpha: Bool) throws(ImageEncodingError) {
        try pages.begin(index, of: count) { path throws(ImageEncodingError) in
            try AVIFFileWriter(
                path: path, width: size.width, height: size.height, hasAlpha: hasAlpha, quality: quality, lossless: lossless, speed: speed,
                limits: limits)
        }
    }

    /// Copies the band's rows into the page's picture.
    public func write(band: Bitmap) throws(ImageEncodingError) { try pages.write(band) }

    /// Encodes the page into its file (still beside its destination).
    public func endPage() throws(ImageEncodingError) { try pages.end() }

    /// Renames every page into place; removes stale pages mosaic wrote.
    public func commit() throws(ImageEncodingError) { try pages.commit() }

    /// Removes every temporary file; the destinations stay as they were.
    public func abandon() { pages.abandon() }
}
