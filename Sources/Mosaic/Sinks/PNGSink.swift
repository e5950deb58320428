import Foundation

/// One PNG file per page: `sheet.png`, or `sheet-1.png`, `sheet-2.png`, ... when there are
/// several. Each page is written to a temporary file beside its destination and all are
/// renamed into place by `commit()`; `abandon()` (a failure, an interrupt) removes them,
/// leaving the previous files untouched.
public final class PNGSink: PageSink {
    /// The path given; the pages' names derive from it.
    public let destination: String
    /// zlib level 0...9.
    public let compressionLevel: Int
    /// The output pixel limit, checked per page.
    public let limits: ImageLimits
    /// The files of the pages, known once the first page begins.
    public private(set) var files: [String] = []
    var writers: [PNGWriter] = []

    /// - Parameters:
    ///   - destination: the PNG to write (pages: `NAME-1.png`, ...).
    ///   - compressionLevel: zlib level 0 to 9.
    ///   - limits: `maximumOutputPixels` is checked for every page before it is written.
    public init(destination: String, compressionLevel: Int = PNGWriter.defaultCompressionLevel, limits: ImageLimits = ImageLimits()) {
        self.destination = destination
        self.compressionLevel = compressionLevel
        self.limits = limits
    }

    /// The file of each of `pageCount` pages written to `destination`.
    public static func pagePaths(for destination: String, pageCount: Int) -> [String] {
        if pageCount <= 1 { return [destination] }
        let base = (destination as NSString).deletingPathExtension
        let ext = (destination as NSString).pathExtension
        return (1...pageCount).map { "\(base)-\($0)" + (ext.isEmpty ? "" : ".\(ext)") }
    }

    /// Opens the page's PNG beside its destination.
    public func beginPage(_ index: Int, of count: Int, size: Size, hasAlpha: Bool) throws(ImageEncodingError) {
        if files.count != count { files = Self.pagePaths(for: destination, pageCount: count) }
        let writer = try PNGWriter(
            path: files[index], width: size.width, height: size.height, hasAlpha: hasAlpha,
            compressionLevel: compressionLevel, software: "mosaic", limits: limits)
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
    }

    /// Removes every temporary file; the destinations stay as they were.
    public func abandon() {
        writers.forEach { $0.abandon() }
        writers.removeAll()
    }
}
