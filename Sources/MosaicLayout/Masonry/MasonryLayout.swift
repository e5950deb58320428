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
        guard var state = open, let mark = closeMark else { throw .noSectionToAppendTo }
        // Check every item first, so that a failure leaves the layout as it was.
        // The widest and the narrowest column bound what any column can throw.
        let bounds = [state.geometry.lanes[0], state.geometry.lanes[state.geometry.laneCount - 1]]
        for (offset, item) in items.enumerated() {
            for lane in bounds {
                _ = try cardSizing.cardSize(
                    item, in: slot(section: state.section, index: state.itemCount + offset, lane: lane, narrowest: state.geometry.narrowestLane),
                    measurer: measurer)
            }
        }
        // Take the footer and the last decoration fragment away, and any page they opened.
        supplementaries.removeLast(supplementaries.count - mark.supplementaryCount)
        pageRecords.removeLast(pageRecords.count - mark.pageCount)
        if let before = mark.sectionBeforeMove {
            // Closing moved the section (no card, so nothing to copy) to a page now gone:
            // back to where it was, its header too.
            state = before
            if let header = mark.headerBeforeMove, let index = before.block.supplementaries.last {
                supplementaries[index] = header
            }
        } else {
            // Take the section's block back from its page (the last there) as it was
            // before. Moved straight into the state: a second live reference would make
            // the next card copy its column.
            state.block = pageRecords[state.page].blocks.removeLast()
            state.block.mainEnd = mark.blockMainEnd
            state.block.supplementaries.removeLast(state.block.supplementaries.count - mark.blockSupplementaryCount)
            state.block.decoration = mark.blockDecoration
        }
        pageRecords[state.page].usedEnd = mark.usedEnd
        try place(items, in: &state, measurer: measurer)
        _ = close(&state)
    }
}
