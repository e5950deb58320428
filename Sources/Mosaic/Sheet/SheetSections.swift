/// The catalog turned into layout sections: a title section, then one section per catalog
/// section with its header and footer measured, its items sized from the headers and
/// captioned; and beside them what the renderer and the image map need per section. A
/// card's caption is made again from its entry whenever asked for (it reads no file).
struct SheetSections {
    var sections: [LayoutSection] = []
    /// Per layout section: header and footer text.
    var headers: [String?] = []
    var footers: [String?] = []
    /// The texts longer than `TextLimits` allows (set cut), to warn about.
    var cutTexts: [ContactSheet.CutText] = []

    /// Aspect of a placeholder card (an input whose headers could not be read).
    static let placeholderSize = (width: 4.0, height: 3.0)

    let options: SheetOptions
    let typesetter: Typesetter
    let headerStyle: TextStyle
    let footerStyle: TextStyle
    let titleStyle: TextStyle
    /// Section 0 is the sheet's title.
    var hasTitle = false

    var vertical: Bool { options.direction == .vertical }
    var decorated: Bool { options.style.sectionBackground != nil }

    init(
        catalog: Catalog, options: SheetOptions, typesetter: Typesetter, headerStyle: TextStyle, footerStyle: TextStyle, titleStyle: TextStyle
    ) throws(SheetError) {
        self.options = options
        self.typesetter = typesetter
        self.headerStyle = headerStyle
        self.footerStyle = footerStyle
        self.titleStyle = titleStyle
        // The sheet's title: a section of its own with only a header.
        if let title = options.title ?? catalog.title, !title.isEmpty {
            if let cut = TextLimits.cut(of: title) { cutTexts.append(ContactSheet.CutText(kind: .title, source: nil, section: nil, cut: cut)) }
            var titleSection = SectionStyle(columns: .count(1))
            titleSection.header = try supplementary(title, self.titleStyle, before: 0, after: options.spacing, across: Self.titleStrip)
            append(LayoutSection(items: [], style: titleSection), header: title, footer: nil)
            hasTitle = true
        }
        for section in catalog.sections { try add(section) }
        spaceSections()
    }

    mutating func append(_ section: LayoutSection, header: String?, footer: String?) {
        sections.append(section)
        headers.append(header)
        footers.append(footer)
    }

    /// A catalog section: its header and footer, and its cards sized from their headers.
    mutating func add(_ section: CatalogSection) throws(SheetError) {
        let style = options.style
        var sectionStyle = baseStyle(section.overrides)
        // A header after another section gets room to breathe above it.
        let before = (decorated ? style.sectionPadding : 0) + (sections.isEmpty ? 0 : options.spacing)
        sectionStyle.header = try supplementary(section.header, headerStyle, before: before, after: options.spacing / 2)
        sectionStyle.footer = try supplementary(
            section.footer, footerStyle, before: options.spacing / 2, after: decorated ? style.sectionPadding : 0)
        for (kind, text) in [(ContactSheet.CutText.Kind.header, section.header), (.footer, section.footer)] {
            if let text, let cut = TextLimits.cut(of: text) {
                cutTexts.append(ContactSheet.CutText(kind: kind, source: nil, section: section.header.map { String($0.prefix(40)) }, cut: cut))
            }
        }
        var items: [LayoutItem] = []
        items.reserveCapacity(section.entries.count)
        for (index, entry) in section.entries.enumerated() {
            let caption = options.caption.caption(for: entry, index: index + 1, section: section.header ?? "")
            if let caption, let cut = TextLimits.cut(of: caption.title) ?? TextLimits.cut(of: caption.description) {
                cutTexts.append(ContactSheet.CutText(kind: .caption, source: entry.path, section: nil, cut: cut))
            }
            let size = entry.orientedSize.map { (Double($0.width), Double($0.height)) } ?? Self.placeholderSize
            // Feature cards: the manifest's span, else the first `feature` of each section span 2.
            let span = section.spans[index] ?? (index < options.feature ? 2 : 1)
            items.append(LayoutItem(width: size.0, height: size.1, caption: caption, span: span))
        }
        append(LayoutSection(items: items, style: sectionStyle), header: section.header, footer: section.footer)
    }

