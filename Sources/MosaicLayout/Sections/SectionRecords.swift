// The compact records a MasonryLayout keeps; attributes are made from them on demand.

/// A card in flow terms, kept small (40 bytes) because a board may hold millions: every
/// length but the position along the flow fits 32 bits (`maximumLayoutLength` is 2^30), and
/// its section and item follow from its index (`sectionFirstCard`).
struct CardRecord: Sendable {
    /// Where the card starts along the flow.
    var main: Int
    var mainLength: Int32
    var cross: Int32
    var crossLength: Int32
    /// The image's length along and across the flow.
    var imageLength: Int32
    var imageCross: Int32
    /// The caption's height (the reserved block on a horizontal board).
    var captionLength: Int32
    var page: Int32
    var hasCaption: Bool
    var scaling: ImageScaling

    var mainEnd: Int { main + Int(mainLength) }
}

struct SupplementaryRecord: Sendable {
    var kind: ElementKind
    var section: Int
    var page: Int
    var frame: Rect
    /// A header repeated on a page its section continues on.
    var continued = false
}

struct PageRecord: Sendable {
    var blocks: [SectionBlock]
    /// The end of the last element along the flow (before the content's end inset).
    var usedEnd: Int
}

/// A column (a row, when horizontal): where it starts across the flow and how wide it is.
struct LaneGeometry: Hashable, Sendable {
    var start: Int
    var length: Int
}

/// A section that is still taking cards.
struct OpenSection: Sendable {
    var section: Int
    var geometry: SectionGeometry
    var page: Int
    /// Where the section's block begins on the current page.
    var sectionTop: Int
    /// Where the first card of each column goes on the current page.
    var itemTop: Int
    /// Per column: where its next card goes.
    var laneNext: [Int]
    /// Per column: the end of its last card (or `itemTop`).
    var laneEnd: [Int]
    var itemCount: Int
    var pageHasContent: Bool
    /// The section's block on the current page, put on the page when it is finished.
    var block: SectionBlock
    /// The current page is not the section's first: its background has no top inset (the
    /// gap that separates it from the section before belongs to the first page).
    var isContinuation = false
    /// The section began on its first page after other content (so moving it to a new page
    /// can keep its header with its cards).
    var startedAfterContent = false
    /// A card longer than a page was placed on the current page: it stands alone there,
    /// so the next card, row or footer goes to a new page.
    var pageIsFull = false
}

/// What closing a section added, so that `append` can take it back.
struct CloseMark: Sendable {
    var supplementaryCount: Int
    var pageCount: Int
    /// The last block's fields that closing changes (never its lanes: holding them here
    /// would make appending copy them).
    var blockMainEnd: Int
    var blockSupplementaryCount: Int
    var blockDecoration: Int?
    var usedEnd: Int
    /// Closing moved the section, which held no card, whole to a new page (its header
    /// with its footer): the section as it was before, and its header's record then.
    var sectionBeforeMove: OpenSection? = nil
    var headerBeforeMove: SupplementaryRecord? = nil
}

/// The layout as it was before a section's last, provisional piece (a justified section's
/// last row, which more images would change), so that `append` can take the piece back.
/// Holds no block: a second reference would make the next card copy its columns.
struct PieceMark: Sendable {
    var state: OpenSection
    var blockMainStart: Int
    var blockSupplementaries: [Int]
    var laneCounts: [Int]
    var cardCount: Int
    var supplementaryCount: Int
    var pageCount: Int
    var blocksOnPage: Int
    var usedEnd: Int
    /// The section's header and its record, when the piece could move the section.
    var header: (index: Int, record: SupplementaryRecord)?
}
