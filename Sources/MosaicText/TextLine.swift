/// A line of set text.
public struct TextLine: Hashable, Sendable {
    /// In visual order, left to right.
    var glyphs: [PlacedGlyph]
    /// The line's width in pixels (rounded up), trailing spaces excluded.
    public var width: Int
    /// Where the line starts inside the layout width, in pixels (from the alignment).
    public var offset: Int
    /// The text of the line in logical (reading) order, as set (with the ellipsis when cut).
    public var text: String
    /// The line's paragraph reads right to left.
    public var isRightToLeft: Bool
}
