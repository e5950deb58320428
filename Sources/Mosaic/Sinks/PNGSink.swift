import Foundation

/// One PNG file per page: `sheet.png`, or `sheet-1.png`, `sheet-2.png`, ... when there are
/// several. Each page is written to a temporary file beside its destination and all are
/// renamed into place by `commit()`; `abandon()` (a failure, an interrupt) removes them,
/// leaving the previous files untouched.
public final class PNGSink: PageFiles<PNGWriter> {
    /// Level 0...9, as zlib's.
    /// nil: `PNGWriter.defaultCompressionLevel` for each page's size.
    public let compressionLevel: Int?
    /// Threads deflating a page's segments at once (the bytes are the same for any count).
    public let threads: Int
    /// The output pixel limit, checked per page.
    public let limits: ImageLimits

    /// - Parameters:
    ///   - destination: the PNG to write (pages: `NAME-1.png`, ...).
    ///   - compressionLevel: 0 to 9, as zlib's; nil: by each page's size.
    ///   - limits: `maximumOutputPixels` is checked for every page before it is written.
    ///   - threads: how many segments of a page may be deflated at once.
    public init(
        destination: String, compressionLevel: Int? = nil, limits: ImageLimits = ImageLimits(), threads: Int = 1
    ) {
        self.compressionLevel = compressionLevel
        self.limits = limits
        self.threads = threads
        super.init(destination: destination, isMosaicSheet: Self.isMosaicSheet) { path, size, hasAlpha throws(ImageEncodingError) in
            try PNGWriter(
                path: path, width: size.width, height: size.height, hasAlpha: hasAlpha,
                compressionLevel: compressionLevel, software: "mosaic", limits: limits, threads: threads)
        }
    }

    /// True when the file at `path` is a PNG that mosaic wrote (its tEXt Software says so);
    /// false for anything else, readable or not, and never opened unless it is a regular
    /// file (a FIFO at a stale page's name made the commit wait for a writer).
    public static func isMosaicSheet(_ path: String) -> Bool {
        guard MosaicMark.isRegularFile(path) else { return false }
        do {
            return try ImageDecoder().probe(path).software == "mosaic"
        } catch {
            return false  // not an image mosaic can read: certainly not one it wrote
        }
    }
}
