/// A board of sections: cards dealt into equal columns (equal rows when horizontal) by the
/// section's `ItemOrder`, sections stacked with headers, footers and decorations, the whole
/// optionally split into pages. How long each card is, is `Cards`'s business: masonry cards
/// follow their image's aspect ratio (`MasonryLayout`), grid cards are equal cells
/// (`GridLayout`). Everything else is shared.
///
/// Build one with a layout's initializer, then query it (it conforms to `BoardLayout`).
/// It is a value; frames are integral pixels, origin top-left, per page.
public struct SectionLayout<Cards: CardPlacement>: Sendable {
    public let configuration: BoardConfiguration
    /// What sizes the cards.
    public let cardSizing: Cards
    let axis: FlowAxis
    let padding: FlowInsets

    /// Every card, in section then item order: the global index of a card is its position.
    var cardRecords: [CardRecord] = []
    /// Headers, footers and decorations, in the order they were placed.
    var supplementaries: [SupplementaryRecord] = []
    var pageRecords: [PageRecord] = []
    /// The global index of the first card of each section.
    var sectionFirstCard: [Int] = []
    var sectionStyles: [SectionStyle] = []
    var sectionLaneCounts: [Int] = []

    /// The state of the last section before it was closed, kept so that `append` can
    /// reopen it.
    var open: OpenSection?
    var closeMark: CloseMark?
    /// The last section's provisional last piece, and its items (see `PieceMark`).
    var tailMark: PieceMark?
    var tailItems: [LayoutItem] = []

    /// Lays out `sections` with `cardSizing`.
    ///
    /// - Parameters:
    ///   - configuration: the board's settings.
    ///   - cardSizing: how long each card is.
    ///   - sections: the sections, in order; their items in order.
    ///   - measurer: measures the captions (`NoText()` when there are none).
    /// - Throws: `LayoutError` naming the first field or item that is out of range.
    /// - Complexity: O(n * c) for n cards in sections of c columns.
    public init(
        configuration: BoardConfiguration, cardSizing: Cards, sections: [LayoutSection], measurer: some TextMeasuring = NoText()
    ) throws(LayoutError) {
        try configuration.validate()
        try cardSizing.validate(configuration)
        self.configuration = configuration
        self.cardSizing = cardSizing
        self.axis = FlowAxis(configuration.direction)
        self.padding = axis.flow(configuration.cellPadding)
        let insets = axis.flow(configuration.contentInsets)
        pageRecords = [PageRecord(blocks: [], usedEnd: insets.mainStart)]
        var top = insets.mainStart
        var hasContent = false
        for (index, section) in sections.enumerated() {
            let style = section.style ?? configuration.sectionStyle
            // A header or footer of no length shows nothing either.
            let showsNothing = section.items.isEmpty && (style.header?.length ?? 0) == 0 && (style.footer?.length ?? 0) == 0
            var state = try beginSection(index, style: section.style, top: top, pageHasContent: hasContent, showsNothing: showsNothing)
            try place(section.items, in: &state, measurer: measurer)
            top = close(&state)
            hasContent = hasContent || !showsNothing
        }
    }

    // MARK: - Building

    /// Opens section `index` at `top` on the current page: places its header and returns
    /// the state that its cards are dealt from.
    mutating func beginSection(
        _ index: Int, style: SectionStyle?, top: Int, pageHasContent: Bool, showsNothing: Bool = false
    ) throws(LayoutError) -> OpenSection {
        let style = style ?? configuration.sectionStyle
        if style != configuration.sectionStyle { try style.validate("sections[\(index)].style") }
        let geometry = try SectionGeometry(
            section: index, style: style, configuration: configuration, axis: axis, padding: padding,
            laneCount: cardSizing.laneCount)
        sectionFirstCard.append(cardRecords.count)
        // A header or footer of no length shows nothing: it is none (no element, no insets),
        // so that it never holds a page or a background of its own.
        var kept = style
        if kept.header?.length == 0 { kept.header = nil }
        if kept.footer?.length == 0 { kept.footer = nil }
        sectionStyles.append(kept)
        sectionLaneCounts.append(geometry.laneCount)
        // A section starts on a new page when not even its header and insets fit; one that
        // shows nothing (no card, header or footer) never opens a page.
        var top = top
        var pageHasContent = pageHasContent
        let emptyLength = itemTop(index, geometry, top: 0, withHeader: true) + geometry.sectionInsets.mainEnd
        if pageHasContent, !showsNothing, !fits(end: top + emptyLength) {
            top = axis.flow(configuration.contentInsets).mainStart
            pageRecords.append(PageRecord(blocks: [], usedEnd: top))
            pageHasContent = false
        }
        var state = OpenSection(
            section: index, geometry: geometry, page: pageRecords.count - 1, sectionTop: top,
            itemTop: top, laneNext: [], laneEnd: [], itemCount: 0, pageHasContent: pageHasContent,
            block: SectionBlock(section: index, mainStart: top, lanes: geometry.lanes))
        state.startedAfterContent = pageHasContent
        startColumns(&state, top: top, withHeader: true)
        return state
    }

