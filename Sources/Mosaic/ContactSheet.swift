import Foundation

/// Why a sheet could not be laid out or drawn.
public enum SheetError: Error, Equatable, Sendable, CustomStringConvertible {
    case layout(LayoutError)
    case text(TextError)
    case option(name: String, message: String)
    case output(ImageEncodingError)
    case outputIsAnInput(path: String)
    /// `--strict`: these inputs failed, nothing was written.
    case inputsFailed([String])

    public var description: String {
        switch self {
        case .layout(let error): return "layout: \(error)"
        case .text(let error): return error.description
        case .option(let name, let message): return "--\(name): \(message)"
        case .output(let error): return error.description
        case .outputIsAnInput(let path): return "\(path): the output would overwrite one of the inputs"
        case .inputsFailed(let failures):
            return "\(failures.count) input\(failures.count == 1 ? "" : "s") failed (strict mode, nothing written):\n  " + failures.joined(separator: "\n  ")
        }
    }
}

/// A card's input and what it shows: resolved once, used by the layout, the renderer and
/// the JSON map.
struct SheetCard: Sendable {
    var entry: CatalogEntry
    var caption: Caption?
}

/// A laid-out contact sheet: the catalog, the options, the typesetting and the layout.
public struct ContactSheet: Sendable {
    public let catalog: Catalog
    public let options: SheetOptions
    public let layout: MasonryLayout
    public let captions: CaptionTypesetter
    let typesetter: Typesetter
    /// Per layout section: its cards (none for the title section).
    let cards: [[SheetCard]]
    /// Per layout section: header and footer text.
    let headers: [String?]
    let footers: [String?]
    let headerStyle: TextStyle
    let footerStyle: TextStyle

    /// Aspect of a placeholder card (an input whose headers could not be read).
    static let placeholderSize = (width: 4.0, height: 3.0)

    public init(catalog: Catalog, options: SheetOptions, typesetter: Typesetter) throws(SheetError) {
        self.catalog = catalog
        self.options = options
        self.typesetter = typesetter
        let style = options.style
        let captionStyle = CaptionStyle(
            title: TextStyle(font: style.font, bold: true, size: style.captionSize + 1, lineSpacing: 1.15, maximumLines: 1, alignment: style.captionAlignment),
            description: TextStyle(font: style.font, size: style.captionSize - 1, lineSpacing: 1.2, maximumLines: max(1, options.captionLines), alignment: style.captionAlignment),
            gap: 2)
        headerStyle = TextStyle(font: style.font, bold: true, size: style.headerSize, lineSpacing: 1.1, maximumLines: 2)
        footerStyle = TextStyle(font: style.font, size: style.captionSize, lineSpacing: 1.2, maximumLines: 3)
        do {
            captions = try CaptionTypesetter(typesetter: typesetter, style: captionStyle)
            try typesetter.validate(headerStyle)
        } catch {
            throw .text(error)
        }
        guard (1...100_000).contains(options.width) else { throw .option(name: "width", message: "\(options.width) is not between 1 and 100000") }
        if let columns = options.columns, columns < 1 { throw .option(name: "columns", message: "\(columns) must be at least 1") }
        if let maxAspect = options.maxAspect, !(maxAspect.isFinite && maxAspect >= 1) {
            throw .option(name: "max-aspect", message: "\(maxAspect) must be a number of at least 1")
        }

        let vertical = options.direction == .vertical
        let extent = vertical ? options.width : options.height
        let textWidth = max(1, extent - 2 * options.inset - 2 * style.sectionPadding)
        var sections: [LayoutSection] = []
        var cards: [[SheetCard]] = []
        var headers: [String?] = []
        var footers: [String?] = []
        let decorated = style.sectionBackground != nil
        func supplementary(_ text: String?, _ textStyle: TextStyle, before: Int, after: Int) throws(SheetError) -> Supplementary? {
            guard let text, !text.isEmpty else { return nil }
            // Along a vertical board a header is as tall as its text set across the sheet;
            // along a horizontal one it is a strip as wide as its text set at most 240 px
            // wide (drawn at the strip's top).
            let length: Int
            do {
                let set = try typesetter.layout(text, style: textStyle, width: vertical ? textWidth : min(textWidth, 240))
                length = vertical ? set.height : (set.lines.map(\.width).max() ?? 0)
            } catch {
                throw .text(error)
            }
            let side = decorated ? style.sectionPadding : 0
            return Supplementary(length: length, insets: vertical ? Insets(top: before, left: side, bottom: after, right: side) : Insets(top: side, left: before, bottom: side, right: after))
        }
        func baseStyle(_ overrides: SectionOverrides) -> SectionStyle {
            let spacing = overrides.spacing ?? options.spacing
            var columns: ColumnRule = .count(vertical ? (options.columns ?? 6) : options.rows)
            if let width = overrides.columnWidth ?? (overrides.columns == nil ? options.columnWidth : nil) { columns = .targetWidth(width) }
            if let count = overrides.columns { columns = .count(count) }
            let inset = overrides.inset ?? (decorated ? style.sectionPadding : 0)
            return SectionStyle(
                columns: columns,
                columnSpacing: overrides.columnSpacing ?? options.columnSpacing ?? spacing,
                rowSpacing: overrides.rowSpacing ?? options.rowSpacing ?? spacing,
                insets: Insets(all: inset),
                decoration: decorated ? Decoration() : nil, order: options.order)
        }
        // The sheet's title: a section of its own with only a header.
        if let title = options.title ?? catalog.title, !title.isEmpty {
            var titleStyle = SectionStyle(columns: .count(1))
            titleStyle.header = try supplementary(title, headerStyle, before: 0, after: options.spacing)
            sections.append(LayoutSection(items: [], style: titleStyle))
            cards.append([])
            headers.append(title)
            footers.append(nil)
        }
        for section in catalog.sections {
            var sectionStyle = baseStyle(section.overrides)
            let sectionName = section.header ?? ""
            // A header after another section gets room to breathe above it.
            let before = (decorated ? style.sectionPadding : 0) + (sections.isEmpty ? 0 : options.spacing)
            sectionStyle.header = try supplementary(section.header, headerStyle, before: before, after: options.spacing / 2)
            sectionStyle.footer = try supplementary(section.footer, footerStyle, before: options.spacing / 2, after: decorated ? style.sectionPadding : 0)
            var sectionCards: [SheetCard] = []
            var items: [LayoutItem] = []
            for (index, entry) in section.entries.enumerated() {
                let caption = options.caption.caption(for: entry, index: index + 1, section: sectionName)
                sectionCards.append(SheetCard(entry: entry, caption: caption))
                let size = entry.info.map { (Double($0.orientedWidth), Double($0.orientedHeight)) } ?? Self.placeholderSize
                items.append(LayoutItem(width: size.0, height: size.1, caption: caption))
            }
            sections.append(LayoutSection(items: items, style: sectionStyle))
            cards.append(sectionCards)
            headers.append(section.header)
            footers.append(section.footer)
        }
        // Sections are separated by the spacing: a footer-less section ends with its inset.
        let configuration = MasonryConfiguration(
            direction: options.direction, extent: extent, contentInsets: Insets(all: options.inset),
            cellPadding: Insets(all: options.padding), captionSpacing: options.padding > 0 ? max(4, options.padding - 2) : 6,
            aspectClamp: options.maxAspect.map { AspectClamp(minimum: 1 / $0, maximum: $0, mode: .fill) },
            sectionStyle: baseStyle(SectionOverrides()), maximumPageLength: options.maxHeight)
        // A gap between sections, as between cards: above the header when there is one
        // (its insets already hold it), else above the cards; a background starts below it.
        var spaced = sections
        for i in spaced.indices.dropFirst() {
            guard var style = spaced[i].style else { continue }
            if style.header == nil {
                if vertical { style.insets.top += options.spacing } else { style.insets.left += options.spacing }
            }
            if style.decoration != nil {
                style.decoration = Decoration(insets: vertical ? Insets(top: options.spacing) : Insets(left: options.spacing))
            }
            spaced[i].style = style
        }
        do {
            layout = try MasonryLayout(configuration: configuration, sections: spaced, measurer: captions)
        } catch {
            throw .layout(error)
        }
        self.cards = cards
        self.headers = headers
        self.footers = footers
    }

