/// One card to lay out: its image's oriented size (only the ratio matters) and its caption.
public struct LayoutItem: Hashable, Codable, Sendable {
    /// Width of the image as displayed (after EXIF orientation), any positive finite unit.
    public var width: Double
    /// Height of the image as displayed, same unit as `width`.
    public var height: Double
    /// `nil` or empty: the card has no caption block.
    public var caption: Caption?
    /// How many columns the card spans (a feature card), at least 1; clamped to the
    /// section's columns. Layouts of rows (justified) ignore it.
    public var span: Int

    public init(width: Double, height: Double, caption: Caption? = nil, span: Int = 1) {
        self.width = width
        self.height = height
        self.caption = caption
        self.span = span
    }

    public init(width: Int, height: Int, caption: Caption? = nil, span: Int = 1) {
        self.init(width: Double(width), height: Double(height), caption: caption, span: span)
    }

    enum CodingKeys: String, CodingKey { case width, height, caption, span }

    /// Decodes an item; `span` may be left out (1).
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        width = try container.decode(Double.self, forKey: .width)
        height = try container.decode(Double.self, forKey: .height)
        caption = try container.decodeIfPresent(Caption.self, forKey: .caption)
        span = try container.decodeIfPresent(Int.self, forKey: .span) ?? 1
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
