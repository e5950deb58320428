/// The settings of a whole board, whatever its layout.
public struct BoardConfiguration: Hashable, Codable, Sendable {
    public var direction: Direction
    /// The fixed size across the flow, pixels: the sheet's width on a vertical board, its
    /// height on a horizontal one.
    public var extent: Int
    /// Space around everything, pixels.
    public var contentInsets: Insets
    /// The smallest length along the flow (height on a vertical board), pixels.
    public var minimumContentLength: Int
    /// Space inside each card around its image and caption, pixels.
    public var cellPadding: Insets
    /// Space between an image and its caption, pixels (only when there is a caption).
    public var captionSpacing: Int
    /// Masonry: keeps the frame given to an image within an aspect ratio range; `nil` keeps
    /// every image's own ratio. (A grid's cells have one aspect of their own.)
    public var aspectClamp: AspectClamp?
    /// The style of sections that do not bring their own.
    public var sectionStyle: SectionStyle
    /// When set, the board is split into pages no longer than this along the flow (a card
    /// is never cut; only a single element longer than a page makes a longer page).
    public var maximumPageLength: Int?

    public init(
        direction: Direction = .vertical,
        extent: Int,
        contentInsets: Insets = .zero,
        minimumContentLength: Int = 0,
        cellPadding: Insets = .zero,
        captionSpacing: Int = 0,
        aspectClamp: AspectClamp? = nil,
        sectionStyle: SectionStyle = SectionStyle(),
        maximumPageLength: Int? = nil
    ) {
        self.direction = direction
        self.extent = extent
        self.contentInsets = contentInsets
        self.minimumContentLength = minimumContentLength
        self.cellPadding = cellPadding
        self.captionSpacing = captionSpacing
        self.aspectClamp = aspectClamp
        self.sectionStyle = sectionStyle
        self.maximumPageLength = maximumPageLength
    }
}
