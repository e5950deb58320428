extension SectionLayout: BoardLayout {
    // MARK: - Queries

    /// The number of pages (1 without pagination).
    public var pageCount: Int { pageRecords.count }

    /// The number of sections.
    public var sectionCount: Int { sectionFirstCard.count }

    /// The number of cards in all sections.
    public var cardCount: Int { cardRecords.count }

    /// The columns (rows, when horizontal) `section` is dealt into (1 for justified rows,
    /// or for a section that does not exist).
    public func columnCount(inSection section: Int) -> Int {
        sectionLaneCounts.indices.contains(section) ? sectionLaneCounts[section] : 1
    }

    /// The number of cards in `section`, or 0 when there is no such section.
    public func itemCount(inSection section: Int) -> Int {
        guard sectionFirstCard.indices.contains(section) else { return 0 }
        let next = section + 1 < sectionFirstCard.count ? sectionFirstCard[section + 1] : cardRecords.count
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
        var length = pageRecords[page].usedEnd + insets.mainEnd
        if let pageLength = configuration.maximumPageLength {
            minimum = min(minimum, pageLength)
            // A page that holds nothing (a board of sections that show nothing) is no
            // longer than a page, whatever the content insets.
            if pageRecords[page].usedEnd <= insets.mainStart { length = min(length, pageLength) }
        }
        length = max(length, minimum)
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
            // A header or footer of no length shares no pixel with anything: never listed.
            for s in block.supplementaries where !supplementaries[s].frame.isEmpty && supplementaries[s].frame.intersects(rect) {
                overlays.append(attributes(ofSupplementary: s))
            }
            for lane in block.lanes.indices {
                let geometry = block.laneGeometry[lane]
                guard crossLow < geometry.start + geometry.length, geometry.start < crossHigh else { continue }
                let entries = block.lanes[lane]
                var i = block.firstCard(inLane: lane, endingAfter: low) { cardRecords[Int($0)].mainEnd }
                while i < entries.count, cardRecords[Int(entries[i])].main < high {
                    // A row's cards share column 0 whatever their place across.
                    let card = cardRecords[Int(entries[i])]
                    if Int(card.cross) < crossHigh, crossLow < Int(card.cross) + Int(card.crossLength) {
                        cardIndices.append(Int(entries[i]))
                    }
                    i += 1
                }
            }
            blockIndex += 1
        }
        cardIndices.sort()
        // A feature card is indexed in every column it spans: once each.
        var unique = 0
        for index in cardIndices.indices where unique == 0 || cardIndices[unique - 1] != cardIndices[index] {
            cardIndices[unique] = cardIndices[index]
            unique += 1
        }
        cardIndices.removeLast(cardIndices.count - unique)
        var result = decorations
        result.reserveCapacity(decorations.count + cardIndices.count + overlays.count)
        for index in cardIndices { result.append(attributes(ofCard: index)) }
        result.append(contentsOf: overlays)
        return result
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
        let card = cardRecords[index]
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
        // The card's section: the last whose first card is not after it (empty sections
        // before it share its first card's index).
        var low = 0, high = sectionFirstCard.count
        while high - low > 1 {
            let mid = (low + high) / 2
            if sectionFirstCard[mid] <= index { low = mid } else { high = mid }
        }
        return LayoutAttributes(
            kind: .card, section: low, item: index - sectionFirstCard[low], page: Int(card.page), frame: frame,
            imageFrame: imageFrame, captionFrame: captionFrame, imageScaling: card.scaling)
    }

    func attributes(ofSupplementary index: Int) -> LayoutAttributes {
        let record = supplementaries[index]
        return LayoutAttributes(
            kind: record.kind, section: record.section, item: nil, page: record.page, frame: record.frame,
            continued: record.continued ? true : nil)
    }
}
