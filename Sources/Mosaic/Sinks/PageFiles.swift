import Foundation

/// The pages of a sink that writes one image file per page (PNG, JPEG, WebP, AVIF):
/// `sheet.EXT`, or `sheet-1.EXT`, `sheet-2.EXT`, ... when there are several
/// (`PNGSink.pagePaths`). Each page's writer works beside its destination; `commit()`
/// renames them all into place and removes the stale pages of an earlier run that mosaic
/// wrote; `abandon()` removes what was written, leaving the previous files untouched.
final class PageFiles<Writer: PageFileWriter> {
    let destination: String
    /// True when mosaic wrote the file at a path (its format's own mark says so).
    let isMosaicSheet: (String) -> Bool
    /// The files of the pages, known once the first page begins.
    private(set) var files: [String] = []
    var writers: [Writer] = []

    init(destination: String, isMosaicSheet: @escaping (String) -> Bool) {
        self.destination = destination
        self.isMosaicSheet = isMosaicSheet
    }

    /// Starts page `index` of `count` with the writer `open` makes for its file.
    func begin(_ index: Int, of count: Int, open: (String) throws(ImageEncodingError) -> Writer) throws(ImageEncodingError) {
        if files.count != count {
            files = PNGSink.pagePaths(for: destination, pageCount: count)
            TemporaryFiles.removeLeftovers(besides: files)
        }
        writers.append(try open(files[index]))
    }

    /// The current page's next rows.
    func write(_ band: Bitmap) throws(ImageEncodingError) {
        guard let writer = writers.last else { throw .rowMismatch(path: destination, message: "a band before any page began") }
        try writer.write(band)
    }

    /// Finishes the current page's file (still beside its destination).
    func end() throws(ImageEncodingError) {
        guard let writer = writers.last else { throw .rowMismatch(path: destination, message: "no page to end") }
        try writer.finish(moveIntoPlace: false)
    }

    /// Renames every page into place, then removes stale pages.
    func commit() throws(ImageEncodingError) {
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
        while FileManager.default.fileExists(atPath: PNGSink.pagePath(for: destination, number: number)) {
            stale.append(PNGSink.pagePath(for: destination, number: number))
            number += 1
        }
        for path in stale where isMosaicSheet(path) { unlink(path) }
    }

    /// Removes every temporary file; the destinations stay as they were.
    func abandon() {
        writers.forEach { $0.abandon() }
        writers.removeAll()
    }
}
