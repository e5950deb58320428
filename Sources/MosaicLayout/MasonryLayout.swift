/// A masonry ("waterfall") board: equal-width columns (equal-height rows when horizontal),
/// each card as long as its image's aspect ratio makes it plus its caption, each card
/// dropped into a column chosen by the section's `ItemOrder`, sections stacked with headers,
/// footers and decorations, optionally split into pages.
///
/// Build one with `init(configuration:sections:measurer:)`, then query it. It is a value;
/// `append(_:measurer:)` grows it in O(k) for k new cards, with the frames that laying out
/// everything again would give.
public struct MasonryLayout: Sendable {
    public let configuration: MasonryConfiguration
    let axis: FlowAxis
    let padding: FlowInsets

    /// Every card, in section then item order: the global index of a card is its position.
    var cards: [CardRecord] = []
    /// Headers, footers and decorations, in the order they were placed.
    var supplementaries: [SupplementaryRecord] = []
    var pageRecords: [PageRecord] = []
    /// The global index of the first card of each section.
    var sectionFirstCard: [Int] = []
    var sectionStyles: [SectionStyle] = []

    /// The state of the last section before it was closed, kept so that `append` can
    /// reopen it.
    var open: OpenSection?
    var closeMark: CloseMark?

    /// Lays out `sections`.
    ///
    /// - Parameters:
    ///   - configuration: the board's settings.
    ///   - sections: the sections, in order; their items in order.
    ///   - measurer: measures the captions (`NoText()` when there are none).
    /// - Throws: `LayoutError` naming the first field or item that is out of range.
    /// - Complexity: O(n * c) for n cards in sections of c columns.
    public init(
        configuration: MasonryConfiguration, sections: [LayoutSection], measurer: some TextMeasuring = NoText()
    ) throws(LayoutError) {
        try configuration.validate()
        self.configuration = configuration
        self.axis = FlowAxis(configuration.direction)
        self.padding = axis.flow(configuration.cellPadding)
        let insets = axis.flow(configuration.contentInsets)
        pageRecords = [PageRecord(blocks: [], usedEnd: insets.mainStart)]
        var top = insets.mainStart
        var hasContent = false
        for (index, section) in sections.enumerated() {
            var state = try beginSection(index, style: section.style, top: top, pageHasContent: hasContent)
            try place(section.items, in: &state, measurer: measurer)
            top = close(&state)
            hasContent = true
        }
    }

    // MARK: - Building

    /// Opens section `index` at `top` on the current page: places its header and returns
    /// the state that its cards are dealt from.
    mutating func beginSection(
        _ index: Int, style: SectionStyle?, top: Int, pageHasContent: Bool
    ) throws(LayoutError) -> OpenSection {
        let style = style ?? configuration.sectionStyle
        if style != configuration.sectionStyle { try style.validate("sections[\(index)].style") }
        let geometry = try SectionGeometry(
            section: index, style: style, configuration: configuration, axis: axis, padding: padding)
        sectionFirstCard.append(cards.count)
        sectionStyles.append(style)
        // A section starts on a new page when not even its header and insets fit.
        var top = top
        var pageHasContent = pageHasContent
        let headerInsets = style.header.map { axis.flow($0.insets) }
        let emptyLength = geometry.sectionInsets.main + (style.header.map { $0.length + headerInsets!.main } ?? 0)
        if pageHasContent, !fits(end: top + emptyLength) {
            top = axis.flow(configuration.contentInsets).mainStart
            pageRecords.append(PageRecord(blocks: [], usedEnd: top))
            pageHasContent = false
        }
        var state = OpenSection(
            section: index, geometry: geometry, page: pageRecords.count - 1, sectionTop: top,
            itemTop: top, laneNext: [], laneEnd: [], itemCount: 0, pageHasContent: pageHasContent,
            block: SectionBlock(section: index, mainStart: top, lanes: geometry.lanes))
        var itemTop = top + geometry.sectionInsets.mainStart
        if let header = style.header, let headerInsets {
            let start = top + headerInsets.mainStart
            let frame = supplementaryFrame(main: start, length: header.length, insets: headerInsets)
            addSupplementary(.header, frame: frame, state: &state)
            itemTop = start + header.length + headerInsets.mainEnd + geometry.sectionInsets.mainStart
        }
        state.itemTop = itemTop
        state.laneNext = Array(repeating: itemTop, count: geometry.laneCount)
        state.laneEnd = state.laneNext
        return state
    }

