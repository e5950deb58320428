/// One card to lay out: its image's oriented size (only the ratio matters) and its caption.
public struct LayoutItem: Hashable, Codable, Sendable {
    /// Width of the image as displayed (after EXIF orientation), any positive finite unit.
    public var width: Double
    /// Height of the image as displayed, same unit as `width`.
    public var height: Double
    /// `nil` or empty: the card has no caption block.
    public var caption: Caption?

    public init(width: Double, height: Double, caption: Caption? = nil) {
        self.width = width
        self.height = height
        self.caption = caption
    }

    public init(width: Int, height: Int, caption: Caption? = nil) {
        self.init(width: Double(width), height: Double(height), caption: caption)
    }
}

/// A section to lay out: its items and, optionally, a style of its own.
public struct LayoutSection: Hashable, Codable, Sendable {
    public var items: [LayoutItem]
    /// `nil`: the configuration's `sectionStyle`.
    public var style: SectionStyle?

    public init(items: [LayoutItem], style: SectionStyle? = nil) {
        self.items = items
        self.style = style
    }
}
