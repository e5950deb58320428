import MosaicLayout
import Testing

/// Bad input is a thrown error naming the field and the value; never a crash or a NaN frame.
@Suite struct ValidationTests {
    func layout(_ configuration: BoardConfiguration, _ sections: [LayoutSection] = [LayoutSection(items: items([(1, 1)]))]) throws {
        _ = try MasonryLayout(configuration: configuration, sections: sections, measurer: FakeText())
    }

    @Test func nonPositiveExtent() {
        #expect(throws: LayoutError.notPositive(field: "extent", value: 0)) { try layout(BoardConfiguration(extent: 0)) }
        #expect(throws: LayoutError.notPositive(field: "extent", value: -5)) { try layout(BoardConfiguration(extent: -5)) }
    }

    @Test func tooLargeExtent() {
        #expect(throws: LayoutError.tooLarge(field: "extent", value: 1 << 40, limit: maximumLayoutLength)) {
            try layout(BoardConfiguration(extent: 1 << 40))
        }
    }

    @Test func columnCountBelowOne() {
        #expect(throws: LayoutError.notPositive(field: "sectionStyle.columns.count", value: 0)) {
            try layout(BoardConfiguration(extent: 100, sectionStyle: SectionStyle(columns: .count(0))))
        }
        #expect(throws: LayoutError.notPositive(field: "sectionStyle.columns.targetWidth", value: -1)) {
            try layout(BoardConfiguration(extent: 100, sectionStyle: SectionStyle(columns: .targetWidth(-1))))
        }
    }

    @Test func aSectionsOwnStyleIsNamedWithItsIndex() {
        let bad = LayoutSection(items: [], style: SectionStyle(columnSpacing: -3))
        #expect(throws: LayoutError.negative(field: "sections[1].style.columnSpacing", value: -3)) {
            try layout(BoardConfiguration(extent: 100), [LayoutSection(items: []), bad])
        }
    }

    @Test func negativeSpacingInsetsAndPadding() {
        let cases: [(BoardConfiguration, LayoutError)] = [
            (BoardConfiguration(extent: 100, sectionStyle: SectionStyle(rowSpacing: -1)), .negative(field: "sectionStyle.rowSpacing", value: -1)),
            (BoardConfiguration(extent: 100, contentInsets: Insets(top: 0, left: -2, bottom: 0, right: 0)), .negative(field: "contentInsets.left", value: -2)),
            (BoardConfiguration(extent: 100, cellPadding: Insets(top: 0, left: 0, bottom: -4, right: 0)), .negative(field: "cellPadding.bottom", value: -4)),
            (BoardConfiguration(extent: 100, captionSpacing: -1), .negative(field: "captionSpacing", value: -1)),
            (BoardConfiguration(extent: 100, minimumContentLength: -1), .negative(field: "minimumContentLength", value: -1)),
            (BoardConfiguration(extent: 100, sectionStyle: SectionStyle(header: Supplementary(length: -1))), .negative(field: "sectionStyle.header.length", value: -1)),
            (BoardConfiguration(extent: 100, sectionStyle: SectionStyle(footer: Supplementary(length: 1, insets: Insets(top: -1)))), .negative(field: "sectionStyle.footer.insets.top", value: -1)),
            (BoardConfiguration(extent: 100, sectionStyle: SectionStyle(decoration: Decoration(insets: Insets(all: -1)))), .negative(field: "sectionStyle.decoration.insets.top", value: -1)),
            (BoardConfiguration(extent: 100, maximumPageLength: 0), .notPositive(field: "maximumPageLength", value: 0)),
        ]
        for (configuration, error) in cases {
            #expect(throws: error) { try layout(configuration) }
        }
    }

    @Test(arguments: [(0.0, 1.0), (-1, 1), (1, 0), (.nan, 1), (1, .infinity), (.infinity, .infinity), (-.infinity, 2), (1, .nan)])
    func invalidItemSizes(width: Double, height: Double) {
        let bad = LayoutSection(items: [LayoutItem(width: 1, height: 1), LayoutItem(width: width, height: height)])
        #expect {
            try layout(BoardConfiguration(extent: 100), [bad])
        } throws: { error in
            guard case .invalidItemSize(section: 0, item: 1, let w, let h) = error as? LayoutError else { return false }
            return (w == width || (w.isNaN && width.isNaN)) && (h == height || (h.isNaN && height.isNaN))
        }
    }

    @Test func invalidAspectClamp() {
        for (minimum, maximum) in [(2.0, 1.0), (0, 1), (.nan, 1), (1, .infinity)] {
            #expect {
                try layout(BoardConfiguration(extent: 100, aspectClamp: AspectClamp(minimum: minimum, maximum: maximum)))
            } throws: { error in
                if case .invalidAspectClamp = error as? LayoutError { return true }
                return false
            }
        }
    }

    @Test func columnsTooNarrowForTheirPadding() {
        // 10 px across, 3 columns with 2 px spacing: 6 px for 3 cards padded by 2 + 2.
        #expect(throws: LayoutError.columnsTooNarrow(section: 0, available: 6, columns: 3, padding: 4)) {
            try layout(BoardConfiguration(extent: 10, cellPadding: Insets(all: 2), sectionStyle: SectionStyle(columns: .count(3), columnSpacing: 2)))
        }
        // Insets wider than the sheet.
        #expect(throws: LayoutError.columnsTooNarrow(section: 0, available: -20, columns: 1, padding: 0)) {
            try layout(BoardConfiguration(extent: 100, contentInsets: Insets(all: 60), sectionStyle: SectionStyle(columns: .count(1))))
        }
    }

    @Test func rowsTooShortForTheCaptionBlock() {
        let configuration = BoardConfiguration(direction: .horizontal, extent: 40, sectionStyle: SectionStyle(columns: .count(1)))
        let section = LayoutSection(items: [LayoutItem(width: 1, height: 1, caption: Caption(title: "t"))])
        // FakeText reserves 32 px; 40 - 32 leaves 8: fine. With 8 px of caption spacing: none.
        #expect(throws: Never.self) { try layout(configuration, [section]) }
        var tight = configuration
        tight.captionSpacing = 8
        #expect(throws: LayoutError.rowsTooShort(section: 0, rowHeight: 40, reserved: 40)) { try layout(tight, [section]) }
    }

    @Test func anImageTooLongToLayOut() {
        #expect {
            try layout(BoardConfiguration(extent: 1000, sectionStyle: SectionStyle(columns: .count(1))), [LayoutSection(items: [LayoutItem(width: 1e-300, height: 1e300)])])
        } throws: { error in
            if case .itemTooLong(section: 0, item: 0, _) = error as? LayoutError { return true }
            return false
        }
    }

    @Test func messagesNameTheFieldAndValue() {
        #expect(LayoutError.negative(field: "sectionStyle.rowSpacing", value: -1).description == "sectionStyle.rowSpacing must not be negative, got -1")
        #expect(LayoutError.notPositive(field: "extent", value: 0).description == "extent must be at least 1, got 0")
    }
}
