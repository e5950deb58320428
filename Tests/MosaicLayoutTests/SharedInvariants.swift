import MosaicTestSupport
import MosaicLayout
import Testing

extension MasonryPropertyTests {
    /// The invariants every layout keeps (docs/ARCHITECTURE.md, the layout contract): each input once, elements inside the
    /// page and cards inside the content, no overlap, pages within the maximum but for an
    /// element longer than a page alone, and band queries equal to a brute-force filter.
    static func checkShared(_ layout: some BoardLayout, board: Board, seed: UInt64) throws {
        let configuration = board.configuration
        let vertical = configuration.direction == .vertical
        let mainMin: (Rect) -> Int = { vertical ? $0.minY : $0.minX }
        let mainMax: (Rect) -> Int = { vertical ? $0.maxY : $0.maxX }

        // Every input appears exactly once.
        #expect(layout.sectionCount == board.sections.count, "seed \(seed)")
        var seen = 0
        for page in 0..<layout.pageCount {
            let size = layout.pageSize(page)
            let all = layout.elements(onPage: page)
            let cards = all.filter { $0.kind == .card }
            seen += cards.count
            // Every element lies inside the page; cards inside the content insets.
            let content = Rect(x: 0, y: 0, width: size.width, height: size.height).inset(by: configuration.contentInsets)
            for element in all {
                #expect(element.frame.width >= 0 && element.frame.height >= 0, "seed \(seed)")
                #expect(element.page == page)
                if element.kind == .card {
                    #expect(content.contains(element.frame), "seed \(seed): \(element.frame) outside \(content)")
                    let image = try #require(element.imageFrame)
                    #expect(element.frame.contains(image))
                    if let caption = element.captionFrame { #expect(element.frame.contains(caption)) }
                }
            }
            // No page is empty, and no background is of no area.
            if layout.pageCount > 1 { #expect(all.contains { $0.kind != .decoration }, "seed \(seed): page \(page) is empty") }
            for element in all where element.kind == .decoration {
                #expect(element.frame.width > 0 && element.frame.height > 0, "seed \(seed): \(element.frame)")
            }
            // A card longer than a page stands alone on its page (with its row's cards, in
            // a layout of rows).
            if let maximum = configuration.maximumPageLength, cards.count > 1 {
                for card in cards {
                    let style = board.sections[card.section].style ?? configuration.sectionStyle
                    let along: (Insets) -> Int = { vertical ? $0.vertical : $0.horizontal }
                    let needed = mainMax(card.frame) - mainMin(card.frame) + along(configuration.contentInsets) + along(style.insets)
                    let alone = cards.allSatisfy { mainMin($0.frame) == mainMin(card.frame) }
                    #expect(needed <= maximum || alone, "seed \(seed): the card \(card.frame) longer than a page shares page \(page)")
                }
            }
            // No two cards overlap: sweep in flow order.
            let sorted = cards.map(\.frame).sorted { mainMin($0) < mainMin($1) }
            for i in sorted.indices {
                var j = i + 1
                while j < sorted.count, mainMin(sorted[j]) < mainMax(sorted[i]) {
                    #expect(!sorted[i].intersects(sorted[j]), "seed \(seed): \(sorted[i]) overlaps \(sorted[j])")
                    j += 1
                }
            }
            // Pages are no longer than the maximum unless one element alone is longer.
            // (An element that cannot fit on an empty page is placed anyway, alone in its
            // column at the page's top: it is never cut.)
            if let maximum = configuration.maximumPageLength, (vertical ? size.height : size.width) > maximum {
                let along: (Insets) -> Int = { vertical ? $0.vertical : $0.horizontal }
                let oversized = all.contains { element in
                    let style = board.sections[element.section].style ?? configuration.sectionStyle
                    var needed = mainMax(element.frame) - mainMin(element.frame) + along(configuration.contentInsets) + along(style.insets)
                    switch element.kind {
                    case .header: needed += along(style.header!.insets)
                    case .footer: needed += along(style.footer!.insets)
                    default: break
                    }
                    return element.kind != .decoration && needed > maximum
                }
                #expect(oversized, "seed \(seed): page \(page) is too long")
            }
            // Band queries agree with a brute-force filter.
            var g = SeededGenerator(seed: seed ^ 0xBAD5EED)
            for _ in 0..<8 {
                let rect = Rect(
                    x: Int.random(in: -50...size.width, using: &g), y: Int.random(in: -50...size.height, using: &g),
                    width: Int.random(in: 1...400, using: &g), height: Int.random(in: 1...400, using: &g))
                let expected = all.filter { $0.frame.intersects(rect) }
                #expect(layout.elements(in: rect, page: page) == expected, "seed \(seed) rect \(rect)")
            }
        }
        #expect(seen == board.sections.map(\.items.count).reduce(0, +), "seed \(seed)")

    }
}
