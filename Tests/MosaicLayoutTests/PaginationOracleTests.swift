import MosaicTestSupport
import MosaicLayout
import Testing

/// The pagination rules checked from the outside, over 1,000 seeded stress boards made to
/// break them: sections with and without headers, footers, cards and backgrounds, empty
/// first sections, and maximum page lengths from a few pixels to a few cards (issue 35
/// item 11). The oracle reads only what a layout answers (pages, their sizes, their
/// elements), never how the engine got there:
///
/// - (a) a section's background frames whatever of the section a page shows: on every page
///   where a section with a background shows a header, card or footer there is exactly one
///   fragment of that background, and it covers them along the flow (the fragment widened
///   by its own insets); a section that shows nothing on a page draws none there. Before,
///   a section with a header or footer but no cards drew none (376 of the stress specs).
/// - (b) no page holds nothing: on a board of more than one page, every page shows a
///   header, card or footer. Before, an empty first section left a blank first page.
/// - (c) a page is no longer than the maximum unless one element alone (with the insets
///   around it) is longer.
@Suite struct PaginationOracleTests {
    struct Spec {
        var configuration: BoardConfiguration
        var sections: [LayoutSection]
        var layout: Int
    }

    static func insets(_ g: inout SeededGenerator, upTo limit: Int) -> Insets {
        Insets(
            top: Int.random(in: 0...limit, using: &g), left: Int.random(in: 0...limit, using: &g),
            bottom: Int.random(in: 0...limit, using: &g), right: Int.random(in: 0...limit, using: &g))
    }

    static func spec(seed: UInt64) -> Spec {
        var g = SeededGenerator(seed: seed)
        let tiny = Int.random(in: 0..<4, using: &g)
        let maximum: Int
        switch tiny {
        case 0: maximum = Int.random(in: 1...40, using: &g)
        case 1: maximum = Int.random(in: 40...160, using: &g)
        default: maximum = Int.random(in: 160...900, using: &g)
        }
        var configuration = BoardConfiguration(
            extent: Int.random(in: 200...900, using: &g),
            contentInsets: insets(&g, upTo: Bool.random(using: &g) ? 0 : 24),
            minimumContentLength: Int.random(in: 0..<4, using: &g) == 0 ? Int.random(in: 0...400, using: &g) : 0,
            cellPadding: insets(&g, upTo: 4),
            captionSpacing: Int.random(in: 0...4, using: &g),
            sectionStyle: SectionStyle(columns: .count(Int.random(in: 1...4, using: &g)), rowSpacing: Int.random(in: 0...12, using: &g)),
            maximumPageLength: maximum)
        if Bool.random(using: &g) { configuration.sectionStyle.decoration = Decoration(insets: insets(&g, upTo: 6)) }
        let sectionCount = Int.random(in: 1...6, using: &g)
        var sections: [LayoutSection] = []
        for index in 0..<sectionCount {
            // Empty sections often, the first above all.
            let empty = Int.random(in: 0..<(index == 0 ? 2 : 3), using: &g) == 0
            let count = empty ? 0 : Int.random(in: 1...12, using: &g)
            let items = (0..<count).map { _ -> LayoutItem in
                let caption: Caption? = Bool.random(using: &g) ? Caption(title: "T", description: String(repeating: "w", count: Int.random(in: 0...30, using: &g))) : nil
                return LayoutItem(width: Int.random(in: 1...800, using: &g), height: Int.random(in: 1...800, using: &g), caption: caption)
            }
            var style: SectionStyle? = nil
            if Int.random(in: 0..<5, using: &g) > 0 {
                style = SectionStyle(
                    columns: .count(Int.random(in: 1...4, using: &g)), columnSpacing: Int.random(in: 0...8, using: &g),
                    rowSpacing: Int.random(in: 0...8, using: &g), insets: insets(&g, upTo: 10),
                    header: Bool.random(using: &g) ? Supplementary(length: Int.random(in: 0...48, using: &g), insets: insets(&g, upTo: 6)) : nil,
                    footer: Bool.random(using: &g) ? Supplementary(length: Int.random(in: 0...48, using: &g), insets: insets(&g, upTo: 6)) : nil,
                    decoration: Int.random(in: 0..<4, using: &g) > 0 ? Decoration(insets: insets(&g, upTo: 6)) : nil,
                    order: ItemOrder.allCases.randomElement(using: &g) ?? .shortestFirst)
            }
            sections.append(LayoutSection(items: items, style: style))
        }
        return Spec(configuration: configuration, sections: sections, layout: Int.random(in: 0..<3, using: &g))
    }

    static func layOut(_ spec: Spec) throws(LayoutError) -> any BoardLayout {
        switch spec.layout {
        case 0: return try MasonryLayout(configuration: spec.configuration, sections: spec.sections, measurer: FakeText())
        case 1: return try GridLayout(configuration: spec.configuration, sections: spec.sections, measurer: FakeText())
        default: return try JustifiedLayout(configuration: spec.configuration, rows: JustifiedRows(targetRowHeight: 60), sections: spec.sections, measurer: FakeText())
        }
    }

