/// Keeps every page as a bitmap: for tests, diff boards and programs that want pixels.
/// `pages` holds the pages once `commit()` returns (and nothing after `abandon()`).
public final class MemorySink: PageSink {
    /// The committed pages, in order.
    public private(set) var pages: [Bitmap] = []
    var drawing: [Bitmap] = []
    var current: Bitmap?
    var rows = 0

    /// An empty sink.
    public init() {}

    /// Starts a blank page.
    public func beginPage(_ index: Int, of count: Int, size: Size, hasAlpha: Bool) throws(ImageEncodingError) {
        current = Bitmap(width: size.width, height: size.height)
        rows = 0
    }

    /// Copies the band into the page.
    ///
    /// - Throws: `.rowMismatch` when it is not as wide as the page or runs past its end.
    public func write(band: Bitmap) throws(ImageEncodingError) {
        guard var page = current, band.width == page.width, rows + band.height <= page.height else {
            throw .rowMismatch(path: "memory", message: "a band of \(band.width)x\(band.height) does not fit the page at row \(rows)")
        }
        current = nil  // the only reference: the page is written in place, not copied
        let start = rows * page.width * 4
        page.pixels.withUnsafeMutableBufferPointer { target in
            band.pixels.withUnsafeBufferPointer { source in
                _ = UnsafeMutableBufferPointer(rebasing: target[start..<(start + source.count)]).initialize(from: source)
            }
        }
        current = page
        rows += band.height
    }

    /// Keeps the page until commit.
    ///
    /// - Throws: `.rowMismatch` when rows are missing.
    public func endPage() throws(ImageEncodingError) {
        guard let page = current, rows == page.height else {
            throw .rowMismatch(path: "memory", message: "only \(rows) rows of the page were written")
        }
        drawing.append(page)
        current = nil
    }

    /// Makes the pages drawn so far `pages`.
    public func commit() throws(ImageEncodingError) {
        pages = drawing
        drawing = []
    }

    /// Drops what was drawn since the last commit.
    public func abandon() {
        drawing = []
        current = nil
    }
}
