import CFreeType

/// How a piece of text looks.
public struct TextStyle: Hashable, Sendable {
    public var font: FontSource
    public var bold: Bool
    /// The font size in pixels (the em square).
    public var size: Double
    /// A factor on the font's own line height (ascender - descender + line gap).
    public var lineSpacing: Double
    /// At most this many lines; the last one ends in an ellipsis when text is cut. nil: all.
    public var maximumLines: Int?
    public var alignment: TextAlignment
    /// The paragraphs' base direction (by default, from their first strong character).
    public var direction: TextDirection

    public init(
        font: FontSource = .family(FontSource.defaultFamily), bold: Bool = false, size: Double = 13, lineSpacing: Double = 1,
        maximumLines: Int? = nil, alignment: TextAlignment = .start, direction: TextDirection = .auto
    ) {
        self.font = font
        self.bold = bold
        self.size = size
        self.lineSpacing = lineSpacing
        self.maximumLines = maximumLines
        self.alignment = alignment
        self.direction = direction
    }
}
