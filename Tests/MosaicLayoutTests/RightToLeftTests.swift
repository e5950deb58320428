import MosaicTestSupport
import MosaicLayout
import Testing

/// Right-to-left sections (`SectionStyle.isRightToLeft`): placement mirrored across the
/// section, in masonry, grid and justified rows (before: only the text was mirrored; cards
/// filled from the left).
@Suite struct RightToLeftTests {
    static func square(span: Int = 1) -> LayoutItem { LayoutItem(width: 1, height: 1, span: span) }

    static func rightToLeft(_ configuration: BoardConfiguration) -> BoardConfiguration {
        var mirrored = configuration
        mirrored.sectionStyle.isRightToLeft = true
        return mirrored
    }

    /// FeatureCardTests' board, right to left: the first card in the rightmost column, the
    /// next to its left, the feature card at the highest place from the right: each frame
    /// the left-to-right one's mirror.
    @Test func masonryStartsAtTheRight() throws {
        let rtl = try FeatureCardTests.spanningBoard(rightToLeft: true).elements(onPage: 0)
        let ltr = try FeatureCardTests.spanningBoard().elements(onPage: 0)
        #expect(rtl.map(\.frame) == ltr.map { Rect(x: 300 - $0.frame.maxX, y: $0.frame.minY, width: $0.frame.width, height: $0.frame.height) })
        #expect(rtl[0].frame.minX == 200)
        // A band query of either column of the spanning card (now columns 0 and 1 from the left) finds it once.
        let layout = try FeatureCardTests.spanningBoard(rightToLeft: true)
        #expect(layout.elements(in: Rect(x: 150, y: 150, width: 10, height: 10)).map(\.item) == [2])
        #expect(layout.elements(in: Rect(x: 0, y: 150, width: 300, height: 10)).map(\.item) == [2, 4])
    }

    @Test func aGridFillsFromTheRight() throws {
        let configuration = Self.rightToLeft(BoardConfiguration(extent: 300, sectionStyle: SectionStyle(columns: .count(3))))
        let layout = try GridLayout(configuration: configuration, sections: [LayoutSection(items: [Self.square(span: 2), Self.square(), Self.square()])])
        #expect(layout.elements(onPage: 0).map(\.frame) == [
            Rect(x: 100, y: 0, width: 200, height: 100), Rect(x: 0, y: 0, width: 100, height: 100), Rect(x: 200, y: 100, width: 100, height: 100),
        ])
    }

    /// Rows fill from the right; a last row kept at the target height sits at the right.
    @Test func justifiedRowsFillFromTheRight() throws {
        let configuration = Self.rightToLeft(BoardConfiguration(extent: 400, sectionStyle: SectionStyle(columns: .count(1))))
        let layout = try JustifiedLayout(
            configuration: configuration, rows: JustifiedRows(targetRowHeight: 100),
            sections: [LayoutSection(items: [LayoutItem(width: 200, height: 100), LayoutItem(width: 200, height: 100), Self.square()])])
        #expect(layout.elements(onPage: 0).map(\.frame) == [
            Rect(x: 200, y: 0, width: 200, height: 100), Rect(x: 0, y: 0, width: 200, height: 100), Rect(x: 300, y: 100, width: 100, height: 100),
        ])
    }

    /// Over seeded random vertical boards (sections, styles, spacings, insets, pagination,
    /// feature cards, extreme aspects): a right-to-left board is the left-to-right one with
    /// every card mirrored across its section (its image and caption too, the padding
    /// being even), the same pages, headers, footers and backgrounds; and the shared
    /// invariants hold.
    @Test(arguments: ["masonry", "grid", "justified"])
    func aRightToLeftBoardIsTheMirror(layoutName: String) throws {
        var compared = 0
        for seed in UInt64(1)...150 {
            var board = MasonryPropertyTests.board(seed: seed)
            board.configuration.direction = .vertical
            board.configuration.cellPadding.right = board.configuration.cellPadding.left
            var g = SeededGenerator(seed: seed ^ 0x2717)
            for s in board.sections.indices {
                for i in board.sections[s].items.indices where layoutName != "justified" && Int.random(in: 0..<6, using: &g) == 0 {
                    board.sections[s].items[i].span = Int.random(in: 1...3, using: &g)
                }
            }
            var mirrored = board
            mirrored.configuration.sectionStyle.isRightToLeft = true
            for s in mirrored.sections.indices { mirrored.sections[s].style?.isRightToLeft = true }
            func make(_ board: MasonryPropertyTests.Board) throws -> any BoardLayout {
                switch layoutName {
                case "grid":
                    return try GridLayout(configuration: board.configuration, cells: GridPropertyTests.cells(seed: seed), sections: board.sections, measurer: FakeText())
                case "justified":
                    return try JustifiedLayout(configuration: board.configuration, rows: JustifiedPropertyTests.rows(seed: seed), sections: board.sections, measurer: FakeText())
                default:
                    return try MasonryLayout(configuration: board.configuration, sections: board.sections, measurer: FakeText())
                }
            }
            let ltr: any BoardLayout, rtl: any BoardLayout
            do {
                ltr = try make(board)
                rtl = try make(mirrored)
            } catch LayoutError.columnsTooNarrow {
                continue
            }
            try MasonryPropertyTests.checkShared(rtl, board: mirrored, seed: seed)
            #expect(rtl.pageCount == ltr.pageCount, "seed \(seed)")
            for page in 0..<min(ltr.pageCount, rtl.pageCount) {
                #expect(rtl.pageSize(page) == ltr.pageSize(page), "seed \(seed)")
                let left = ltr.elements(onPage: page), right = rtl.elements(onPage: page)
                #expect(left.count == right.count, "seed \(seed)")
                for (a, b) in zip(left, right) {
                    guard a.kind == .card else {
                        #expect(a == b, "seed \(seed): \(a.kind) moved")
                        continue
                    }
                    let style = board.sections[a.section].style ?? board.configuration.sectionStyle
                    let low = board.configuration.contentInsets.left + style.insets.left
                    let high = board.configuration.extent - board.configuration.contentInsets.right - style.insets.right
                    func mirror(_ rect: Rect?) -> Rect? {
                        rect.map { Rect(x: low + high - $0.maxX, y: $0.minY, width: $0.width, height: $0.height) }
                    }
                    #expect(b.item == a.item && b.page == a.page, "seed \(seed)")
                    #expect(b.frame == mirror(a.frame), "seed \(seed): \(a.frame) mirrored is not \(b.frame)")
                    #expect(b.imageFrame == mirror(a.imageFrame) && b.captionFrame == mirror(a.captionFrame), "seed \(seed)")
                }
            }
            compared += 1
        }
        #expect(compared >= 100)
    }

    /// A horizontal board's columns are rows: right to left changes nothing.
    @Test func aHorizontalBoardIsNotMirrored() throws {
        let configuration = BoardConfiguration(direction: .horizontal, extent: 300, sectionStyle: SectionStyle(columns: .count(3)))
        let items = [LayoutSection(items: [Self.square(), LayoutItem(width: 2, height: 1), Self.square()])]
        let ltr = try MasonryLayout(configuration: configuration, sections: items)
        let rtl = try MasonryLayout(configuration: Self.rightToLeft(configuration), sections: items)
        #expect(rtl.elements(onPage: 0) == ltr.elements(onPage: 0))
    }
}
