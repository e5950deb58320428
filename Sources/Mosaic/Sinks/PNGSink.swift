import Foundation

/// One PNG file per page: `sheet.png`, or `sheet-1.png`, `sheet-2.png`, ... when there are
/// several. Each page is written to a temporary file beside its destination and all are
/// renamed into place by `commit()`; `abandon()` (a failure, an interrupt) removes them,
/// leaving the previous files untouched.
public final class PNGSink: PageSink {
    /// The path given; the pages' names derive from it.
    public let destination: String
    /// Level 0...9, as zlib's.
    /// nil: `PNGWriter.defaultCompressionLevel` for each page's size.
    public let compressionLevel: Int?
    /// Threads deflating a page's segments at once (the bytes are the same for any count).
    public let threads: Int
    /// The output pixel limit, checked per page.
    public let limits: ImageLimits
    /// The files of the pages, known once the first page begins.
    public private(set) var files: [String] = []
    var writers: [PNGWriter] = []

    /// - Parameters:
    ///   - destination: the PNG to write (pages: `NAME-1.png`, ...).
    ///   - compressionLevel: 0 to 9, as zlib's; nil: by each page's size.
    ///   - limits: `maximumOutputPixels` is checked for every page before it is written.
    ///   - threads: how many segments of a page may be deflated at once.
    public init(
        destination: String, compressionLevel: Int? = nil, limits: ImageLimits = ImageLimits(), threads: Int = 1
    ) {
        self.destination = destination
        self.compressionLevel = compressionLevel
        self.limits = limits
        self.threads = threads
    }

    /// The file of each of `pageCount` pages written to `destination`.
    public static func pagePaths(for destination: String, pageCount: Int) -> [String] {
        if pageCount <= 1 { return [destination] }
        return (1...pageCount).map { pagePath(for: destination, number: $0) }
    }

    /// `NAME-number.EXT` beside `destination` (`NAME.EXT`).
    public static func pagePath(for destination: String, number: Int) -> String {
        let base = (destination as NSString).deletingPathExtension
        let ext = (destination as NSString).pathExtension
        return "\(base)-\(number)" + (ext.isEmpty ? "" : ".\(ext)")
    }

    /// True when the file at `path` is a PNG that mosaic wrote (its tEXt Software says so);
    /// false for anything else, readable or not.
    public static func isMosaicSheet(_ path: String) -> Bool {
        do {
            return try ImageDecoder().probe(path).software == "mosaic"
        } catch {
            return false  // not an image mosaic can read: certainly not one it wrote
        }
    }

    /// Opens the page's PNG beside its destination.
    public func beginPage(_ index: Int, of count: Int, size: Size, hasAlpha: Bool) throws(ImageEncodingError) {
        if files.count != count {
            files = Self.pagePaths(for: destination, pageCount: count)
            TemporaryFiles.removeLeftovers(besides: files)
        }
        let writer = try PNGWriter(
            path: files[index], width: size.width, height: size.height, hasAlpha: hasAlpha,
            compressionLevel: compressionLevel, software: "mosaic", limits: limits, threads: threads)
        writers.append(writer)
    }

    /// Encodes the band's rows.
    public func write(band: Bitmap) throws(ImageEncodingError) {
        guard let writer = writers.last else { throw .rowMismatch(path: destination, message: "a band before any page began") }
        try writer.write(band)
    }

    /// Finishes the page's PNG (still beside its destination).
    public func endPage() throws(ImageEncodingError) {
        guard let writer = writers.last else { throw .rowMismatch(path: destination, message: "no page to end") }
        try writer.finish(moveIntoPlace: false)
    }

    /// Renames every page into place.
    public func commit() throws(ImageEncodingError) {
        for writer in writers { try writer.moveIntoPlace() }
        writers.removeAll()
        removeStalePages()
    }

    /// Pages of an earlier run at the same destination that this run did not write (a
    /// `sheet-3.png` after a run of two pages, the `sheet.png` of an unpaginated run, or
    /// `sheet-1.png`... after one): removed when mosaic wrote them (their PNG says Software
    /// "mosaic"); another program's files stay.
    func removeStalePages() {
        var stale: [String] = []
        if files.count > 1 { stale.append(destination) }
        var number = files.count > 1 ? files.count + 1 : 1
        while FileManager.default.fileExists(atPath: Self.pagePath(for: destination, number: number)) {
            stale.append(Self.pagePath(for: destination, number: number))
            number += 1
        }
        for path in stale where Self.isMosaicSheet(path) { unlink(path) }
    }

    /// Removes every temporary file; the destinations stay as they were.
    public func abandon() {
        writers.forEach { $0.abandon() }
        writers.removeAll()
    }
}
