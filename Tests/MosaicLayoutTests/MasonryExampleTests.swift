import Foundation
import MosaicLayout
import Testing

/// Every rule of the layout contract by example; the expected frames are worked out by hand
/// in the comments.
@Suite struct MasonryExampleTests {
    @Test func twoColumnsShortestFirst() throws {
        // available = 200 - 2 * 10 - 10 = 170: two columns of 85 at x 10 and 105.
        let configuration = BoardConfiguration(
            extent: 200, contentInsets: Insets(all: 10),
            sectionStyle: SectionStyle(columns: .count(2), columnSpacing: 10, rowSpacing: 10))
        let layout = try MasonryLayout(
            configuration: configuration,
            sections: [LayoutSection(items: items([(100, 100), (200, 100), (100, 200), (100, 100)]))])
        #expect(cardFrames(layout) == [
            Rect(x: 10, y: 10, width: 85, height: 85),  // column 0, next at 105
            Rect(x: 105, y: 10, width: 85, height: 43),  // 42.5 rounds to 43; next at 63
            Rect(x: 105, y: 63, width: 85, height: 170),  // column 1 is shorter; next at 243
            Rect(x: 10, y: 105, width: 85, height: 85),  // column 0 (105 < 243)
        ])
        #expect(layout.pageSize() == Size(width: 200, height: 243))  // 233 + 10
    }

    /// Exact halves round away from zero (before: 59 and 115, the ratio's floating-point
    /// error put them just below the half).
    @Test func exactHalvesRoundUp() throws {
        // 21 * 17 / 6 = 59.5 -> 60; 161 * 33 / 46 = 115.5 -> 116.
        for (width, image, expected) in [(21, (6, 17), 60), (161, (46, 33), 116)] {
            let layout = try MasonryLayout(
                configuration: BoardConfiguration(extent: width, sectionStyle: SectionStyle(columns: .count(1))),
                sections: [LayoutSection(items: items([image]))])
            #expect(cardFrames(layout).map(\.height) == [expected])
        }
        // Horizontal: 21 px rows, a 17x6 image: 21 * 17 / 6 = 59.5 -> 60 wide.
        let horizontal = try MasonryLayout(
            configuration: BoardConfiguration(direction: .horizontal, extent: 21, sectionStyle: SectionStyle(columns: .count(1))),
            sections: [LayoutSection(items: items([(17, 6)]))])
        #expect(cardFrames(horizontal).map(\.width) == [60])
    }

    @Test func threeColumnsShareTheRemainder() throws {
        // 100 = 34 + 33 + 33: the first 100 mod 3 = 1 column gets the extra pixel.
        let configuration = BoardConfiguration(extent: 100, sectionStyle: SectionStyle(columns: .count(3)))
        let layout = try MasonryLayout(
            configuration: configuration, sections: [LayoutSection(items: items(Array(repeating: (1, 1), count: 5)))])
        #expect(cardFrames(layout) == [
            Rect(x: 0, y: 0, width: 34, height: 34),
            Rect(x: 34, y: 0, width: 33, height: 33),
            Rect(x: 67, y: 0, width: 33, height: 33),
            Rect(x: 34, y: 33, width: 33, height: 33),  // tie between columns 1 and 2: the lower index
            Rect(x: 67, y: 33, width: 33, height: 33),
        ])
    }

    @Test func targetColumnWidthDerivesTheCount() throws {
        // (1000 + 10) / (300 + 10) = 3 columns of (1000 - 20) / 3 = 326 (+1 for the first 2).
        let configuration = BoardConfiguration(
            extent: 1000, sectionStyle: SectionStyle(columns: .targetWidth(300), columnSpacing: 10))
        let layout = try MasonryLayout(configuration: configuration, sections: [LayoutSection(items: items([(1, 1), (1, 1), (1, 1)]))])
        #expect(cardFrames(layout).map(\.width) == [327, 327, 326])
        #expect(cardFrames(layout).map(\.minX) == [0, 337, 674])
    }

    @Test func headerFooterInsetsAndDecoration() throws {
        let style = SectionStyle(
            columns: .count(1), insets: Insets(top: 3, left: 0, bottom: 4, right: 0),
            header: Supplementary(length: 20, insets: Insets(top: 5, left: 10, bottom: 5, right: 10)),
            footer: Supplementary(length: 10, insets: Insets(top: 2, left: 0, bottom: 1, right: 0)),
            decoration: Decoration(insets: Insets(all: 1)))
        let layout = try MasonryLayout(
            configuration: BoardConfiguration(extent: 100, sectionStyle: style),
            sections: [LayoutSection(items: items([(100, 50)]))])
        let all = layout.elements(onPage: 0)
        #expect(all.map(\.kind) == [.decoration, .card, .header, .footer])
        #expect(all[2].frame == Rect(x: 10, y: 5, width: 80, height: 20))
        // Items start at 5 + 20 + 5 + 3 = 33.
        #expect(all[1].frame == Rect(x: 0, y: 33, width: 100, height: 50))
        // Footer at 83 + 4 + 2 = 89; the section ends at 89 + 10 + 1 = 100.
        #expect(all[3].frame == Rect(x: 0, y: 89, width: 100, height: 10))
        #expect(all[0].frame == Rect(x: 1, y: 1, width: 98, height: 98))
        #expect(layout.pageSize() == Size(width: 100, height: 100))
    }

    @Test func sectionsWithDifferentColumnCounts() throws {
        let configuration = BoardConfiguration(extent: 100, contentInsets: Insets(top: 5, left: 0, bottom: 5, right: 0))
        let layout = try MasonryLayout(
            configuration: configuration,
            sections: [
                LayoutSection(items: items([(2, 1)]), style: SectionStyle(columns: .count(1))),
                LayoutSection(items: items([(1, 1), (1, 1), (1, 2)]), style: SectionStyle(columns: .count(2), rowSpacing: 4)),
            ])
        #expect(cardFrames(layout) == [
            Rect(x: 0, y: 5, width: 100, height: 50),
            Rect(x: 0, y: 55, width: 50, height: 50),
            Rect(x: 50, y: 55, width: 50, height: 50),
            Rect(x: 0, y: 109, width: 50, height: 100),  // 55 + 50 + 4
        ])
        #expect(layout.pageSize() == Size(width: 100, height: 214))
        #expect(layout.element(at: ItemPath(section: 1, item: 2))?.frame == Rect(x: 0, y: 109, width: 50, height: 100))
        #expect(layout.element(at: ItemPath(section: 1, item: 3)) == nil)
        #expect(layout.element(at: ItemPath(section: 2, item: 0)) == nil)
    }

    @Test(arguments: [
        (ItemOrder.shortestFirst, [Rect(x: 0, y: 0, width: 50, height: 100), Rect(x: 50, y: 0, width: 50, height: 50), Rect(x: 50, y: 50, width: 50, height: 50)]),
        (ItemOrder.leftToRight, [Rect(x: 0, y: 0, width: 50, height: 100), Rect(x: 50, y: 0, width: 50, height: 50), Rect(x: 0, y: 100, width: 50, height: 50)]),
        (ItemOrder.rightToLeft, [Rect(x: 50, y: 0, width: 50, height: 100), Rect(x: 0, y: 0, width: 50, height: 50), Rect(x: 50, y: 100, width: 50, height: 50)]),
    ])
    func itemOrders(order: ItemOrder, expected: [Rect]) throws {
        let configuration = BoardConfiguration(extent: 100, sectionStyle: SectionStyle(columns: .count(2), order: order))
        let layout = try MasonryLayout(configuration: configuration, sections: [LayoutSection(items: items([(1, 2), (1, 1), (1, 1)]))])
        #expect(cardFrames(layout) == expected)
    }

    @Test func captionsPaddingAndCaptionSpacing() throws {
        let configuration = BoardConfiguration(
            extent: 108, cellPadding: Insets(all: 4), captionSpacing: 6, sectionStyle: SectionStyle(columns: .count(1)))
        let caption = Caption(title: "Title", description: String(repeating: "x", count: 25))
        let layout = try MasonryLayout(
            configuration: configuration,
            sections: [LayoutSection(items: [LayoutItem(width: 2, height: 1, caption: caption), LayoutItem(width: 2, height: 1, caption: Caption())])],
            measurer: FakeText())
        // Image 100 wide, 50 tall; caption: title + 25 chars at 10 per line = 1 + 3 lines = 64.
        let card = try #require(layout.element(at: ItemPath(section: 0, item: 0)))
        #expect(card.imageFrame == Rect(x: 4, y: 4, width: 100, height: 50))
        #expect(card.captionFrame == Rect(x: 4, y: 60, width: 100, height: 64))
        #expect(card.frame == Rect(x: 0, y: 0, width: 108, height: 128))  // 4 + 50 + 6 + 64 + 4
        // An empty caption takes no space at all.
        let bare = try #require(layout.element(at: ItemPath(section: 0, item: 1)))
        #expect(bare.captionFrame == nil)
        #expect(bare.frame == Rect(x: 0, y: 128, width: 108, height: 58))
    }

    @Test func horizontalRows() throws {
        // Extent 100 is the height: rows of (100 - 10) / 2 = 45 at y 0 and 55.
        let configuration = BoardConfiguration(
            direction: .horizontal, extent: 100, sectionStyle: SectionStyle(columns: .count(2), columnSpacing: 10))
        let layout = try MasonryLayout(configuration: configuration, sections: [LayoutSection(items: items([(2, 1), (1, 1), (1, 2)]))])
        #expect(cardFrames(layout) == [
            Rect(x: 0, y: 0, width: 90, height: 45),
            Rect(x: 0, y: 55, width: 45, height: 45),
            Rect(x: 45, y: 55, width: 23, height: 45),  // 22.5 rounds to 23
        ])
        #expect(layout.pageSize() == Size(width: 90, height: 100))
    }

    @Test func horizontalCaptionBlock() throws {
        let configuration = BoardConfiguration(
            direction: .horizontal, extent: 100, cellPadding: Insets(all: 2), captionSpacing: 4,
            sectionStyle: SectionStyle(columns: .count(1)))
        let layout = try MasonryLayout(
            configuration: configuration,
            sections: [LayoutSection(items: [LayoutItem(width: 2, height: 1, caption: Caption(title: "A"))])],
            measurer: FakeText())
        // The image is 100 - 4 - (4 + 32) = 60 tall, so 120 wide; the caption block is 32.
        let card = try #require(layout.element(at: ItemPath(section: 0, item: 0)))
        #expect(card.imageFrame == Rect(x: 2, y: 2, width: 120, height: 60))
        #expect(card.captionFrame == Rect(x: 2, y: 66, width: 120, height: 32))
        #expect(card.frame == Rect(x: 0, y: 0, width: 124, height: 100))
    }

    @Test(arguments: [ClampMode.fill, .fit])
    func aspectClamp(mode: ClampMode) throws {
        let configuration = BoardConfiguration(
            extent: 100, aspectClamp: AspectClamp(minimum: 0.5, maximum: 2, mode: mode),
            sectionStyle: SectionStyle(columns: .count(1)))
        let layout = try MasonryLayout(configuration: configuration, sections: [LayoutSection(items: items([(1, 10_000), (10_000, 1), (1, 1)]))])
        let cards = layout.elements(onPage: 0)
        #expect(cards.map(\.frame.height) == [200, 50, 100])
        let expected: ImageScaling = mode == .fill ? .fill : .fit
        #expect(cards.map(\.imageScaling) == [expected, expected, .exact])
    }

    @Test func extremeAspectWithoutClampStaysAtLeastOnePixel() throws {
        let layout = try MasonryLayout(
            configuration: BoardConfiguration(extent: 100, sectionStyle: SectionStyle(columns: .count(1))),
            sections: [LayoutSection(items: items([(10_000, 1), (1, 10_000)]))])
        #expect(cardFrames(layout).map(\.height) == [1, 1_000_000])
    }

    @Test func minimumContentLength() throws {
        let layout = try MasonryLayout(
            configuration: BoardConfiguration(extent: 100, minimumContentLength: 500),
            sections: [LayoutSection(items: items([(1, 1)]))])
        #expect(layout.pageSize() == Size(width: 100, height: 500))
        let empty = try MasonryLayout(configuration: BoardConfiguration(extent: 100, contentInsets: Insets(all: 7)), sections: [])
        #expect(empty.pageSize() == Size(width: 100, height: 14))
        #expect(empty.pageCount == 1)
        #expect(empty.elements(onPage: 0).isEmpty)
    }

    @Test func pagination() throws {
        // Cards of 80 (100 - 2 * 10 across) with 10 between them on pages of at most 250.
        let configuration = BoardConfiguration(
            extent: 100, contentInsets: Insets(all: 10),
            sectionStyle: SectionStyle(columns: .count(1), rowSpacing: 10), maximumPageLength: 250)
        let layout = try MasonryLayout(configuration: configuration, sections: [LayoutSection(items: items(Array(repeating: (1, 1), count: 5)))])
        #expect(layout.pageCount == 3)
        // Page 0: 10-90, 100-180; the third would end at 270 + 10 > 250.
        #expect(cardFrames(layout, page: 0) == [Rect(x: 10, y: 10, width: 80, height: 80), Rect(x: 10, y: 100, width: 80, height: 80)])
        #expect(cardFrames(layout, page: 1) == [Rect(x: 10, y: 10, width: 80, height: 80), Rect(x: 10, y: 100, width: 80, height: 80)])
        #expect(cardFrames(layout, page: 2) == [Rect(x: 10, y: 10, width: 80, height: 80)])
        #expect((0..<3).map { layout.pageSize($0).height } == [190, 190, 100])
        #expect(layout.element(at: ItemPath(section: 0, item: 4))?.page == 2)
    }

    @Test func paginationRestartsEveryColumnAndMovesTheFooter() throws {
        let style = SectionStyle(
            columns: .count(2), footer: Supplementary(length: 80), decoration: Decoration())
        let configuration = BoardConfiguration(extent: 100, sectionStyle: style, maximumPageLength: 120)
        // Cards of 50: page 0 holds two rows (0-50, 50-100); the fifth card starts page 1
        // in column 0 again; the footer (50-130) does not fit there and starts page 2.
        let layout = try MasonryLayout(configuration: configuration, sections: [LayoutSection(items: items(Array(repeating: (1, 1), count: 5)))])
        #expect(layout.pageCount == 3)
        #expect(cardFrames(layout, page: 1) == [Rect(x: 0, y: 0, width: 50, height: 50)])
        let lastPage = layout.elements(onPage: 2)
        try #require(lastPage.map(\.kind) == [.decoration, .footer])
        #expect(lastPage[1].frame == Rect(x: 0, y: 0, width: 100, height: 80))
        // Each page has its own decoration fragment framing what the section has there.
        #expect(layout.elements(onPage: 0).first?.frame == Rect(x: 0, y: 0, width: 100, height: 100))
    }

    /// A header never ends a page: with the first row of its cards not fitting under it, it
    /// moves with them (before: page 0 ended with the header alone).
    @Test func aHeaderMovesWithItsFirstRow() throws {
        // Two columns of 50; section 0: one row of 50 (0-50); section 1's header 20 (50-70)
        // and its first row (cards of 50 and 100: 70-170) exceed 150: all on page 1.
        let style = SectionStyle(columns: .count(2), header: Supplementary(length: 20))
        let configuration = BoardConfiguration(extent: 100, sectionStyle: style, maximumPageLength: 150)
        let layout = try MasonryLayout(
            configuration: configuration,
            sections: [LayoutSection(items: items([(1, 1), (1, 1)])), LayoutSection(items: items([(1, 1), (1, 2)]))])
        #expect(layout.pageCount == 2)
        #expect(layout.elements(onPage: 0).filter { $0.section == 1 }.isEmpty)
        let moved = layout.elements(onPage: 1)
        #expect(moved.map(\.kind) == [.card, .card, .header])
        #expect(moved[2].frame == Rect(x: 0, y: 0, width: 100, height: 20) && moved[2].continued == nil)
        #expect(moved[0].frame == Rect(x: 0, y: 20, width: 50, height: 50) && moved[1].frame == Rect(x: 50, y: 20, width: 50, height: 100))
        // The same when the section's cards come by append.
        var grown = try MasonryLayout(
            configuration: configuration, sections: [LayoutSection(items: items([(1, 1), (1, 1)])), LayoutSection(items: [])])
        try grown.append(items([(1, 1)]))
        try grown.append(items([(1, 2)]))
        #expect((0..<2).map { grown.elements(onPage: $0) } == (0..<2).map { layout.elements(onPage: $0) })
    }

    /// A section continued on a new page is headed there again, marked as continued, and
    /// its background frames its cards on every page (before: no header, and the
    /// background's top inset, the gap between sections, left the first card outside it).
    @Test func aContinuedSectionIsHeadedAgainAndFramed() throws {
        let style = SectionStyle(
            columns: .count(1), rowSpacing: 10, header: Supplementary(length: 20),
            decoration: Decoration(insets: Insets(top: 30, left: 0, bottom: 0, right: 0)))
        let configuration = BoardConfiguration(extent: 100, sectionStyle: style, maximumPageLength: 250)
        // Cards of 100: page 0 holds the header (0-20) and one card (20-120); the second
        // (130-230) fits; the third starts page 1 under a repeated header (0-20): 20-120.
        let layout = try MasonryLayout(configuration: configuration, sections: [LayoutSection(items: items(Array(repeating: (1, 1), count: 3)))])
        #expect(layout.pageCount == 2)
        let page1 = layout.elements(onPage: 1)
        #expect(page1.map(\.kind) == [.decoration, .card, .header])
        #expect(page1[2].continued == true && page1[2].frame == Rect(x: 0, y: 0, width: 100, height: 20))
        #expect(page1[1].frame == Rect(x: 0, y: 20, width: 100, height: 100))
        // The background covers the card on the continuation page, and on the first page
        // it keeps its top inset but runs to the page's end.
        #expect(page1[0].frame.contains(page1[1].frame) && page1[0].frame.minY == 0)
        let page0 = layout.elements(onPage: 0)
        #expect(page0[0].kind == .decoration && page0[0].frame == Rect(x: 0, y: 30, width: 100, height: 200))
        // In the JSON too.
        let json = String(decoding: try JSONEncoder().encode(page1[2]), as: UTF8.self)
        #expect(json.contains("\"continued\":true"))
    }

    @Test func anElementLongerThanAPageGetsAPageOfItsOwn() throws {
        let configuration = BoardConfiguration(extent: 100, sectionStyle: SectionStyle(columns: .count(1)), maximumPageLength: 150)
        let layout = try MasonryLayout(configuration: configuration, sections: [LayoutSection(items: items([(1, 1), (1, 3), (1, 1)]))])
        #expect(layout.pageCount == 3)
        #expect((0..<3).map { layout.pageSize($0).height } == [100, 300, 100])
    }

    @Test func appendGivesTheFramesOfAFullLayout() throws {
        let style = SectionStyle(
            columns: .count(3), columnSpacing: 3, rowSpacing: 5, header: Supplementary(length: 12),
            footer: Supplementary(length: 9), decoration: Decoration(insets: Insets(all: 2)))
        let configuration = BoardConfiguration(extent: 301, contentInsets: Insets(all: 8), sectionStyle: style, maximumPageLength: 400)
        let sizes = [(3, 4), (4, 3), (1, 1), (16, 9), (9, 16), (2, 5), (5, 2), (1, 3), (3, 1), (7, 7), (2, 3), (3, 2)]
        let first = LayoutSection(items: items(Array(sizes.prefix(5))))
        var grown = try MasonryLayout(configuration: configuration, sections: [LayoutSection(items: []), first])
        try grown.append(items(Array(sizes[5..<9])))
        try grown.append(items(Array(sizes[9...])))
        let full = try MasonryLayout(configuration: configuration, sections: [LayoutSection(items: []), LayoutSection(items: items(sizes))])
        #expect(grown.pageCount == full.pageCount)
        for page in 0..<full.pageCount {
            #expect(grown.elements(onPage: page) == full.elements(onPage: page))
            #expect(grown.pageSize(page) == full.pageSize(page))
        }
    }

    @Test func appendWithoutSectionsIsAnError() throws {
        var layout = try MasonryLayout(configuration: BoardConfiguration(extent: 10), sections: [])
        #expect(throws: LayoutError.noSectionToAppendTo) { try layout.append(items([(1, 1)])) }
    }

    @Test func aFailedAppendChangesNothing() throws {
        var layout = try MasonryLayout(
            configuration: BoardConfiguration(extent: 100, sectionStyle: SectionStyle(footer: Supplementary(length: 10))),
            sections: [LayoutSection(items: items([(1, 1)]))])
        let before = layout.elements(onPage: 0)
        #expect(throws: LayoutError.invalidItemSize(section: 0, item: 2, width: 0, height: 1)) {
            try layout.append(items([(1, 1), (0, 1)]))
        }
        #expect(layout.elements(onPage: 0) == before)
        #expect(layout.cardCount == 1)
    }

    @Test func queriesReturnZThenDocumentOrder() throws {
        let style = SectionStyle(columns: .count(2), header: Supplementary(length: 10), decoration: Decoration())
        let layout = try MasonryLayout(
            configuration: BoardConfiguration(extent: 100, sectionStyle: style),
            sections: [LayoutSection(items: items([(1, 2), (1, 1), (1, 1), (1, 1)]))])
        let band = layout.elements(in: Rect(x: 0, y: 5, width: 100, height: 60))
        #expect(band.map(\.kind) == [.decoration, .card, .card, .card, .header])
        #expect(band.compactMap(\.item) == [0, 1, 2])
        // Touching edges do not count: item 1 ends at y 60, item 2 starts there.
        #expect(layout.elements(in: Rect(x: 50, y: 60, width: 50, height: 1)).compactMap(\.item) == [2])
        #expect(layout.elements(in: Rect(x: 0, y: 0, width: 0, height: 100)).isEmpty)
        #expect(layout.elements(in: Rect(x: 0, y: 0, width: 100, height: 100), page: 1).isEmpty)
    }

    @Test func attributesRoundTripThroughJSON() throws {
        let layout = try MasonryLayout(
            configuration: BoardConfiguration(extent: 100, sectionStyle: SectionStyle(header: Supplementary(length: 5))),
            sections: [LayoutSection(items: [LayoutItem(width: 1, height: 1, caption: Caption(title: "x"))])], measurer: FakeText())
        let elements = layout.elements(onPage: 0)
        let data = try JSONEncoder().encode(elements)
        #expect(try JSONDecoder().decode([LayoutAttributes].self, from: data) == elements)
        let card = try #require(layout.element(at: ItemPath(section: 0, item: 0)))
        #expect(card.itemPath == ItemPath(section: 0, item: 0))
        #expect(card.zIndex == 1)
        #expect(String(decoding: try JSONEncoder().encode(card.kind), as: UTF8.self) == "\"card\"")
    }
}