    func card(_ path: ItemPath) -> SheetCard { cards[path.section][path.item] }

    /// The output file of each page: `sheet.png`, or `sheet-1.png`, `sheet-2.png`... when
    /// there are several.
    public func pagePaths(for output: String) -> [String] {
        if layout.pageCount == 1 { return [output] }
        let base = (output as NSString).deletingPathExtension
        let ext = (output as NSString).pathExtension
        return (1...layout.pageCount).map { "\(base)-\($0)" + (ext.isEmpty ? "" : ".\(ext)") }
    }

    // MARK: The image map

    public struct MapElement: Codable, Sendable {
        public var kind: String
        public var section: Int
        public var item: Int?
        public var page: Int
        public var source: String?
        public var failure: String?
        public var frame: Rect
        public var imageFrame: Rect?
        public var captionFrame: Rect?
        public var title: String?
        public var description: String?
        public var text: String?
    }

    public struct MapPage: Codable, Sendable {
        public var index: Int
        public var file: String?
        public var width: Int
        public var height: Int
    }

    public struct ImageMap: Codable, Sendable {
        public var schemaVersion: Int
        public var generator: String
        public var pages: [MapPage]
        public var elements: [MapElement]
    }

    /// The layout as an image map: every element with its frames (pixels, top-left origin,
    /// per page), its source file and caption.
    public func imageMap(output: String?) -> ImageMap {
        let files = output.map { pagePaths(for: $0) }
        var pages: [MapPage] = []
        var elements: [MapElement] = []
        for page in 0..<layout.pageCount {
            let size = layout.pageSize(page)
            pages.append(MapPage(index: page, file: files?[page], width: size.width, height: size.height))
            for element in layout.elements(onPage: page) {
                var mapped = MapElement(
                    kind: element.kind.rawValue, section: element.section, item: element.item, page: page, source: nil,
                    failure: nil, frame: element.frame, imageFrame: element.imageFrame, captionFrame: element.captionFrame)
                switch element.kind {
                case .card:
                    let card = card(element.itemPath!)
                    mapped.source = card.entry.path
                    mapped.failure = card.entry.failure
                    mapped.title = card.caption?.title
                    mapped.description = card.caption.flatMap { $0.description.isEmpty ? nil : $0.description }
                case .header: mapped.text = headers[element.section]
                case .footer: mapped.text = footers[element.section]
                case .decoration: break
                }
                elements.append(mapped)
            }
        }
        return ImageMap(schemaVersion: 1, generator: "mosaic", pages: pages, elements: elements)
    }

    public func imageMapJSON(output: String?) -> Data {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        return (try? encoder.encode(imageMap(output: output))) ?? Data("{}".utf8)
    }
}
