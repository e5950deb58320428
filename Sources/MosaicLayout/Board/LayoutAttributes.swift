/// How an image fills its image frame.
public enum ImageScaling: String, Codable, Sendable, CaseIterable {
    /// The frame has the image's own aspect ratio (within a pixel): scale it to the frame.
    case exact
    /// The aspect was clamped: scale the image to cover the frame and crop it.
    case fill
    /// The aspect was clamped: scale the image to fit inside the frame and letterbox it.
    case fit
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
    /// Headers only: true when the header is repeated on a page its section continues on
    /// (nil otherwise).
    public var continued: Bool? = nil

    /// decoration (0) < card (1) < header and footer (2).
    public var zIndex: Int { kind.zIndex }

    /// Cards only: the item's path.
    public var itemPath: ItemPath? { item.map { ItemPath(section: section, item: $0) } }
}
