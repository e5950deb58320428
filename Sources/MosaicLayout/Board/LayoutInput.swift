/// The text under a card's image: a bold title line over a wrapped description.
public struct Caption: Hashable, Codable, Sendable {
    public var title: String
    public var description: String

    public init(title: String = "", description: String = "") {
        self.title = title
        self.description = description
    }

    /// True when there is nothing to draw.
    public var isEmpty: Bool { title.isEmpty && description.isEmpty }
}

/// Measures captions for the layout. The text module implements it with real fonts; the
/// renderer draws with the same code, so a measured caption is exactly as tall as drawn.
public protocol TextMeasuring {
    /// The height in pixels that `caption` takes when broken into lines `width` pixels wide.
    func height(of caption: Caption, width: Int) -> Int
    /// The height in pixels reserved for `caption` when its width is not known in advance
    /// (the fixed caption block of a horizontal board): its maximum line count times the
    /// line height.
    func reservedHeight(of caption: Caption) -> Int
}

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

/// A measurer for boards without captions: every caption is zero pixels tall.
public struct NoText: TextMeasuring, Sendable {
    public init() {}
    public func height(of caption: Caption, width: Int) -> Int { 0 }
    public func reservedHeight(of caption: Caption) -> Int { 0 }
}
