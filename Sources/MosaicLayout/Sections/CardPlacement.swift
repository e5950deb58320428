/// How the cards of a section are placed: the one thing in which layouts differ. The
/// section engine (`SectionLayout`) does everything else: sections, headers, footers,
/// decorations, insets, pagination, band queries and append.
///
/// A placement hands its cards to the engine with the open section's `SectionCursor`: one
/// at a time into a column the engine picks by the section's `ItemOrder`
/// (`SectionLayout.placeCard(cursor:_:)`), across adjacent columns (`placeSpanningCard`,
/// feature cards; masonry and grid conform to `CardSizing` and get both), or a row at a
/// time across the whole section (`placeRow(_:cursor:)`, justified rows). The engine
/// pages what it is given: a card or a row is never cut.
///
/// A new layout is a placement type, a typealias `SectionLayout<NewPlacement>` and its
/// initializer; see `MasonryCards`, `GridCards` and `JustifiedRows`.
public protocol CardPlacement: Sendable {
    /// Throws the first of the placement's own settings that is out of range.
    func validate(_ configuration: BoardConfiguration) throws(LayoutError)

    /// The number of columns a section is dealt into: `nil` takes the section's own
    /// (`SectionStyle.columns`); 1 gives the section's whole width to each row.
    var laneCount: Int? { get }

    /// Places `items`, the open section's items from `cursor.itemCount` on, each by
    /// `layout.placeCard(cursor:_:)` or in rows by `layout.placeRow(_:cursor:)`.
    func place(
        _ items: ArraySlice<LayoutItem>, in layout: inout SectionLayout<Self>, cursor: inout SectionCursor,
        measurer: some TextMeasuring
    ) throws(LayoutError)
}

extension CardPlacement where Self: CardSizing {
    public var laneCount: Int? { nil }

    public func validate(_ configuration: BoardConfiguration) throws(LayoutError) { try validate() }

    /// Each card in the column the section's order picks, sized by `cardSize`.
    @inline(__always)
    public func place(
        _ items: ArraySlice<LayoutItem>, in layout: inout SectionLayout<Self>, cursor: inout SectionCursor,
        measurer: some TextMeasuring
    ) throws(LayoutError) {
        for item in items {
            if item.span > 1 {
                try layout.placeSpanningCard(span: item.span, cursor: &cursor) { slot throws(LayoutError) in
                    try cardSize(item, in: slot, measurer: measurer)
                }
            } else {
                try layout.placeCard(cursor: &cursor) { slot throws(LayoutError) in try cardSize(item, in: slot, measurer: measurer) }
            }
        }
    }
}

/// One card of a row placed by `SectionLayout.placeRow`: where it lies across the row
/// (from the section's first column, pixels) and its size.
public struct RowCard: Sendable, Equatable {
    /// From the start of the section's items across the flow, pixels.
    public var crossOffset: Int
    /// The card's whole extent across the flow, padding included.
    public var crossLength: Int
    /// The card along the flow and its parts (`imageCross` is the image's width).
    public var size: CardSize

    public init(crossOffset: Int, crossLength: Int, size: CardSize) {
        self.crossOffset = crossOffset
        self.crossLength = crossLength
        self.size = size
    }
}

/// The open section, as a placement sees it: what it may ask (the section, its width, the
/// card's padding); `SectionLayout.placeCard` and `placeRow` put cards in it. Only the
/// engine makes one.
public struct SectionCursor: Sendable {
    var state: OpenSection
    /// True on a vertical board.
    public let isVertical: Bool
    /// The card's padding along and across the flow (both sides added), pixels.
    public let paddingMain: Int
    public let paddingCross: Int
    /// Pixels between an image and its caption.
    public let captionSpacing: Int

    /// The section's index.
    public var section: Int { state.section }
    /// The index in the section of the next card.
    public var itemCount: Int { state.itemCount }
    /// The section's items' extent across the flow: its columns and the spacing between
    /// them, pixels.
    public var crossLength: Int { state.geometry.crossEnd - state.geometry.crossStart }
    /// Pixels between two cards of a row (the section's column spacing).
    public var columnSpacing: Int { state.geometry.columnSpacing }
}
