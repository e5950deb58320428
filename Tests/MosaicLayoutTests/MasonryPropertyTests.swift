import MosaicTestSupport
import MosaicLayout
import Testing

/// The invariants of the layout contract (docs/ARCHITECTURE.md) over 1,000 seeded random boards: 0 to 500 cards, 1 to 12
/// columns, random spacings, insets, sections, directions, orders and pagination, and
/// extreme aspect ratios (1x10000, 10000x1).
@Suite struct MasonryPropertyTests {
    struct Board {
        var configuration: BoardConfiguration
        var sections: [LayoutSection]
    }

    static func randomInsets(_ g: inout SeededGenerator, upTo limit: Int) -> Insets {
        Insets(
            top: Int.random(in: 0...limit, using: &g), left: Int.random(in: 0...limit, using: &g),
            bottom: Int.random(in: 0...limit, using: &g), right: Int.random(in: 0...limit, using: &g))
    }

    static func randomItem(_ g: inout SeededGenerator) -> LayoutItem {
        let caption: Caption? =
            Bool.random(using: &g)
            ? Caption(title: Bool.random(using: &g) ? "T" : "", description: String(repeating: "w", count: Int.random(in: 0...60, using: &g)))
            : nil
        switch Int.random(in: 0..<10, using: &g) {
        case 0: return LayoutItem(width: 1, height: 10_000, caption: caption)
        case 1: return LayoutItem(width: 10_000, height: 1, caption: caption)
        default:
            return LayoutItem(
                width: Double.random(in: 0.5...6000, using: &g), height: Double.random(in: 0.5...6000, using: &g), caption: caption)
        }
    }

    static func board(seed: UInt64) -> Board {
        var g = SeededGenerator(seed: seed)
        let direction: Direction = Bool.random(using: &g) ? .vertical : .horizontal
        let columns = Int.random(in: 1...12, using: &g)
        let padding = randomInsets(&g, upTo: 6)
        var configuration = BoardConfiguration(
            direction: direction,
            extent: Int.random(in: 400...2400, using: &g),
            contentInsets: randomInsets(&g, upTo: 30),
            minimumContentLength: Int.random(in: 0...1, using: &g) == 0 ? 0 : Int.random(in: 0...3000, using: &g),
            cellPadding: padding,
            captionSpacing: Int.random(in: 0...8, using: &g),
            aspectClamp: Int.random(in: 0..<3, using: &g) == 0 ? AspectClamp(minimum: 0.25, maximum: 4, mode: Bool.random(using: &g) ? .fill : .fit) : nil,
            sectionStyle: SectionStyle(
                columns: .count(columns), columnSpacing: Int.random(in: 0...16, using: &g),
                rowSpacing: Int.random(in: 0...16, using: &g), insets: randomInsets(&g, upTo: 12),
                order: ItemOrder.allCases.randomElement(using: &g)!),
            maximumPageLength: Int.random(in: 0..<3, using: &g) == 0 ? Int.random(in: 300...5000, using: &g) : nil)
        if direction == .horizontal {
            // Rows must hold the padding and the 32 px caption block.
            configuration.extent = max(configuration.extent, columns * (padding.top + padding.bottom + 48 + 16) + 80)
        }
        let total = Int.random(in: 0...500, using: &g)
        let sectionCount = Int.random(in: 1...4, using: &g)
        var sections: [LayoutSection] = []
        var remaining = total
        for index in 0..<sectionCount {
            let count = index == sectionCount - 1 ? remaining : Int.random(in: 0...remaining, using: &g)
            remaining -= count
            var style: SectionStyle? = nil
            if Bool.random(using: &g) {
                style = SectionStyle(
                    columns: Bool.random(using: &g) ? .count(Int.random(in: 1...12, using: &g)) : .targetWidth(Int.random(in: 80...500, using: &g)),
                    columnSpacing: Int.random(in: 0...16, using: &g), rowSpacing: Int.random(in: 0...16, using: &g),
                    insets: randomInsets(&g, upTo: 12),
                    header: Bool.random(using: &g) ? Supplementary(length: Int.random(in: 0...60, using: &g), insets: randomInsets(&g, upTo: 8)) : nil,
                    footer: Bool.random(using: &g) ? Supplementary(length: Int.random(in: 0...60, using: &g), insets: randomInsets(&g, upTo: 8)) : nil,
                    decoration: Bool.random(using: &g) ? Decoration(insets: randomInsets(&g, upTo: 4)) : nil,
                    order: ItemOrder.allCases.randomElement(using: &g)!)
                if direction == .horizontal { style!.columns = .count(1 + Int.random(in: 0..<3, using: &g)) }
            }
            sections.append(LayoutSection(items: (0..<count).map { _ in randomItem(&g) }, style: style))
        }
        return Board(configuration: configuration, sections: sections)
    }

    /// Column starts and widths from the contract's formula, worked out independently.
    static func columns(of style: SectionStyle, configuration: BoardConfiguration) -> [(start: Int, length: Int)] {
        let vertical = configuration.direction == .vertical
        let c = configuration.contentInsets, s = style.insets
        let crossStart = vertical ? c.left + s.left : c.top + s.top
        let base = configuration.extent - (vertical ? c.left + c.right + s.left + s.right : c.top + c.bottom + s.top + s.bottom)
        let n: Int
        switch style.columns {
        case .count(let count): n = count
        case .targetWidth(let w): n = max(1, (base + style.columnSpacing) / (w + style.columnSpacing))
        }
        let available = base - (n - 1) * style.columnSpacing
        var result: [(Int, Int)] = []
        var start = crossStart
        for i in 0..<n {
            let length = available / n + (i < available % n ? 1 : 0)
            result.append((start, length))
            start += length + style.columnSpacing
        }
        return result
    }