    /// Deals `items` into the open section.
    mutating func place(
        _ items: [LayoutItem], in state: inout OpenSection, measurer: some TextMeasuring
    ) throws(LayoutError) {
        // Grow geometrically: reserving the exact count on every append would copy the
        // whole board each time.
        if cards.capacity < cards.count + items.count {
            cards.reserveCapacity(max(cards.count + items.count, 2 * cards.capacity))
        }
        if state.block.entryCount == 0 {
            // A fresh block: room for each column's share up front (columns fill about
            // evenly). Only here, so that appending in pieces keeps the arrays' own growth.
            let share = items.count / state.geometry.laneCount + items.count / (8 * state.geometry.laneCount) + 1
            for lane in 0..<state.geometry.laneCount { state.block.lanes[lane].reserveCapacity(share) }
        }
        let order = state.geometry.order
        for item in items {
            let index = state.itemCount
            var lane = chooseLane(order: order, index: index, state: state)
            var size = try cardSize(item, section: state.section, index: index, lane: state.geometry.lanes[lane], measurer: measurer)
            if state.pageHasContent, !fits(end: state.laneNext[lane] + size.length + state.geometry.sectionInsets.mainEnd) {
                breakPage(&state, keepingEmptyBlock: false)
                let previous = state.geometry.lanes[lane]
                lane = chooseLane(order: order, index: index, state: state)
                if state.geometry.lanes[lane].length != previous.length {
                    size = try cardSize(item, section: state.section, index: index, lane: state.geometry.lanes[lane], measurer: measurer)
                }
            }
            let main = state.laneNext[lane]
            let laneGeometry = state.geometry.lanes[lane]
            let globalIndex = cards.count
            cards.append(CardRecord(
                main: main, mainLength: Int32(size.length), cross: Int32(laneGeometry.start),
                crossLength: Int32(laneGeometry.length), imageLength: Int32(size.imageLength),
                imageCross: Int32(size.imageCross), captionLength: Int32(size.captionLength),
                section: Int32(state.section), item: Int32(index), page: Int32(state.page),
                hasCaption: size.hasCaption, clamped: size.clamped))
            state.block.add(
                card: globalIndex, lane: lane, start: main, end: main + size.length, previousEnd: state.laneEnd[lane])
            state.laneEnd[lane] = main + size.length
            state.laneNext[lane] = main + size.length + state.geometry.rowSpacing
            state.itemCount += 1
            state.pageHasContent = true
        }
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
        if let footer = sectionStyles[state.section].footer {
            let footerInsets = axis.flow(footer.insets)
            var start = end + footerInsets.mainStart
            if state.pageHasContent, !fits(end: start + footer.length + footerInsets.mainEnd) {
                // The block stays even when empty: `append` takes it back from its page.
                breakPage(&state, keepingEmptyBlock: true)
                start = state.sectionTop + footerInsets.mainStart
            }
            let frame = supplementaryFrame(main: start, length: footer.length, insets: footerInsets)
            addSupplementary(.footer, frame: frame, state: &state)
            end = start + footer.length + footerInsets.mainEnd
        }
        finishBlock(&state, end: end)
        return end
    }

    /// The bottom of the open section's longest column on the current page.
    func itemsEnd(_ state: OpenSection) -> Int {
        state.laneEnd.max() ?? state.itemTop
    }

