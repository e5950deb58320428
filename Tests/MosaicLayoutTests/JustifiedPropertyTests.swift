import MosaicTestSupport
import MosaicLayout
import Testing

/// Justified rows over the masonry property tests' seeded random boards (made vertical):
/// the shared invariants (each item once, inside, no overlap, pages within the maximum,
/// band queries), and the layout's own: every full row ends on the same pixel, every
/// image's frame within a pixel of its (clamped) aspect ratio, no row taller than the
/// maximum, each row one height, items in order left to right and top to bottom.
@Suite struct JustifiedPropertyTests {
    static func rows(seed: UInt64) -> JustifiedRows {
        var g = SeededGenerator(seed: seed ^ 0x7057)
        let target = Int.random(in: 20...400, using: &g)
        return JustifiedRows(
            targetRowHeight: target, maximumRowHeight: Bool.random(using: &g) ? nil : target + Int.random(in: 0...400, using: &g),
            lastRow: JustifiedRows.LastRow.allCases.randomElement(using: &g)!)
    }

    static func board(seed: UInt64) -> MasonryPropertyTests.Board {
        var board = MasonryPropertyTests.board(seed: seed)
        board.configuration.direction = .vertical
        return board
    }

    @discardableResult
    static func check(_ board: MasonryPropertyTests.Board, rows: JustifiedRows, seed: UInt64) throws -> Bool {
        var rows = rows
        rows.aspectClamp = board.configuration.aspectClamp
        let layout: JustifiedLayout
        do {
            layout = try JustifiedLayout(configuration: board.configuration, rows: rows, sections: board.sections, measurer: FakeText())
        } catch {
            guard case .columnsTooNarrow = error else { throw error }
            return false
        }
        try MasonryPropertyTests.checkShared(layout, board: board, seed: seed)
        let configuration = board.configuration
        for (sectionIndex, section) in board.sections.enumerated() where !section.items.isEmpty {
            let style = section.style ?? configuration.sectionStyle
            let right = configuration.extent - configuration.contentInsets.right - style.insets.right
            let left = configuration.contentInsets.left + style.insets.left
            var cards: [LayoutAttributes] = []
            for item in section.items.indices { cards.append(try #require(layout.element(at: ItemPath(section: sectionIndex, item: item)))) }
            // Rows: runs of cards on one page at one y.
            var rowsOfCards: [[LayoutAttributes]] = []
            for card in cards {
                if let last = rowsOfCards.last?.last, last.page == card.page, last.frame.minY == card.frame.minY {
                    rowsOfCards[rowsOfCards.count - 1].append(card)
                } else {
                    if let last = rowsOfCards.last?.last {
                        #expect(card.page > last.page || card.frame.minY >= last.frame.maxY, "seed \(seed): rows out of order")
                    }
                    rowsOfCards.append([card])
                }
            }
            for (rowIndex, row) in rowsOfCards.enumerated() {
                let height = try #require(row[0].imageFrame).height
                #expect(height <= rows.maximumRowHeight, "seed \(seed): a row \(height) px high")
                var x = left
                for card in row {
                    let image = try #require(card.imageFrame)
                    #expect(image.height == height, "seed \(seed): one height per row")
                    #expect(card.frame.height == row[0].frame.height, "seed \(seed): one card length per row")
                    #expect(card.frame.minX >= x, "seed \(seed): cards in order across")
                    x = card.frame.maxX
                    // The frame is within a pixel of a rect of the (clamped) aspect ratio.
                    let item = section.items[card.item!]
                    var aspect = item.width / item.height
                    if let clamp = rows.aspectClamp { aspect = min(max(aspect, clamp.minimum), clamp.maximum) }
                    let low = max(Double(image.height) - 1, Double(image.width - 1) / aspect)
                    let high = min(Double(image.height) + 1, Double(image.width + 1) / aspect)
                    let extreme = aspect < 1.0 / Double(rows.maximumRowHeight) || aspect > Double(right - left)
                    #expect(extreme || low <= high + 1e-9, "seed \(seed): \(image) is not of aspect \(aspect) (\(item.width)x\(item.height)) in a row of \(row.count)")
                }
                // Every full row ends on the same pixel: the section's right edge.
                let isLast = rowIndex == rowsOfCards.count - 1
                let capped = height == rows.maximumRowHeight
                if !isLast && !capped && row.count > 0 && row.allSatisfy({ $0.imageScaling == .exact }) {
                    #expect(x == right, "seed \(seed): a row ends at \(x), not \(right)")
                }
                #expect(x <= right, "seed \(seed): a row overflows")
            }
        }
        return true
    }

    @Test func invariantsHoldOnRandomBoards() throws {
        var laidOut = 0
        for seed in UInt64(1)...600 {
            if try Self.check(Self.board(seed: seed), rows: Self.rows(seed: seed), seed: seed) { laidOut += 1 }
        }
        #expect(laidOut >= 500)
    }

    @Test func theFlickrRuleBreaksRowsWhereTheHeightIsClosestToTheTarget() throws {
        // 1000 px, no padding nor spacing, target 300. Two 3:2 images make 333 px, a third
        // 222: 333 is closer to 300, so the row ends before it. 3:2 + 1:1 make 400, a 3:2
        // more 250: closer, so the row takes it. 1:1 + 4:3 run out at 428 px: the last row
        // stays at the target, from the left.
        let configuration = BoardConfiguration(extent: 1000, sectionStyle: SectionStyle(columns: .count(1)))
        let sizes: [(Int, Int)] = [(3, 2), (3, 2), (3, 2), (1, 1), (3, 2), (1, 1), (4, 3)]
        let layout = try JustifiedLayout(
            configuration: configuration, rows: JustifiedRows(targetRowHeight: 300),
            sections: [LayoutSection(items: sizes.map { LayoutItem(width: $0.0, height: $0.1) })])
        let frames = layout.elements(onPage: 0).map(\.frame)
        #expect(frames == [
            Rect(x: 0, y: 0, width: 500, height: 333), Rect(x: 500, y: 0, width: 500, height: 333),
            Rect(x: 0, y: 333, width: 375, height: 250), Rect(x: 375, y: 333, width: 250, height: 250),
            Rect(x: 625, y: 333, width: 375, height: 250),
            Rect(x: 0, y: 583, width: 300, height: 300), Rect(x: 300, y: 583, width: 400, height: 300),
        ])
    }