    /// Checks every invariant; returns false when the board was (rightly) refused.
    @discardableResult
    static func check(_ board: Board, seed: UInt64) throws -> Bool {
        let layout: MasonryLayout
        do {
            layout = try MasonryLayout(configuration: board.configuration, sections: board.sections, measurer: FakeText())
        } catch {
            guard case .columnsTooNarrow(let section, let available, let columns, let padding) = error else { throw error }
            // Only when the contract's own arithmetic says the columns cannot hold a pixel.
            let style = board.sections[section].style ?? board.configuration.sectionStyle
            let expected = Self.columns(of: style, configuration: board.configuration)
            #expect(expected.count == columns)
            #expect(available < columns * (padding + 1), "seed \(seed)")
            return false
        }
        try checkShared(layout, board: board, seed: seed)
        let configuration = board.configuration
        let vertical = configuration.direction == .vertical
        let mainMin: (Rect) -> Int = { vertical ? $0.minY : $0.minX }
        let mainMax: (Rect) -> Int = { vertical ? $0.maxY : $0.maxX }
        let crossMin: (Rect) -> Int = { vertical ? $0.minX : $0.minY }
        let crossLength: (Rect) -> Int = { vertical ? $0.width : $0.height }
        // Per section: columns from the formula, aspect ratios, and the order rule replayed.
        for (sectionIndex, section) in board.sections.enumerated() {
            let style = section.style ?? configuration.sectionStyle
            let lanes = Self.columns(of: style, configuration: configuration)
            var laneNext: [Int: [Int]] = [:]  // per page
            for (itemIndex, item) in section.items.enumerated() {
                let card = try #require(layout.element(at: ItemPath(section: sectionIndex, item: itemIndex)), "seed \(seed)")
                #expect(card.item == itemIndex && card.section == sectionIndex)
                let lane = try #require(lanes.firstIndex { $0.start == crossMin(card.frame) }, "seed \(seed): no column at \(card.frame)")
                #expect(crossLength(card.frame) == lanes[lane].length, "seed \(seed)")
                // Aspect ratio kept within a pixel (unless clamped, then within the clamp).
                let image = try #require(card.imageFrame)
                var aspect = item.width / item.height
                if let clamp = configuration.aspectClamp { aspect = min(max(aspect, clamp.minimum), clamp.maximum) }
                if vertical {
                    #expect(abs(Double(image.height) - Double(image.width) / aspect) <= 1, "seed \(seed)")
                } else {
                    #expect(abs(Double(image.width) - Double(image.height) * aspect) <= 1, "seed \(seed)")
                }
                #expect(card.imageScaling == (aspect == item.width / item.height ? .exact : (configuration.aspectClamp?.mode == .fit ? .fit : .fill)))
                // The column: the rule of the order, among the columns as they stood on the page.
                var next = laneNext[card.page] ?? Array(repeating: Int.min, count: lanes.count)
                switch style.order {
                case .leftToRight: #expect(lane == itemIndex % lanes.count, "seed \(seed)")
                case .rightToLeft: #expect(lane == lanes.count - 1 - itemIndex % lanes.count, "seed \(seed)")
                case .shortestFirst:
                    // A column without a card on this page yet (Int.min) is at the section's
                    // top, above every other: the lowest such column must be chosen.
                    let lowest = next.min()!
                    #expect(next[lane] == lowest, "seed \(seed): item \(itemIndex) went to column \(lane) of \(next)")
                    #expect(next.firstIndex(of: lowest) == lane, "seed \(seed): a tie must go to the lowest index")
                }
                if next[lane] != Int.min {
                    #expect(mainMin(card.frame) == next[lane], "seed \(seed): a gap in column \(lane)")
                }
                next[lane] = mainMax(card.frame) + style.rowSpacing
                laneNext[card.page] = next
            }
        }
        return true
    }

    @Test func invariantsHoldOnRandomBoards() throws {
        var laidOut = 0, paged = 0
        for seed in UInt64(1)...1000 {
            let board = Self.board(seed: seed)
            if try Self.check(board, seed: seed) {
                laidOut += 1
                if board.configuration.maximumPageLength != nil { paged += 1 }
            }
        }
        // The generator must mostly make boards that lay out, some of them paginated.
        #expect(laidOut >= 900)
        #expect(paged >= 200)
    }

    @Test func theSameInputGivesTheSameFrames() throws {
        var cases = SeededCases()
        defer { cases.expectMostRan() }
        for seed in UInt64(2000)...2050 {
            let board = Self.board(seed: seed)
            guard let a = cases.laidOut({ try MasonryLayout(configuration: board.configuration, sections: board.sections, measurer: FakeText()) }) else { continue }
            let b = try MasonryLayout(configuration: board.configuration, sections: board.sections, measurer: FakeText())
            #expect(a.pageCount == b.pageCount)
            for page in 0..<a.pageCount { #expect(a.elements(onPage: page) == b.elements(onPage: page)) }
        }
    }

    @Test func appendingInPiecesEqualsAFullLayout() throws {
        var cases = SeededCases()
        defer { cases.expectMostRan() }
        for seed in UInt64(3000)...3200 {
            let board = Self.board(seed: seed)
            guard let full = cases.laidOut({ try MasonryLayout(configuration: board.configuration, sections: board.sections, measurer: FakeText()) }) else { continue }
            var g = SeededGenerator(seed: seed)
            var pieces = board.sections
            let last = pieces[pieces.count - 1].items
            let cut = Int.random(in: 0...last.count, using: &g)
            pieces[pieces.count - 1].items = Array(last[..<cut])
            var grown = try MasonryLayout(configuration: board.configuration, sections: pieces, measurer: FakeText())
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
        }
    }
}
