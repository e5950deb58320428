import Foundation

/// A sink that writes one image file per page (PNG, JPEG, WebP, AVIF): `sheet.EXT`, or
/// `sheet-1.EXT`, `sheet-2.EXT`, ... when there are several (`PageNames.paths`). Each
/// page's writer works beside its destination; `commit()` renames them all into place and
/// removes the stale pages of an earlier run that mosaic wrote; `abandon()` removes what
/// was written, leaving the previous files untouched. A format's sink says how to open a
/// page's writer and how to tell its own files.
public class PageFiles<Writer: PageFileWriter>: PageSink {
    /// The path given; the pages' names derive from it.
    public let destination: String
    /// The files of the pages, known once the first page begins.
    public private(set) var files: [String] = []
    var writers: [Writer] = []
    /// True when mosaic wrote the file at a path (its format's own mark says so).
    let isMosaicSheet: (String) -> Bool
    /// The writer of a page: its path, size and whether the sheet has alpha.
    let open: (String, Size, Bool) throws(ImageEncodingError) -> Writer

    init(
        destination: String, isMosaicSheet: @escaping (String) -> Bool,
        open: @escaping (String, Size, Bool) throws(ImageEncodingError) -> Writer
    ) {
        self.destination = destination
        self.isMosaicSheet = isMosaicSheet
        self.open = open
    }

    /// Opens the page's file beside its destination (removing the temporary files that a
    /// killed run left beside the pages).
    public func beginPage(_ index: Int, of count: Int, size: Size, hasAlpha: Bool) throws(ImageEncodingError) {
        if files.count != count {
            files = PageNames.paths(for: destination, pageCount: count)
            TemporaryFiles.removeLeftovers(besides: files)
        }
        writers.append(try open(files[index], size, hasAlpha))
    }

    /// Encodes the band's rows (or gathers them, for encoders of whole pictures).
    public func write(band: Bitmap) throws(ImageEncodingError) {
        guard let writer = writers.last else { throw .rowMismatch(path: destination, message: "a band before any page began") }
        try writer.write(band)
    }

    /// Finishes the current page's file (still beside its destination).
    public func endPage() throws(ImageEncodingError) {
        guard let writer = writers.last else { throw .rowMismatch(path: destination, message: "no page to end") }
        try writer.finish(moveIntoPlace: false)
    }

    /// Renames every page into place, then removes stale pages.
    public func commit() throws(ImageEncodingError) {
        for writer in writers { try writer.moveIntoPlace() }
        writers.removeAll()
        removeStalePages()
    }

    /// Pages of an earlier run at the same destination that this run did not write (a
    /// `sheet-3.EXT` after a run of two pages, the `sheet.EXT` of an unpaginated run, or
    /// `sheet-1.EXT`... after one): removed when mosaic wrote them; another program's
    /// files stay.
    func removeStalePages() {
        var stale: [String] = []
        if files.count > 1 { stale.append(destination) }
        var number = files.count > 1 ? files.count + 1 : 1
        while FileManager.default.fileExists(atPath: PageNames.path(for: destination, number: number)) {
            stale.append(PageNames.path(for: destination, number: number))
            number += 1
        }
        for path in stale where isMosaicSheet(path) { unlink(path) }
    }

    /// Removes every temporary file; the destinations stay as they were.
    public func abandon() {
        writers.forEach { $0.abandon() }
        writers.removeAll()
    }
}
