import CFreeType

/// Text broken into lines for a width: measured (`height`) and drawn (`Typesetter.draw`)
/// from the same value, so what is measured is exactly what is drawn.
public struct TextLayout: Hashable, Sendable {
    public var lines: [TextLine]
    /// Every line's height, pixels.
    public var lineHeight: Int
    /// From a line's top to its baseline, pixels.
    var baseline: Int
    /// The width the text was set for.
    public var width: Int
    /// The size in 1/64 px the glyphs were set at (for rasterizing).
    var size26: Int
    /// True when `maximumLines` cut the text.
    public var isTruncated: Bool

    /// lines x line height.
    public var height: Int { lines.count * lineHeight }
}
