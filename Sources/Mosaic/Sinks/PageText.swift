/// A piece of set text on a page, for a sink that draws text itself (`PageSink.drawsText`:
/// a PDF's real text): the layout the raster would have drawn, where and in what colour.
public struct PageText: Sendable {
    /// The set text (measured for the layout, as the raster draws it).
    public var layout: TextLayout
    /// Its top-left corner on the page, pixels.
    public var origin: Point
    public var color: Color
    /// The typesetter that set it: its glyphs (`Typesetter.outlines(_:)`) and fonts.
    public var typesetter: Typesetter

    public init(layout: TextLayout, origin: Point, color: Color, typesetter: Typesetter) {
        self.layout = layout
        self.origin = origin
        self.color = color
        self.typesetter = typesetter
    }
}