    /// Where section `section`'s cards start in a block beginning at `top`: below its
    /// header and the header's insets (`withHeader`, when it has one), then its top inset.
    func itemTop(_ section: Int, _ geometry: SectionGeometry, top: Int, withHeader: Bool) -> Int {
        var itemTop = top + geometry.sectionInsets.mainStart
        if withHeader, let header = sectionStyles[section].header { itemTop += axis.flow(header.insets).main + header.length }
        return itemTop
    }

    /// Starts the open section's block at `top`: its header there (`withHeader`, when it has
    /// one; marked `continued` when repeated on a later page), every column below it.
    mutating func startColumns(_ state: inout OpenSection, top: Int, withHeader: Bool, continued: Bool = false) {
        if withHeader, let header = sectionStyles[state.section].header {
            let insets = axis.flow(header.insets)
            addSupplementary(.header, frame: supplementaryFrame(main: top + insets.mainStart, length: header.length, insets: insets), state: &state)
            supplementaries[supplementaries.count - 1].continued = continued
        }
        state.itemTop = itemTop(state.section, state.geometry, top: top, withHeader: withHeader)
        state.laneNext = Array(repeating: state.itemTop, count: state.geometry.laneCount)
        state.laneEnd = state.laneNext
    }

    /// Deals `items` into the open section through the placement.
    mutating func place(
        _ items: [LayoutItem], in state: inout OpenSection, measurer: some TextMeasuring
    ) throws(LayoutError) {
        // Grow geometrically: reserving the exact count on every append would copy the
        // whole board each time.
        if cardRecords.capacity < cardRecords.count + items.count {
            cardRecords.reserveCapacity(max(cardRecords.count + items.count, 2 * cardRecords.capacity))
        }
        if state.block.entryCount == 0 {
            // A fresh block: room for each column's share up front (columns fill about
            // evenly). Only here, so that appending in pieces keeps the arrays' own growth.
            let share = items.count / state.geometry.laneCount + items.count / (8 * state.geometry.laneCount) + 1
            for lane in 0..<state.geometry.laneCount { state.block.lanes[lane].reserveCapacity(share) }
        }
        var cursor = SectionCursor(
            state: state, isVertical: axis.isVertical, paddingMain: padding.main, paddingCross: padding.cross,
            captionSpacing: configuration.captionSpacing)
        // Moved into the cursor and back: a second live reference would make the next card
        // copy its column.
        state.block = SectionBlock(section: state.section, mainStart: 0, lanes: [])
        let placement = cardSizing
        defer { state = cursor.state }
        try placement.place(items[...], in: &self, cursor: &cursor, measurer: measurer)
    }

    /// Marks what comes next as the open section's provisional last piece, made of
    /// `items`: `reopenLastSection` takes it back, so that appending lays it out again
    /// with the new items.
    mutating func markTail(_ items: [LayoutItem], cursor: SectionCursor) {
        var state = cursor.state
        let block = state.block
        state.block = SectionBlock(section: state.section, mainStart: 0, lanes: [])
        var header: (index: Int, record: SupplementaryRecord)?
        if sectionStyles[state.section].header != nil, !state.isContinuation, let index = block.supplementaries.first {
            header = (index, supplementaries[index])
        }
        tailMark = PieceMark(
            state: state, blockMainStart: block.mainStart, blockSupplementaries: block.supplementaries,
            laneCounts: block.lanes.map(\.count), cardCount: cardRecords.count, supplementaryCount: supplementaries.count,
            pageCount: pageRecords.count, blocksOnPage: pageRecords[state.page].blocks.count,
            usedEnd: pageRecords[state.page].usedEnd, header: header)
        tailItems = items
    }

