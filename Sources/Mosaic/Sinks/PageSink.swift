/// Where a render's pages go: the renderer draws each page in bands of rows, top to bottom,
/// and hands them to a sink. A sink shows nothing until `commit()`; after a failure or an
/// interrupt the renderer calls `abandon()` and the sink removes whatever it wrote.
///
/// `PNGSink` writes one PNG per page, `MemorySink` keeps bitmaps; tile pyramids are further
/// sinks. A sink is used from one thread (the compositor's).
public protocol PageSink: AnyObject {
    /// Starts page `index` (from 0) of `count`, `size` pixels; `hasAlpha` is false when the
    /// sheet is opaque.
    func beginPage(_ index: Int, of count: Int, size: Size, hasAlpha: Bool) throws(ImageEncodingError)
    /// The page's next rows: `band` is as wide as the page, premultiplied RGBA, and follows
    /// the previous band.
    func write(band: Bitmap) throws(ImageEncodingError)
    /// Ends the current page; every row has been written.
    func endPage() throws(ImageEncodingError)
    /// Every page is complete: make them all visible together.
    func commit() throws(ImageEncodingError)
    /// Gives up: removes whatever was written; what was there before stays.
    func abandon()
    /// Whether the sink draws text itself (a PDF's real text): then the renderer hands it
    /// each page's captions, headers and footers (`place(_:)`) and the bands carry only
    /// the glyphs it cannot draw as text (colour emoji). False by default.
    var drawsText: Bool { get }
    /// The current page's text, once per page after `beginPage` (only when `drawsText`).
    func place(_ texts: [PageText]) throws(ImageEncodingError)
}

extension PageSink {
    public var drawsText: Bool { false }
    public func place(_ texts: [PageText]) throws(ImageEncodingError) {}
}