    @Test func aLonePortraitIsCappedAndCentred() throws {
        let configuration = BoardConfiguration(extent: 1000, sectionStyle: SectionStyle(columns: .count(1)))
        let layout = try JustifiedLayout(
            configuration: configuration, rows: JustifiedRows(targetRowHeight: 200, lastRow: .justify),
            sections: [LayoutSection(items: [LayoutItem(width: 2, height: 3)])])
        #expect(layout.elements(onPage: 0).map(\.frame) == [Rect(x: 366, y: 0, width: 267, height: 400)])
    }

    @Test func aHorizontalBoardIsRefused() {
        #expect(throws: LayoutError.unsupportedDirection(layout: "justified", direction: .horizontal)) {
            try JustifiedLayout(configuration: BoardConfiguration(direction: .horizontal, extent: 100), rows: JustifiedRows(), sections: [])
        }
    }
}

extension JustifiedPropertyTests {
    /// Appending images in pieces gives the frames of laying them all out at once: the last
    /// row of each piece is laid out again with the next.
    @Test func appendingInPiecesEqualsAFullLayout() throws {
        var cases = SeededCases()
        defer { cases.expectMostRan() }
        for seed in UInt64(3000)...3200 {
            let board = Self.board(seed: seed)
            let rows = Self.rows(seed: seed)
            guard let full = cases.laidOut({ try JustifiedLayout(configuration: board.configuration, rows: rows, sections: board.sections, measurer: FakeText()) })
            else { continue }
            var g = SeededGenerator(seed: seed)
            var pieces = board.sections
            let last = pieces[pieces.count - 1].items
            let cut = Int.random(in: 0...last.count, using: &g)
            pieces[pieces.count - 1].items = Array(last[..<cut])
            var grown = try JustifiedLayout(configuration: board.configuration, rows: rows, sections: pieces, measurer: FakeText())
            var start = cut
            while start < last.count {
                let end = min(last.count, start + Int.random(in: 1...40, using: &g))
                try grown.append(Array(last[start..<end]), measurer: FakeText())
                start = end
            }
            #expect(grown.pageCount == full.pageCount, "seed \(seed)")
            for page in 0..<min(grown.pageCount, full.pageCount) {
                #expect(grown.elements(onPage: page) == full.elements(onPage: page), "seed \(seed)")
                #expect(grown.pageSize(page) == full.pageSize(page), "seed \(seed)")
            }
            try MasonryPropertyTests.checkShared(grown, board: board, seed: seed)
        }
    }
}