    /// Reopens the last section for `append`: takes back its footer and decoration (and
    /// any page they opened) and, when it ended in a provisional piece, that piece.
    /// Returns the section's state and the items of the piece taken back.
    mutating func reopenLastSection() throws(LayoutError) -> (OpenSection, [LayoutItem]) {
        guard var state = open, let mark = closeMark else { throw .noSectionToAppendTo }
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
        guard let tail = tailMark, tail.state.section == state.section else { return (state, []) }
        // Take the provisional piece back: its cards, and what its page break made.
        cardRecords.removeLast(cardRecords.count - tail.cardCount)
        supplementaries.removeLast(max(0, supplementaries.count - tail.supplementaryCount))
        if let header = tail.header { supplementaries[header.index] = header.record }
        var block: SectionBlock
        if pageRecords.count > tail.pageCount {
            pageRecords.removeLast(pageRecords.count - tail.pageCount)
            if pageRecords[tail.state.page].blocks.count > tail.blocksOnPage {
                block = pageRecords[tail.state.page].blocks.removeLast()
                if let decoration = block.decoration, decoration >= tail.supplementaryCount { block.decoration = nil }
            } else {
                block = SectionBlock(section: state.section, mainStart: tail.blockMainStart, lanes: tail.state.geometry.lanes)
            }
            block.supplementaries = tail.blockSupplementaries
            for lane in block.lanes.indices { block.removeLast(block.lanes[lane].count - tail.laneCounts[lane], lane: lane) }
        } else {
            block = state.block
            for lane in block.lanes.indices { block.removeLast(block.lanes[lane].count - tail.laneCounts[lane], lane: lane) }
        }
        pageRecords[tail.state.page].usedEnd = tail.usedEnd
        state = tail.state
        state.block = block
        tailMark = nil
        let items = tailItems
        tailItems = []
        return (state, items)
    }

    /// Places the open section's next card in the column its `ItemOrder` picks, `size`
    /// giving its size in a column (asked again when a page break picks a column of
    /// another width). A card that does not fit on the page moves to the next (or takes
    /// the section's header along, when it is in the first row).
    @inline(__always)
    public mutating func placeCard(
        cursor: inout SectionCursor, _ size: (CardSlot) throws(LayoutError) -> CardSize
    ) throws(LayoutError) {
        try placeCard(in: &cursor.state, size)
    }

    @inline(__always)
    mutating func placeCard(
        in state: inout OpenSection, _ sizing: (CardSlot) throws(LayoutError) -> CardSize
    ) throws(LayoutError) {
        let order = state.geometry.order
        let index = state.itemCount
        var lane = chooseLane(order: order, index: index, state: state)
        var size = try sizing(slot(section: state.section, index: index, lane: state.geometry.lanes[lane], narrowest: state.geometry.narrowestLane))
        if state.pageHasContent,
            state.pageIsFull || !fits(end: state.laneNext[lane] + size.length + state.geometry.sectionInsets.mainEnd)
        {
            let previous = state.geometry.lanes[lane]
            if index < state.geometry.laneCount, state.startedAfterContent, !state.isContinuation,
                movedSectionFits(state, next: size.length)
            {
                // A header never ends a page: it moves with its first row of cards.
                moveSectionToNewPage(&state)
                lane = chooseLane(order: order, index: index, state: state)
            } else {
                // On a new page every column starts level, so the order picks the first
                // (shortest first, ties to the lowest) or the card's own: the header is
                // repeated when it fits with the card as long as it will be there.
                lane = order == .shortestFirst ? 0 : lane
                if state.geometry.lanes[lane].length != previous.length {
                    size = try sizing(slot(section: state.section, index: index, lane: state.geometry.lanes[lane], narrowest: state.geometry.narrowestLane))
                }
                breakPage(&state, keepingEmptyBlock: false, repeatingHeaderBefore: size.length)
            }
            if state.geometry.lanes[lane].length != previous.length {
                size = try sizing(slot(section: state.section, index: index, lane: state.geometry.lanes[lane], narrowest: state.geometry.narrowestLane))
            }
        }
        let laneGeometry = state.geometry.lanes[lane]
        markFullPage(cardLength: size.length, in: &state)
        addCard(size, lane: lane, main: state.laneNext[lane], cross: laneGeometry.start, crossLength: laneGeometry.length, in: &state)
        state.laneEnd[lane] = state.laneNext[lane] + size.length
        state.laneNext[lane] = state.laneEnd[lane] + state.geometry.rowSpacing
    }

