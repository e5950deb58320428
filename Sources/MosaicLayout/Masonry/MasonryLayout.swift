/// A masonry ("waterfall") board: equal-width columns (equal-height rows when horizontal),
/// each card as long as its image's aspect ratio makes it plus its caption, each card
/// dropped into a column chosen by the section's `ItemOrder`, sections stacked with headers,
/// footers and decorations, optionally split into pages.
///
/// Build one with `init(configuration:sections:measurer:)`, then query it. It is a value;
/// `append(_:measurer:)` grows it in O(k) for k new cards, with the frames that laying out
/// everything again would give.
public typealias MasonryLayout = SectionLayout<MasonryCards>

extension SectionLayout where Cards == MasonryCards {
    /// Lays out `sections` as masonry, with `configuration.aspectClamp` as the clamp.
    ///
    /// - Throws: `LayoutError` naming the first field or item that is out of range.
    /// - Complexity: O(n * c) for n cards in sections of c columns.
    public init(
        configuration: BoardConfiguration, sections: [LayoutSection], measurer: some TextMeasuring = NoText()
    ) throws(LayoutError) {
        try self.init(
            configuration: configuration, cardSizing: MasonryCards(aspectClamp: configuration.aspectClamp),
            sections: sections, measurer: measurer)
    }

    /// Adds cards to the end of the last section, continuing from its current column
    /// bottoms; the footer and decoration move down (or onto a new page). Masonry only: a
    /// grid's caption block is measured over all its items when it is laid out.
    ///
    /// - Complexity: O(k * c) for k new cards in c columns, whatever the board's size.
    /// - Throws: `LayoutError.noSectionToAppendTo` on a board without sections, or the
    ///   error of the first invalid item (the layout is then unchanged).
    public mutating func append(_ items: [LayoutItem], measurer: some TextMeasuring = NoText()) throws(LayoutError) {
        guard let open else { throw .noSectionToAppendTo }
        // Check every item first, so that a failure leaves the layout as it was.
        // The widest and the narrowest column bound what any column can throw.
        let bounds = [open.geometry.lanes[0], open.geometry.lanes[open.geometry.laneCount - 1]]
        for (offset, item) in items.enumerated() {
            for lane in bounds {
                _ = try cardSizing.cardSize(
                    item, in: slot(section: open.section, index: open.itemCount + offset, lane: lane, narrowest: open.geometry.narrowestLane),
                    measurer: measurer)
            }
        }
        var (state, _) = try reopenLastSection()
        try place(items, in: &state, measurer: measurer)
        _ = close(&state)
    }
}
