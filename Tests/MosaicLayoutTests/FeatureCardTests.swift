import MosaicTestSupport
import MosaicLayout
import Testing

/// Feature cards: a card that spans several columns, in masonry and grid.
@Suite struct FeatureCardTests {
    static func square(span: Int = 1) -> LayoutItem { LayoutItem(width: 1, height: 1, span: span) }

    /// 3 columns of 100 px, no spacing: two squares fill columns 0 and 1; a 2-wide card
    /// goes to the highest place where two adjacent columns are free (columns 1 and 2 at
    /// 100? no: columns 0-1 end at 100, 1-2 at 100, so the leftmost), and the next square
    /// takes the free column 2 at the top.
    /// Two squares, a square spanning two columns, two squares, in 3 columns of 100 px.
    static func spanningBoard(rightToLeft: Bool = false) throws -> MasonryLayout {
        var configuration = BoardConfiguration(extent: 300, sectionStyle: SectionStyle(columns: .count(3)))
        configuration.sectionStyle.isRightToLeft = rightToLeft
        return try MasonryLayout(
            configuration: configuration,
            sections: [LayoutSection(items: [Self.square(), Self.square(), Self.square(span: 2), Self.square(), Self.square()])])
    }

    @Test func aSpanningCardTakesTheHighestPlaceWhereItsColumnsAreFree() throws {
        let layout = try Self.spanningBoard()
        #expect(layout.elements(onPage: 0).map(\.frame) == [
            Rect(x: 0, y: 0, width: 100, height: 100), Rect(x: 100, y: 0, width: 100, height: 100),
            Rect(x: 0, y: 100, width: 200, height: 200), Rect(x: 200, y: 0, width: 100, height: 100),
            Rect(x: 200, y: 100, width: 100, height: 100),
        ])
        // A band query of column 1 alone finds the spanning card once.
        #expect(layout.elements(in: Rect(x: 150, y: 150, width: 10, height: 10)).map(\.item) == [2])
        #expect(layout.elements(in: Rect(x: 0, y: 150, width: 300, height: 10)).map(\.item) == [2, 4])
    }

    @Test func aGridFeatureCardCoversCellsOfOneRow() throws {
        let configuration = BoardConfiguration(extent: 300, sectionStyle: SectionStyle(columns: .count(3)))
        let layout = try GridLayout(
            configuration: configuration,
            sections: [LayoutSection(items: [Self.square(span: 2), Self.square(), Self.square(), Self.square(span: 5)])])
        #expect(layout.elements(onPage: 0).map(\.frame) == [
            Rect(x: 0, y: 0, width: 200, height: 100), Rect(x: 200, y: 0, width: 100, height: 100),
            Rect(x: 0, y: 100, width: 100, height: 100),
            // Five columns asked of three: clamped to the section's width, in the next row.
            Rect(x: 0, y: 200, width: 300, height: 100),
        ])
        #expect(layout.elements(onPage: 0)[0].imageScaling == .fit)
        #expect(layout.columnCount(inSection: 0) == 3)
    }

    /// The masonry and grid invariants hold with random feature cards.
    @Test func invariantsHoldWithFeatureCards() throws {
        var laidOut = 0
        for seed in UInt64(1)...400 {
            var board = MasonryPropertyTests.board(seed: seed)
            var g = SeededGenerator(seed: seed ^ 0x5BA9)
            for s in board.sections.indices {
                for i in board.sections[s].items.indices where Int.random(in: 0..<5, using: &g) == 0 {
                    board.sections[s].items[i].span = Int.random(in: 1...4, using: &g)
                }
            }
            do {
                let masonry = try MasonryLayout(configuration: board.configuration, sections: board.sections, measurer: FakeText())
                try MasonryPropertyTests.checkShared(masonry, board: board, seed: seed)
                try GridPropertyTests.checkSharedOnly(board, cells: GridPropertyTests.cells(seed: seed), seed: seed)
                laidOut += 1
            } catch LayoutError.columnsTooNarrow {
                continue
            }
        }
        #expect(laidOut >= 300)
    }
}

extension GridPropertyTests {
    /// The shared invariants of a grid of `board`.
    static func checkSharedOnly(_ board: MasonryPropertyTests.Board, cells: GridCards, seed: UInt64) throws {
        let layout = try GridLayout(configuration: board.configuration, cells: cells, sections: board.sections, measurer: FakeText())
        try MasonryPropertyTests.checkShared(layout, board: board, seed: seed)
    }
}