    /// Places the open section's next card across `span` adjacent columns (a feature
    /// card; clamped to the section's columns): at the highest place where they are all
    /// free (ties to the leftmost), the columns below it continuing from its bottom.
    /// `size` is asked with the spanned width as the column's.
    public mutating func placeSpanningCard(
        span requested: Int, cursor: inout SectionCursor, _ sizing: (CardSlot) throws(LayoutError) -> CardSize
    ) throws(LayoutError) {
        let span = min(max(1, requested), cursor.state.geometry.laneCount)
        guard span > 1 else { return try placeCard(in: &cursor.state, sizing) }
        var (first, main) = highestPlace(span: span, state: cursor.state)
        var width = spannedLength(first: first, span: span, state: cursor.state)
        var size = try sizing(slot(section: cursor.state.section, index: cursor.state.itemCount, lane: width, narrowest: cursor.state.geometry.narrowestLane))
        if cursor.state.pageHasContent,
            cursor.state.pageIsFull || !fits(end: main + size.length + cursor.state.geometry.sectionInsets.mainEnd)
        {
            // On a new page every column starts level: the leftmost place.
            let fresh = spannedLength(first: 0, span: span, state: cursor.state)
            if fresh.length != width.length {
                size = try sizing(slot(section: cursor.state.section, index: cursor.state.itemCount, lane: fresh, narrowest: cursor.state.geometry.narrowestLane))
            }
            breakPage(&cursor.state, keepingEmptyBlock: false, repeatingHeaderBefore: size.length)
            (first, main) = highestPlace(span: span, state: cursor.state)
            width = fresh
        }
        markFullPage(cardLength: size.length, in: &cursor.state)
        let globalIndex = cardRecords.count
        // Indexed in every column it covers, so that a band query of any of them finds it.
        addCard(size, lane: first, main: main, cross: width.start, crossLength: width.length, in: &cursor.state)
        for lane in first..<(first + span) {
            if lane > first {
                cursor.state.block.add(card: globalIndex, lane: lane, start: main, end: main + size.length, previousEnd: cursor.state.laneEnd[lane])
            }
            cursor.state.laneEnd[lane] = main + size.length
            cursor.state.laneNext[lane] = main + size.length + cursor.state.geometry.rowSpacing
        }
    }

    /// The leftmost run of `span` columns whose lowest next place is highest, and that place.
    func highestPlace(span: Int, state: OpenSection) -> (first: Int, main: Int) {
        var best = 0, bestMain = Int.max
        for first in 0...(state.geometry.laneCount - span) {
            var main = Int.min
            for lane in first..<(first + span) { main = max(main, state.laneNext[lane]) }
            if main < bestMain {
                best = first
                bestMain = main
            }
        }
        return (best, bestMain)
    }

    /// The extent across of columns `first..<first + span` and the spacing between them.
    func spannedLength(first: Int, span: Int, state: OpenSection) -> LaneGeometry {
        let lanes = state.geometry.lanes
        // Right to left, the last column spanned is the leftmost.
        let (left, right) = state.geometry.isMirrored ? (lanes[first + span - 1], lanes[first]) : (lanes[first], lanes[first + span - 1])
        return LaneGeometry(start: left.start, length: right.start + right.length - left.start)
    }

    /// Places `cards` as one row across the open section: all start where its lowest
    /// column ends (plus the row spacing, after a first row), each as long as the row's
    /// longest card (its frame; the image keeps its size); a row that does not fit on the
    /// page moves whole to the next. Cards are given in order across the row; they are
    /// found by band queries in column 0, whatever their place across.
    public mutating func placeRow(_ cards: [RowCard], cursor: inout SectionCursor) {
        guard !cards.isEmpty else { return }
        var length = 0
        for card in cards { length = max(length, card.size.length) }
        var main = cursor.state.laneNext.max() ?? cursor.state.itemTop
        if cursor.state.pageHasContent,
            cursor.state.pageIsFull || !fits(end: main + length + cursor.state.geometry.sectionInsets.mainEnd)
        {
            if cursor.state.itemCount == 0, cursor.state.startedAfterContent, !cursor.state.isContinuation,
                movedSectionFits(cursor.state, next: length)
            {
                moveSectionToNewPage(&cursor.state)
            } else {
                breakPage(&cursor.state, keepingEmptyBlock: false, repeatingHeaderBefore: length)
            }
            main = cursor.state.laneNext.max() ?? cursor.state.itemTop
        }
        let geometry = cursor.state.geometry
        markFullPage(cardLength: length, in: &cursor.state)
        for card in cards {
            var size = card.size
            size.length = length
            // Right to left, the row's offsets run from the right edge.
            let cross = geometry.isMirrored ? geometry.crossEnd - card.crossOffset - card.crossLength : geometry.crossStart + card.crossOffset
            addCard(size, lane: 0, main: main, cross: cross, crossLength: card.crossLength, in: &cursor.state)
            // The row's first card holds the stripe index's entries; the others end with it.
            cursor.state.laneEnd[0] = main + length
        }
        for lane in cursor.state.laneNext.indices {
            cursor.state.laneEnd[lane] = main + length
            cursor.state.laneNext[lane] = main + length + cursor.state.geometry.rowSpacing
        }
    }

