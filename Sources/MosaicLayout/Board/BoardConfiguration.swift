/// Which way the board grows.
public enum Direction: String, Codable, Sendable, CaseIterable {
    /// Equal-width columns; the sheet grows downwards.
    case vertical
    /// Equal-height rows; the sheet grows to the right.
    case horizontal
}

/// How cards are dealt to the columns (rows, when horizontal) of a section.
public enum ItemOrder: String, Codable, Sendable, CaseIterable {
    /// Each card goes to the column whose bottom is highest up (the shortest one);
    /// ties go to the lowest column index.
    case shortestFirst
    /// Item `i` goes to column `i mod n`.
    case leftToRight
    /// Item `i` goes to column `n - 1 - (i mod n)`.
    case rightToLeft
}

/// How many columns (rows, when horizontal) a section has.
public enum ColumnRule: Hashable, Codable, Sendable {
    /// Exactly this many (at least 1).
    case count(Int)
    /// As many columns as fit with at least this width in pixels (at least 1 column).
    case targetWidth(Int)
}

/// A header or footer: a fixed length along the flow (its height on a vertical board, its
/// width on a horizontal one) spanning the content across, less its insets.
public struct Supplementary: Hashable, Codable, Sendable {
    /// The length along the flow in pixels (at least 0).
    public var length: Int
    /// Space around the element, in pixels; on a horizontal board `top`/`bottom` stay
    /// across the flow and `left`/`right` along it, as on the page.
    public var insets: Insets

    public init(length: Int, insets: Insets = .zero) {
        self.length = length
        self.insets = insets
    }
}

/// A background element behind a section, framing its header to its footer.
public struct Decoration: Hashable, Codable, Sendable {
    /// How far the background stays inside the section's outer frame, in pixels.
    public var insets: Insets

    public init(insets: Insets = .zero) {
        self.insets = insets
    }
}

/// What happens to an image whose aspect ratio lies outside the clamp.
public enum ClampMode: String, Codable, Sendable, CaseIterable {
    /// The image is scaled to cover its clamped frame and cropped.
    case fill
    /// The image is scaled to fit inside its clamped frame and letterboxed.
    case fit
}

/// Keeps extreme images (a 1x10000 strip) from making extreme cards: the frame given to an
/// image has an aspect ratio (width / height) within `minimum...maximum`.
public struct AspectClamp: Hashable, Codable, Sendable {
    public var minimum: Double
    public var maximum: Double
    public var mode: ClampMode

    public init(minimum: Double, maximum: Double, mode: ClampMode = .fill) {
        self.minimum = minimum
        self.maximum = maximum
        self.mode = mode
    }
}

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