    /// Ends the section's block on the current page at `end` (its extent and decoration)
    /// and puts it on the page. The state's block must not be changed afterwards.
    mutating func finishBlock(_ state: inout OpenSection, end: Int) {
        let page = state.page
        state.block.mainEnd = end
        pageRecords[page].usedEnd = max(pageRecords[page].usedEnd, end)
        if let decoration = sectionStyles[state.section].decoration {
            let insets = axis.flow(configuration.contentInsets)
            let frame = axis.rect(
                main: state.sectionTop, cross: insets.crossStart,
                mainLength: end - state.sectionTop, crossLength: configuration.extent - insets.cross
            ).inset(by: decoration.insets)
            supplementaries.append(SupplementaryRecord(kind: .decoration, section: state.section, page: page, frame: frame))
            state.block.decoration = supplementaries.count - 1
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
    /// `keepingEmptyBlock`.
    mutating func breakPage(_ state: inout OpenSection, keepingEmptyBlock: Bool) {
        if keepingEmptyBlock || !state.block.supplementaries.isEmpty || state.block.entryCount > 0 {
            finishBlock(&state, end: itemsEnd(state) + state.geometry.sectionInsets.mainEnd)
        }
        let top = axis.flow(configuration.contentInsets).mainStart
        pageRecords.append(PageRecord(blocks: [], usedEnd: top))
        state.block = SectionBlock(section: state.section, mainStart: top, lanes: state.geometry.lanes)
        state.page = pageRecords.count - 1
        state.sectionTop = top
        state.itemTop = top + state.geometry.sectionInsets.mainStart
        for lane in state.laneNext.indices {
            state.laneNext[lane] = state.itemTop
            state.laneEnd[lane] = state.itemTop
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

    /// A card's length along the flow and the sizes of its image and caption.
    @inline(__always)
    func cardSize(
        _ item: LayoutItem, section: Int, index: Int, lane: LaneGeometry, measurer: some TextMeasuring
    ) throws(LayoutError) -> CardSize {
        guard item.width.isFinite, item.height.isFinite, item.width > 0, item.height > 0 else {
            throw .invalidItemSize(section: section, item: index, width: item.width, height: item.height)
        }
        var aspect = item.width / item.height
        var clamped = false
        if let clamp = configuration.aspectClamp {
            if aspect < clamp.minimum {
                aspect = clamp.minimum
                clamped = true
            } else if aspect > clamp.maximum {
                aspect = clamp.maximum
                clamped = true
            }
        }
        let caption = item.caption.flatMap { $0.isEmpty ? nil : $0 }
        if axis.isVertical {
            let imageCross = lane.length - padding.cross
            let exact = Double(imageCross) / aspect
            guard exact < Double(maximumLayoutLength) else {
                throw .itemTooLong(section: section, item: index, length: exact)
            }
            let imageLength = max(1, roundedPixels(exact))
            var captionLength = 0
            var length = padding.main + imageLength
            if let caption {
                captionLength = max(0, measurer.height(of: caption, width: imageCross))
                length += configuration.captionSpacing + captionLength
            }
            return CardSize(
                length: length, imageLength: imageLength, imageCross: imageCross,
                captionLength: captionLength, hasCaption: caption != nil, clamped: clamped)
        } else {
            var reserved = 0
            var captionLength = 0
            if let caption {
                captionLength = max(0, measurer.reservedHeight(of: caption))
                reserved = configuration.captionSpacing + captionLength
            }
            let imageCross = lane.length - padding.cross - reserved
            guard imageCross >= 1 else {
                throw .rowsTooShort(section: section, rowHeight: lane.length, reserved: padding.cross + reserved)
            }
            let exact = Double(imageCross) * aspect
            guard exact < Double(maximumLayoutLength) else {
                throw .itemTooLong(section: section, item: index, length: exact)
            }
            let imageLength = max(1, roundedPixels(exact))
            return CardSize(
                length: padding.main + imageLength, imageLength: imageLength, imageCross: imageCross,
                captionLength: captionLength, hasCaption: caption != nil, clamped: clamped)
        }
    }

    // MARK: - Appending

    /// Adds cards to the end of the last section, continuing from its current column
    /// bottoms; the footer and decoration move down (or onto a new page).
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
                _ = try cardSize(item, section: state.section, index: state.itemCount + offset, lane: lane, measurer: measurer)
            }
        }
        // Take the footer and the last decoration fragment away, and any page they opened.
        supplementaries.removeLast(supplementaries.count - mark.supplementaryCount)
        pageRecords.removeLast(pageRecords.count - mark.pageCount)
        // Take the section's block back from its page (the last there) as it was before.
        // Moved straight into the state: a second live reference would make the next card
        // copy its column.
        state.block = pageRecords[state.page].blocks.removeLast()
        state.block.mainEnd = mark.blockMainEnd
        state.block.supplementaries.removeLast(state.block.supplementaries.count - mark.blockSupplementaryCount)
        state.block.decoration = mark.blockDecoration
        pageRecords[state.page].usedEnd = mark.usedEnd
        try place(items, in: &state, measurer: measurer)
        _ = close(&state)
    }

    // MARK: - Queries

    /// The number of pages (1 without pagination).
    public var pageCount: Int { pageRecords.count }

    /// The number of sections.
    public var sectionCount: Int { sectionFirstCard.count }

    /// The number of cards in all sections.
    public var cardCount: Int { cards.count }

    /// The number of cards in `section`, or 0 when there is no such section.
    public func itemCount(inSection section: Int) -> Int {
        guard sectionFirstCard.indices.contains(section) else { return 0 }
        let next = section + 1 < sectionFirstCard.count ? sectionFirstCard[section + 1] : cards.count
        return next - sectionFirstCard[section]
    }

    /// The size of a page in pixels: `extent` across, and along the flow the bottom of its
    /// last element plus the content insets (at least `minimumContentLength`, and never
    /// more than `maximumPageLength` but for a single element longer than a page).
    /// `.zero` for a page that does not exist.
    public func pageSize(_ page: Int = 0) -> Size {
        guard pageRecords.indices.contains(page) else { return .zero }
        let insets = axis.flow(configuration.contentInsets)
        var minimum = configuration.minimumContentLength
        if let pageLength = configuration.maximumPageLength { minimum = min(minimum, pageLength) }
        let length = max(pageRecords[page].usedEnd + insets.mainEnd, minimum)
        return axis.size(main: length, cross: configuration.extent)
    }

    /// The card at `path`, or `nil` when there is none. O(1).
    public func element(at path: ItemPath) -> LayoutAttributes? {
        guard path.item >= 0, path.item < itemCount(inSection: path.section) else { return nil }
        return attributes(ofCard: sectionFirstCard[path.section] + path.item)
    }

    /// Every element of `page` whose frame shares a pixel with `rect`, in z order
    /// (decorations, cards, headers and footers) and, within a z, in document order.
    ///
    /// - Complexity: O(log s + b * c * log m + k): a binary search over the page's section
    ///   blocks, one per column of each of the b blocks the rect reaches (columns of m
    ///   cards), and k for the elements returned. Never a scan of the whole board.
    public func elements(in rect: Rect, page: Int = 0) -> [LayoutAttributes] {
        guard pageRecords.indices.contains(page), !rect.isEmpty else { return [] }
        let low = axis.mainMin(rect), high = axis.mainMax(rect)
        let crossLow = axis.crossMin(rect), crossHigh = axis.crossMax(rect)
        let blocks = pageRecords[page].blocks
        var decorations: [LayoutAttributes] = []
        var cardIndices: [Int] = []
        cardIndices.reserveCapacity(32)
        var overlays: [LayoutAttributes] = []
        var blockIndex = firstIndex(in: blocks.count) { blocks[$0].mainEnd > low }
        while blockIndex < blocks.count, blocks[blockIndex].mainStart < high {
            let block = blocks[blockIndex]
            if let d = block.decoration, supplementaries[d].frame.intersects(rect) {
                decorations.append(attributes(ofSupplementary: d))
            }
            for s in block.supplementaries where supplementaries[s].frame.intersects(rect) {
                overlays.append(attributes(ofSupplementary: s))
            }
            for lane in block.lanes.indices {
                let geometry = block.laneGeometry[lane]
                guard crossLow < geometry.start + geometry.length, geometry.start < crossHigh else { continue }
                let entries = block.lanes[lane]
                var i = block.firstCard(inLane: lane, endingAfter: low)
                while i < entries.count, entries[i].start < high {
                    cardIndices.append(Int(entries[i].card))
                    i += 1
                }
            }
            blockIndex += 1
        }
        cardIndices.sort()
        var result = decorations
        result.reserveCapacity(decorations.count + cardIndices.count + overlays.count)
        for index in cardIndices { result.append(attributes(ofCard: index)) }
        result.append(contentsOf: overlays)
        return result
    }

    /// Every element of `page`, in z then document order.
    public func elements(onPage page: Int = 0) -> [LayoutAttributes] {
        let size = pageSize(page)
        return elements(in: Rect(x: 0, y: 0, width: size.width, height: size.height), page: page)
    }

    /// The first index in 0..<count for which `predicate` holds, given that it holds for
    /// every index after one where it holds (binary search); `count` when none.
    func firstIndex(in count: Int, where predicate: (Int) -> Bool) -> Int {
        firstIndex(from: 0, to: count, where: predicate)
    }

    /// Bisects `low..<high`; `high` when the predicate holds nowhere in it.
    func firstIndex(from low: Int, to high: Int, where predicate: (Int) -> Bool) -> Int {
        var low = low, high = high
        while low < high {
            let mid = (low + high) / 2
            if predicate(mid) { high = mid } else { low = mid + 1 }
        }
        return low
    }

    func attributes(ofCard index: Int) -> LayoutAttributes {
        let card = cards[index]
        let frame = axis.rect(main: card.main, cross: Int(card.cross), mainLength: Int(card.mainLength), crossLength: Int(card.crossLength))
        let imageFrame: Rect
        var captionFrame: Rect?
        let imageLength = Int(card.imageLength), imageCross = Int(card.imageCross)
        // The image sits inside the padding; the caption below it, as wide as the image.
        if axis.isVertical {
            imageFrame = Rect(x: frame.minX + padding.crossStart, y: frame.minY + padding.mainStart, width: imageCross, height: imageLength)
        } else {
            imageFrame = Rect(x: frame.minX + padding.mainStart, y: frame.minY + padding.crossStart, width: imageLength, height: imageCross)
        }
        if card.hasCaption {
            captionFrame = Rect(
                x: imageFrame.minX, y: imageFrame.maxY + configuration.captionSpacing,
                width: imageFrame.width, height: Int(card.captionLength))
        }
        let scaling: ImageScaling = card.clamped ? (configuration.aspectClamp?.mode == .fit ? .fit : .fill) : .exact
        return LayoutAttributes(
            kind: .card, section: Int(card.section), item: Int(card.item), page: Int(card.page), frame: frame,
            imageFrame: imageFrame, captionFrame: captionFrame, imageScaling: scaling)
    }

    func attributes(ofSupplementary index: Int) -> LayoutAttributes {
        let record = supplementaries[index]
        return LayoutAttributes(kind: record.kind, section: record.section, item: nil, page: record.page, frame: record.frame)
    }
}