    /// Marks the page full when a card (or row) of `cardLength` would not fit even at the
    /// top of an empty page: it stands alone on its page.
    @inline(__always)
    func markFullPage(cardLength: Int, in state: inout OpenSection) {
        guard configuration.maximumPageLength != nil else { return }
        let top = itemTop(state.section, state.geometry, top: axis.flow(configuration.contentInsets).mainStart, withHeader: false)
        if !fits(end: top + cardLength + state.geometry.sectionInsets.mainEnd) { state.pageIsFull = true }
    }

    /// Records a card of `size` at `main` in column `lane` of the open section's block.
    @inline(__always)
    mutating func addCard(_ size: CardSize, lane: Int, main: Int, cross: Int, crossLength: Int, in state: inout OpenSection) {
        let globalIndex = cardRecords.count
        cardRecords.append(CardRecord(
            main: main, mainLength: Int32(size.length), cross: Int32(cross),
            crossLength: Int32(crossLength), imageLength: Int32(size.imageLength),
            imageCross: Int32(size.imageCross), captionLength: Int32(size.captionLength),
            page: Int32(state.page),
            hasCaption: size.hasCaption, scaling: size.scaling))
        state.block.add(
            card: globalIndex, lane: lane, start: main, end: main + size.length, previousEnd: state.laneEnd[lane])
        state.itemCount += 1
        state.pageHasContent = true
    }

    /// Closes the open section: its footer and decoration. Returns where the next section
    /// starts. Remembers enough to reopen the section for `append`.
    mutating func close(_ state: inout OpenSection) -> Int {
        // Kept without its block: `append` takes the block back from its page, and a second
        // reference here would make it copy the columns.
        var reopenable = state
        reopenable.block = SectionBlock(section: state.section, mainStart: 0, lanes: [])
        open = reopenable
        closeMark = CloseMark(
            supplementaryCount: supplementaries.count, pageCount: pageRecords.count,
            blockMainEnd: state.block.mainEnd, blockSupplementaryCount: state.block.supplementaries.count,
            blockDecoration: state.block.decoration, usedEnd: pageRecords[state.page].usedEnd)
        var end = itemsEnd(state) + state.geometry.sectionInsets.mainEnd
        let style = sectionStyles[state.section]
        if let footer = style.footer {
            let footerInsets = axis.flow(footer.insets)
            var start = end + footerInsets.mainStart
            if state.pageHasContent, state.pageIsFull || !fits(end: start + footer.length + footerInsets.mainEnd) {
                let whole = itemTop(state.section, state.geometry, top: axis.flow(configuration.contentInsets).mainStart, withHeader: true)
                    + state.geometry.sectionInsets.mainEnd + footerInsets.main + footer.length
                if state.itemCount == 0, state.startedAfterContent, !state.isContinuation, fits(end: whole) {
                    // A section without cards moves whole, its header with its footer: a
                    // header never ends a page, and no empty band is left behind.
                    closeMark?.sectionBeforeMove = state
                    if style.header != nil, let header = state.block.supplementaries.last {
                        closeMark?.headerBeforeMove = supplementaries[header]
                    }
                    moveSectionToNewPage(&state)
                    start = itemsEnd(state) + state.geometry.sectionInsets.mainEnd + footerInsets.mainStart
                } else {
                    // The block stays even when empty: `append` takes it back from its page.
                    breakPage(&state, keepingEmptyBlock: true, repeatingHeaderBefore: nil)
                    start = state.sectionTop + footerInsets.mainStart
                }
            }
            let frame = supplementaryFrame(main: start, length: footer.length, insets: footerInsets)
            addSupplementary(.footer, frame: frame, state: &state)
            end = start + footer.length + footerInsets.mainEnd
        } else if state.itemCount == 0, style.header == nil, !state.pageHasContent || !fits(end: end) {
            // A section that shows nothing takes no room where it does not fit (it opens no
            // page) nor at the top of a page that holds nothing yet (no blank first page).
            end = state.sectionTop
        }
        finishBlock(&state, end: end)
        return end
    }

