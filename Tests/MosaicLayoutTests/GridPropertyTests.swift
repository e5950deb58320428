import MosaicTestSupport
import MosaicLayout
import Testing

/// The grid layout over the same 1,000 seeded random boards as masonry: the shared
/// invariants (each item once, inside, no overlap, pages within the maximum, band
/// queries), and the grid's own: every card of a board equally long, rows aligned, image
/// frames of the cell's aspect, cards in the order's columns.
@Suite struct GridPropertyTests {
    static func cells(seed: UInt64) -> GridCards {
        var g = SeededGenerator(seed: seed ^ 0x6121D)
        return GridCards(cellAspect: [1, 1.5, 0.75, 4.0 / 3, 0.2][Int.random(in: 0..<5, using: &g)], mode: Bool.random(using: &g) ? .fit : .fill)
    }

    @discardableResult
    static func check(_ board: MasonryPropertyTests.Board, cells: GridCards, seed: UInt64) throws -> Bool {
        let layout: GridLayout
        do {
            layout = try GridLayout(configuration: board.configuration, cells: cells, sections: board.sections, measurer: FakeText())
        } catch {
            guard case .columnsTooNarrow = error else { throw error }
            return false
        }
        try MasonryPropertyTests.checkShared(layout, board: board, seed: seed)
        let vertical = board.configuration.direction == .vertical
        let mainMin: (Rect) -> Int = { vertical ? $0.minY : $0.minX }
        let mainLength: (Rect) -> Int = { vertical ? $0.height : $0.width }
        let captioned = board.sections.contains { $0.items.contains { $0.caption.map { !$0.isEmpty } ?? false } }
        var lengths: [Int: Set<Int>] = [:]  // per section
        for page in 0..<layout.pageCount {
            let cards = layout.elements(onPage: page).filter { $0.kind == .card }
            for card in cards {
                lengths[card.section, default: []].insert(mainLength(card.frame))
                let image = try #require(card.imageFrame)
                // The image frame has the cell's aspect, within a pixel of the narrowest column.
                let along = Double(vertical ? image.height : image.width)
                let across = Double(vertical ? image.width : image.height)
                let expected = vertical ? across / cells.cellAspect : across * cells.cellAspect
                #expect(abs(along - expected) <= 1 + (vertical ? 1 / cells.cellAspect : cells.cellAspect), "seed \(seed)")
                #expect(card.imageScaling != nil)
                #expect((card.captionFrame != nil) == (captioned && (board.sections[card.section].items[card.item!].caption.map { !$0.isEmpty } ?? false)), "seed \(seed)")
            }
            // Rows aligned: within a section, cards that start together form a row, and
            // rows never overlap along the flow.
            let bySection = Dictionary(grouping: cards, by: \.section)
            for (section, sectionCards) in bySection {
                let rows = Dictionary(grouping: sectionCards) { mainMin($0.frame) }.keys.sorted()
                let length = lengths[section]?.first ?? 0
                for (a, b) in zip(rows, rows.dropFirst()) {
                    #expect(b >= a + length, "seed \(seed): rows at \(a) and \(b) overlap")
                }
            }
        }
        // Every card of a section is the same cell.
        for (section, set) in lengths { #expect(set.count == 1, "seed \(seed): section \(section) card lengths \(set.sorted())") }
        // Cards fill rows in the order's columns: in a section, item i of a page's run sits in
        // column (i - first) mod n for left to right (and shortest first, as all are equal).
        for (sectionIndex, section) in board.sections.enumerated() where !section.items.isEmpty {
            let style = section.style ?? board.configuration.sectionStyle
            let lanes = MasonryPropertyTests.columns(of: style, configuration: board.configuration)
            var firstOnPage: [Int: Int] = [:]
            for itemIndex in section.items.indices {
                let card = try #require(layout.element(at: ItemPath(section: sectionIndex, item: itemIndex)))
                let first = firstOnPage[card.page] ?? itemIndex
                firstOnPage[card.page] = first
                let crossStart = vertical ? card.frame.minX : card.frame.minY
                let lane = try #require(lanes.firstIndex { $0.start == crossStart })
                switch style.order {
                case .leftToRight: #expect(lane == itemIndex % lanes.count, "seed \(seed)")
                case .rightToLeft: #expect(lane == lanes.count - 1 - itemIndex % lanes.count, "seed \(seed)")
                case .shortestFirst: #expect(lane == (itemIndex - first) % lanes.count, "seed \(seed)")
                }
            }
        }
        return true
    }

    @Test func invariantsHoldOnRandomBoards() throws {
        var laidOut = 0
        for seed in UInt64(1)...1000 {
            if try Self.check(MasonryPropertyTests.board(seed: seed), cells: Self.cells(seed: seed), seed: seed) { laidOut += 1 }
        }
        #expect(laidOut >= 900)
    }

    @Test func aGridOfThreeColumnsByHand() throws {
        // 300 px across, 3 columns with 10 px between: columns of 94, 93, 93 px; square
        // cells from the narrowest column; a caption block of 32 px (FakeText) + 4.
        let configuration = BoardConfiguration(
            extent: 300, cellPadding: Insets(all: 2), captionSpacing: 4,
            sectionStyle: SectionStyle(columns: .count(3), columnSpacing: 10, rowSpacing: 6))
        let sections = [LayoutSection(items: [
            LayoutItem(width: 400, height: 300, caption: Caption(title: "a")), LayoutItem(width: 300, height: 400),
            LayoutItem(width: 100, height: 100), LayoutItem(width: 1, height: 10_000),
        ])]
        let layout = try GridLayout(configuration: configuration, sections: sections, measurer: FakeText())
        let cards = layout.elements(onPage: 0).filter { $0.kind == .card }
        #expect(cards.map(\.frame) == [
            Rect(x: 0, y: 0, width: 94, height: 2 + 89 + 4 + 32 + 2), Rect(x: 104, y: 0, width: 93, height: 129),
            Rect(x: 207, y: 0, width: 93, height: 129), Rect(x: 0, y: 135, width: 94, height: 129),
        ])
        #expect(cards[0].imageFrame == Rect(x: 2, y: 2, width: 90, height: 89))
        #expect(cards[0].captionFrame == Rect(x: 2, y: 95, width: 90, height: 32))
        #expect(cards[1].captionFrame == nil)
        #expect(cards.map(\.imageScaling) == [.fit, .fit, .exact, .fit])
        #expect(layout.pageSize(0) == Size(width: 300, height: 264))
    }

    @Test func aBadCellAspectIsRefused() {
        for aspect in [0, -1, .nan, .infinity, 100] as [Double] {
            do {
                _ = try GridLayout(configuration: BoardConfiguration(extent: 100), cells: GridCards(cellAspect: aspect), sections: [])
                Issue.record("cell aspect \(aspect) was accepted")
            } catch {
                guard case .invalidCellAspect(let refused) = error else { Issue.record("\(error)"); continue }
                #expect(refused == aspect || (refused.isNaN && aspect.isNaN))
            }
        }
    }
}