    /// How wide a header or footer strip of a horizontal board may be: section labels wrap
    /// at 240 px, beside their cards; the sheet's title at 720 px, so that a title of a
    /// few words stays on one line.
    static let strip = 240
    static let titleStrip = 720

    /// A header or footer of `text`: along a vertical board as tall as its text set across
    /// the sheet; along a horizontal one a strip as wide as its text set at most `across`
    /// px wide (a header drawn at the strip's top, a footer at its foot). Nil for no text.
    func supplementary(
        _ text: String?, _ textStyle: TextStyle, before: Int, after: Int, across: Int = Self.strip
    ) throws(SheetError) -> Supplementary? {
        guard let text, !text.isEmpty else { return nil }
        let style = options.style
        let extent = vertical ? options.width : options.height
        let textWidth = max(1, extent - 2 * options.inset - 2 * style.sectionPadding)
        let length: Int
        do {
            let set = try typesetter.layout(text, style: textStyle, width: vertical ? textWidth : min(textWidth, across))
            length = vertical ? set.height : (set.lines.map(\.width).max() ?? 0)
        } catch {
            throw .text(error)
        }
        let side = decorated ? style.sectionPadding : 0
        return Supplementary(
            length: length,
            insets: vertical ? Insets(top: before, left: side, bottom: after, right: side) : Insets(top: side, left: before, bottom: side, right: after))
    }

    /// The sheet's section style with a manifest section's overrides.
    func baseStyle(_ overrides: SectionOverrides) -> SectionStyle {
        let spacing = overrides.spacing ?? options.spacing
        var columns: ColumnRule = .count(vertical ? (options.columns ?? 6) : options.rows)
        if let width = overrides.columnWidth ?? (overrides.columns == nil ? options.columnWidth : nil) { columns = .targetWidth(width) }
        if let count = overrides.columns { columns = .count(count) }
        let inset = overrides.inset ?? (decorated ? options.style.sectionPadding : 0)
        return SectionStyle(
            columns: columns,
            columnSpacing: overrides.columnSpacing ?? options.columnSpacing ?? spacing,
            rowSpacing: overrides.rowSpacing ?? options.rowSpacing ?? spacing,
            insets: Insets(all: inset),
            decoration: decorated ? Decoration() : nil, order: options.order,
            isRightToLeft: (overrides.direction == nil || overrides.direction == .auto ? options.style.textDirection : overrides.direction) == .rtl)
    }

    /// A gap between sections, as between cards: above the header when there is one (its
    /// insets already hold it), else above the cards; a background starts below it.
    mutating func spaceSections() {
        for i in sections.indices.dropFirst() {
            guard var style = sections[i].style else { continue }
            if style.header == nil {
                if vertical { style.insets.top += options.spacing } else { style.insets.left += options.spacing }
            }
            if style.decoration != nil {
                style.decoration = Decoration(insets: vertical ? Insets(top: options.spacing) : Insets(left: options.spacing))
            }
            sections[i].style = style
        }
    }

    /// The board's settings; sections without a style of their own get `baseStyle`.
    var configuration: BoardConfiguration {
        BoardConfiguration(
            direction: options.direction, extent: vertical ? options.width : options.height,
            contentInsets: Insets(all: options.inset),
            cellPadding: Insets(all: options.padding), captionSpacing: options.padding > 0 ? max(4, options.padding - 2) : 6,
            aspectClamp: options.maxAspect.map { AspectClamp(minimum: 1 / $0, maximum: $0, mode: .fill) },
            sectionStyle: baseStyle(SectionOverrides()), maximumPageLength: options.maxHeight)
    }
}