    /// The bottom of the open section's longest column on the current page.
    func itemsEnd(_ state: OpenSection) -> Int {
        state.laneEnd.max() ?? state.itemTop
    }

    /// Ends the section's block on the current page at `end` (its extent and decoration)
    /// and puts it on the page. The state's block must not be changed afterwards. The
    /// background's insets along the flow separate the section from its neighbours: on a
    /// page it continues from, or onto, they are left out there, so that it frames every
    /// card of the page.
    mutating func finishBlock(_ state: inout OpenSection, end: Int, continuesOnNextPage: Bool = false) {
        let page = state.page
        state.block.mainEnd = end
        pageRecords[page].usedEnd = max(pageRecords[page].usedEnd, end)
        // The background frames whatever of the section the page shows (header, cards,
        // footer); a block that shows nothing here draws none, nor does a fragment of no area.
        let showsSomething = state.block.entryCount > 0 || !state.block.supplementaries.isEmpty
        if let decoration = sectionStyles[state.section].decoration, showsSomething {
            let insets = axis.flow(configuration.contentInsets)
            var inset = axis.flow(decoration.insets)
            if state.isContinuation { inset.mainStart = 0 }
            if continuesOnNextPage { inset.mainEnd = 0 }
            // Insets longer than what the page shows of the section (a thin header alone)
            // would leave nothing: the background then spans the section's whole block.
            if end - state.sectionTop - inset.main <= 0 { (inset.mainStart, inset.mainEnd) = (0, 0) }
            let mainLength = end - state.sectionTop - inset.main
            let crossLength = configuration.extent - insets.cross - inset.cross
            if mainLength > 0, crossLength > 0 {
                let frame = axis.rect(
                    main: state.sectionTop + inset.mainStart, cross: insets.crossStart + inset.crossStart,
                    mainLength: mainLength, crossLength: crossLength)
                supplementaries.append(SupplementaryRecord(kind: .decoration, section: state.section, page: page, frame: frame))
                state.block.decoration = supplementaries.count - 1
            }
        }
        pageRecords[page].blocks.append(state.block)
    }

    /// Whether something ending at `end` (its own end insets included) fits on a page:
    /// always true without pagination.
    func fits(end: Int) -> Bool {
        guard let pageLength = configuration.maximumPageLength else { return true }
        return end + axis.flow(configuration.contentInsets).mainEnd <= pageLength
    }

    /// Ends the current page for the open section and continues it at the top of a new one:
    /// every column restarts at the page's top inset plus the section's top inset. A block
    /// that holds nothing yet moves whole (no empty background is left behind) unless
    /// `keepingEmptyBlock`. With `repeatingHeaderBefore` (the length of the card about to be
    /// placed), the section's header is repeated at the top, marked as continued, when it
    /// fits there with that card.
    mutating func breakPage(_ state: inout OpenSection, keepingEmptyBlock: Bool, repeatingHeaderBefore next: Int?) {
        // A section begins on the first page that holds any of it (its background's gap
        // before it is there).
        let beginsHere = !state.isContinuation && state.block.supplementaries.isEmpty && state.block.entryCount == 0
        if keepingEmptyBlock || !state.block.supplementaries.isEmpty || state.block.entryCount > 0 {
            finishBlock(&state, end: itemsEnd(state) + state.geometry.sectionInsets.mainEnd, continuesOnNextPage: true)
        }
        let top = axis.flow(configuration.contentInsets).mainStart
        pageRecords.append(PageRecord(blocks: [], usedEnd: top))
        state.block = SectionBlock(section: state.section, mainStart: top, lanes: state.geometry.lanes)
        state.page = pageRecords.count - 1
        state.sectionTop = top
        state.isContinuation = !beginsHere || keepingEmptyBlock
        state.pageIsFull = false
        let withHeader = next.map { fits(end: itemTop(state.section, state.geometry, top: top, withHeader: true) + $0 + state.geometry.sectionInsets.mainEnd) } ?? false
        startColumns(&state, top: top, withHeader: withHeader, continued: true)
        state.pageHasContent = false
    }

