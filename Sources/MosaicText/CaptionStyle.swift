import MosaicLayout

/// How a card's caption looks: a bold title line over a wrapped description.
public struct CaptionStyle: Hashable, Sendable {
    public var title: TextStyle
    public var description: TextStyle
    /// Pixels between the title and the description (when there are both).
    public var gap: Int

    public init(
        title: TextStyle = TextStyle(bold: true, size: 14, lineSpacing: 1.1, maximumLines: 1),
        description: TextStyle = TextStyle(size: 12, lineSpacing: 1.15, maximumLines: 3),
        gap: Int = 2
    ) {
        self.title = title
        self.description = description
        self.gap = max(0, gap)
    }
}
