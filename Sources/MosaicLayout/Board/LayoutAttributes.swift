/// What an element of a board is.
public enum ElementKind: String, Codable, Sendable, CaseIterable {
    /// A section's background, below everything (z 0).
    case decoration
    /// An image with its caption (z 1).
    case card
    /// A section's header (z 2).
    case header
    /// A section's footer (z 2).
    case footer

    /// The z index of the kind: decoration < card < header and footer.
    public var zIndex: Int {
        switch self {
        case .decoration: return 0
        case .card: return 1
        case .header, .footer: return 2
        }
    }
}

/// How an image fills its image frame.
public enum ImageScaling: String, Codable, Sendable, CaseIterable {
    /// The frame has the image's own aspect ratio (within a pixel): scale it to the frame.
    case exact
    /// The aspect was clamped: scale the image to cover the frame and crop it.
    case fill
    /// The aspect was clamped: scale the image to fit inside the frame and letterbox it.
    case fit
}

/// Names a card: its section and its index in that section, both from 0.
public struct ItemPath: Hashable, Codable, Sendable, Comparable, CustomStringConvertible {
    public var section: Int
    public var item: Int

    public init(section: Int, item: Int) {
        self.section = section
        self.item = item
    }

    public static func < (lhs: ItemPath, rhs: ItemPath) -> Bool {
        (lhs.section, lhs.item) < (rhs.section, rhs.item)
    }

    public var description: String { "[\(section), \(item)]" }
}

/// One laid-out element, in the coordinates of its page (pixels, origin top-left).
public struct LayoutAttributes: Hashable, Codable, Sendable {
    public var kind: ElementKind
    public var section: Int
    /// The item's index in its section; `nil` for headers, footers and decorations.
    public var item: Int?
    /// The page the element is on, from 0 (always 0 without pagination).
    public var page: Int
    /// The whole element.
    public var frame: Rect
    /// Cards only: where the image goes (inside the cell padding).
    public var imageFrame: Rect?
    /// Cards with a caption only: where the caption goes, below the image.
    public var captionFrame: Rect?
    /// Cards only: how the image fills `imageFrame`.
    public var imageScaling: ImageScaling?

    /// decoration (0) < card (1) < header and footer (2).
    public var zIndex: Int { kind.zIndex }

    /// Cards only: the item's path.
    public var itemPath: ItemPath? { item.map { ItemPath(section: section, item: $0) } }
}