    /// Whether the open section's header and first row, with a next card of length `next`,
    /// fit at the top of an empty page (else moving them would only make that page too long).
    func movedSectionFits(_ state: OpenSection, next: Int) -> Bool {
        guard sectionStyles[state.section].header != nil else { return false }
        var longest = next
        for card in sectionFirstCard[state.section]..<cardRecords.count { longest = max(longest, Int(cardRecords[card].mainLength)) }
        let top = itemTop(state.section, state.geometry, top: axis.flow(configuration.contentInsets).mainStart, withHeader: true)
        return fits(end: top + longest + state.geometry.sectionInsets.mainEnd)
    }

    /// Moves the open section, which began on this page after other content and holds no
    /// more than its header and part of its first row here, to the top of a new page.
    mutating func moveSectionToNewPage(_ state: inout OpenSection) {
        // The header is the section's only supplementary so far, the last one made.
        if state.block.supplementaries.last == supplementaries.count - 1 { supplementaries.removeLast() }
        let firstCard = sectionFirstCard[state.section]
        let oldItemTop = state.itemTop
        let top = axis.flow(configuration.contentInsets).mainStart
        pageRecords.append(PageRecord(blocks: [], usedEnd: top))
        state = OpenSection(
            section: state.section, geometry: state.geometry, page: pageRecords.count - 1, sectionTop: top, itemTop: top,
            laneNext: [], laneEnd: [], itemCount: state.itemCount, pageHasContent: false,
            block: SectionBlock(section: state.section, mainStart: top, lanes: state.geometry.lanes))
        startColumns(&state, top: top, withHeader: true)
        // The first row's cards placed so far, one per column, each at the column's top.
        for card in firstCard..<cardRecords.count {
            cardRecords[card].main += state.itemTop - oldItemTop
            cardRecords[card].page = Int32(state.page)
            let start = cardRecords[card].main, end = start + Int(cardRecords[card].mainLength)
            // Every column the card covers (a feature card spans several; a row's cards
            // all go to the first).
            let cross = Int(cardRecords[card].cross), crossEnd = cross + Int(cardRecords[card].crossLength)
            let lanes = state.geometry.lanes
            var covered = lanes.indices.filter { cross <= lanes[$0].start && lanes[$0].start + lanes[$0].length <= crossEnd }
            if covered.isEmpty { covered = [0] }
            for lane in covered {
                state.block.add(card: card, lane: lane, start: start, end: end, previousEnd: state.laneEnd[lane])
                state.laneEnd[lane] = end
                state.laneNext[lane] = end + state.geometry.rowSpacing
            }
        }
        state.pageHasContent = false
    }

    mutating func addSupplementary(_ kind: ElementKind, frame: Rect, state: inout OpenSection) {
        supplementaries.append(SupplementaryRecord(kind: kind, section: state.section, page: state.page, frame: frame))
        state.block.supplementaries.append(supplementaries.count - 1)
        state.pageHasContent = true
    }

    func supplementaryFrame(main: Int, length: Int, insets: FlowInsets) -> Rect {
        let content = axis.flow(configuration.contentInsets)
        return axis.rect(
            main: main, cross: content.crossStart + insets.crossStart, mainLength: length,
            crossLength: max(0, configuration.extent - content.cross - insets.cross))
    }

    @inline(__always)
    func chooseLane(order: ItemOrder, index: Int, state: OpenSection) -> Int {
        let count = state.laneNext.count
        switch order {
        case .leftToRight:
            return index % count
        case .rightToLeft:
            return count - 1 - index % count
        case .shortestFirst:
            var best = 0
            var bestNext = state.laneNext[0]
            for lane in 1..<count where state.laneNext[lane] < bestNext {
                best = lane
                bestNext = state.laneNext[lane]
            }
            return best
        }
    }

    /// The slot of item `index` of `section` in `lane`.
    @inline(__always)
    func slot(section: Int, index: Int, lane: LaneGeometry, narrowest: Int) -> CardSlot {
        CardSlot(
            path: ItemPath(section: section, item: index), isVertical: axis.isVertical, laneLength: lane.length,
            narrowestLaneLength: narrowest,
            paddingMain: padding.main, paddingCross: padding.cross, captionSpacing: configuration.captionSpacing)
    }
}