    /// The rules broken by `spec`'s layout, one line each; empty when it keeps them all.
    static func violations(_ layout: some BoardLayout, spec: Spec) -> [String] {
        var found: [String] = []
        let configuration = spec.configuration
        let content = configuration.contentInsets
        for page in 0..<layout.pageCount {
            let elements = layout.elements(onPage: page)
            let shown = elements.filter { $0.kind != .decoration }
            // (b) No page holds nothing.
            if layout.pageCount > 1, shown.isEmpty { found.append("page \(page) of \(layout.pageCount) shows nothing") }
            // (a) Each section's background frames what the section shows on the page.
            for section in 0..<spec.sections.count {
                let style = spec.sections[section].style ?? configuration.sectionStyle
                let parts = shown.filter { $0.section == section }
                let backgrounds = elements.filter { $0.kind == .decoration && $0.section == section }
                guard let decoration = style.decoration else {
                    if !backgrounds.isEmpty { found.append("page \(page): section \(section) has no background style but draws one") }
                    continue
                }
                if parts.isEmpty {
                    if !backgrounds.isEmpty { found.append("page \(page): section \(section) shows nothing but draws a background") }
                    continue
                }
                guard backgrounds.count == 1, let background = backgrounds.first else {
                    found.append("page \(page): section \(section) shows \(parts.map(\.kind)) behind \(backgrounds.count) backgrounds")
                    continue
                }
                let top = background.frame.minY - decoration.insets.top, bottom = background.frame.maxY + decoration.insets.bottom
                for part in parts where part.frame.minY < top || part.frame.maxY > bottom {
                    found.append("page \(page): section \(section)'s \(part.kind) \(part.frame) is outside its background \(background.frame)")
                }
            }
            // (c) No page is longer than the maximum but for an element longer alone.
            if let maximum = configuration.maximumPageLength, layout.pageSize(page).height > maximum {
                let alone = shown.contains { element in
                    let style = spec.sections[element.section].style ?? configuration.sectionStyle
                    var needed = element.frame.height + content.top + content.bottom + style.insets.top + style.insets.bottom
                    if element.kind == .header, let header = style.header { needed += header.insets.top + header.insets.bottom }
                    if element.kind == .footer, let footer = style.footer { needed += footer.insets.top + footer.insets.bottom }
                    return needed > maximum
                }
                if !alone { found.append("page \(page) is \(layout.pageSize(page).height) px long, over \(maximum), with no element longer than a page") }
            }
        }
        return found
    }

    @Test func stressSpecsKeepThePaginationRules() throws {
        var laidOut = 0, broken: [String] = []
        var headerOnly = 0, emptyFirst = 0
        for seed in UInt64(0)..<1_000 {
            let spec = Self.spec(seed: seed)
            let layout: any BoardLayout
            do { layout = try Self.layOut(spec) } catch { continue }
            laidOut += 1
            if spec.sections.contains(where: { $0.items.isEmpty && ($0.style?.header != nil || $0.style?.footer != nil) }) { headerOnly += 1 }
            if spec.sections[0].items.isEmpty { emptyFirst += 1 }
            let found = Self.violations(layout, spec: spec)
            if !found.isEmpty { broken.append("seed \(seed): " + found.joined(separator: "; ")) }
        }
        let report = broken.prefix(20).joined(separator: "\n")
        #expect(broken.isEmpty, "\(broken.count) specs break the rules:\n\(report)")
        // The generator must make what it is meant to stress.
        #expect(laidOut >= 900)
        #expect(headerOnly >= 200)
        #expect(emptyFirst >= 300)
    }

    /// The blank first page, worked out: an empty first section (no header, footer or card)
    /// took its insets' 20 px, the next section's card did not fit under them, and page 0
    /// was a blank 20 px.
    @Test func anEmptyFirstSectionLeavesNoBlankPage() throws {
        let configuration = BoardConfiguration(extent: 200, sectionStyle: SectionStyle(columns: .count(1)), maximumPageLength: 100)
        let empty = LayoutSection(items: [], style: SectionStyle(columns: .count(1), insets: Insets(top: 10, left: 0, bottom: 10, right: 0)))
        let photos = LayoutSection(items: items([(200, 90)]))
        let layout = try MasonryLayout(configuration: configuration, sections: [empty, photos])
        #expect(layout.pageCount == 1)
        #expect(layout.pageSize(0) == Size(width: 200, height: 90))
        #expect(cardFrames(layout) == [Rect(x: 0, y: 0, width: 200, height: 90)])
    }

    /// A section with a header and a footer but no cards draws its background behind them.
    @Test func aSectionWithoutCardsFramesItsHeaderAndFooter() throws {
        let style = SectionStyle(
            columns: .count(1), insets: Insets(all: 4), header: Supplementary(length: 20), footer: Supplementary(length: 10),
            decoration: Decoration(insets: Insets(all: 2)))
        let layout = try MasonryLayout(configuration: BoardConfiguration(extent: 200), sections: [LayoutSection(items: [], style: style)])
        let backgrounds = layout.elements(onPage: 0).filter { $0.kind == .decoration }
        // Header 0..<20, items' top 24, end inset 28, footer 28..<38: framed 2..<36.
        #expect(backgrounds.map(\.frame) == [Rect(x: 2, y: 2, width: 196, height: 34)])
    }
}
