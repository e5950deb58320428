import Foundation

/// A laid-out contact sheet: the catalog, the options, the typesetting and the board.
///
/// Made from headers only (no pixel is decoded); `SheetRenderer` draws it.
public struct ContactSheet: Sendable {
    /// The inputs, in sections.
    public let catalog: Catalog
    /// Everything that decides the sheet but the inputs.
    public let options: SheetOptions
    /// The board, laid out by `options.layout`.
    public let layout: any BoardLayout
    /// Sets the cards' captions (measured for the layout, drawn by the renderer).
    public let captions: CaptionTypesetter
    let typesetter: Typesetter
    /// Per layout section: header and footer text.
    let headers: [String?]
    let footers: [String?]
    let headerStyle: TextStyle
    let footerStyle: TextStyle
    /// The sheet's title: clearly above the section headers (1.5 times their size).
    let titleStyle: TextStyle
    /// Layout section 0 is the sheet's title.
    let hasTitle: Bool
    /// The captions, headers, footers and title longer than `TextLimits` allows: each is
    /// set cut to the limits (the typesetter cuts every text), to warn about before drawing.
    public let cutTexts: [CutText]

    /// A text set cut to `TextLimits`: what it belongs to, and what it held.
    public struct CutText: Sendable, Hashable, CustomStringConvertible {
        public enum Kind: String, Sendable, Hashable {
            case caption, header, footer, title
        }
        public var kind: Kind
        /// The card's input file (a caption).
        public var source: String?
        /// The section's header, its first 40 characters (a header or footer).
        public var section: String?
        public var cut: TextLimits.Cut

        /// "photos/a.jpg: its caption is cut: it has 75,001 characters ...".
        public var description: String {
            let owner: String
            switch kind {
            case .caption: owner = (source.map { FileNames.display($0) + ": its" } ?? "a") + " caption"
            case .title: owner = "the sheet's title"
            case .header, .footer: owner = "the \(kind.rawValue) of section \"\(section ?? "")\""
            }
            return "\(owner) is cut: \(cut)"
        }
    }

    /// Lays out `catalog` with `options`.
    ///
    /// - Throws: `SheetError.option` for an option out of range (named by its `SheetOptions`
    ///   property), `.text` when a font cannot be used, `.layout` when the board cannot be
    ///   laid out.
    public init(catalog: consuming Catalog, options: SheetOptions, typesetter: Typesetter) throws(SheetError) {
        try options.validate()
        // Kept in a temporary file while the sheet lives: a board of a million cards holds
        // a million entries.
        // Past a section's first 100 inputs that cannot be read, one card stands for the rest.
        self.catalog = (consume catalog).summarizingFailures().spilled()
        self.options = options
        self.typesetter = typesetter
        let style = options.style
        let captionStyle = CaptionStyle(
            title: TextStyle(font: style.font, bold: true, size: style.captionSize + 1, lineSpacing: 1.15, maximumLines: 1, alignment: style.captionAlignment,
                direction: style.textDirection),
            description: TextStyle(font: style.font, size: style.captionSize - 1, lineSpacing: 1.2, maximumLines: max(1, options.captionLines),
                alignment: style.captionAlignment, direction: style.textDirection),
            gap: 2)
        headerStyle = TextStyle(font: style.font, bold: true, size: style.headerSize, lineSpacing: 1.1, maximumLines: 2, direction: style.textDirection)
        footerStyle = TextStyle(font: style.font, size: style.captionSize, lineSpacing: 1.2, maximumLines: 3, direction: style.textDirection)
        titleStyle = TextStyle(font: style.font, bold: true, size: style.headerSize * 1.5, lineSpacing: 1.1, maximumLines: 2, direction: style.textDirection)
        do {
            captions = try CaptionTypesetter(typesetter: typesetter, style: captionStyle)
            try typesetter.validate(headerStyle)
            try typesetter.validate(titleStyle)
        } catch {
            throw .text(error)
        }
        let built = try SheetSections(
            catalog: self.catalog, options: options, typesetter: typesetter, headerStyle: headerStyle, footerStyle: footerStyle, titleStyle: titleStyle)
        hasTitle = built.hasTitle
        cutTexts = built.cutTexts
        do {
            layout = try options.layout.layOut(built.configuration, built.sections, captions)
        } catch {
            throw .layout(error)
        }
        headers = built.headers
        footers = built.footers
    }

    /// A page longer than the maximum page length: one of its elements alone is longer than a
    /// page (drawn whole: a card is never cut).
    public struct OversizedPage: Sendable, Hashable {
        /// From 0.
        public var page: Int
        /// The page's length along the flow (height; width on a horizontal board).
        public var length: Int
        public var maximum: Int
        /// The longest element's input file, when it is a card.
        public var source: String?
    }

    /// A feature card asked to span more columns than its section has: it spans them all.
    public struct ClampedSpan: Sendable, Hashable {
        /// The card's input file.
        public var source: String
        public var span: Int
        public var columns: Int
    }

    /// The feature cards clamped to their section's columns, to warn about (with
    /// `--feature`, the first card of each such section only).
    public var clampedSpans: [ClampedSpan] {
        var result: [ClampedSpan] = []
        guard options.layout.placesSpans else { return result }
        for (index, section) in catalog.sections.enumerated() where !section.entries.isEmpty {
            let columns = layout.columnCount(inSection: index + (hasTitle ? 1 : 0))
            if options.feature > 0, columns < 2, let first = section.spans.isEmpty ? section.entries.first : nil {
                result.append(ClampedSpan(source: first.path, span: 2, columns: columns))
            }
            for (item, span) in section.spans.sorted(by: { $0.key < $1.key }) where span > columns && item < section.entries.count {
                result.append(ClampedSpan(source: section.entries[item].path, span: span, columns: columns))
            }
        }
        return result
    }

    /// The pages longer than `options.maxHeight`, to warn about before drawing.
    public var oversizedPages: [OversizedPage] {
        guard let maximum = options.maxHeight else { return [] }
        let vertical = options.direction == .vertical
        return (0..<layout.pageCount).compactMap { page in
            let size = layout.pageSize(page)
            let length = vertical ? size.height : size.width
            guard length > maximum else { return nil }
            let longest = layout.elements(onPage: page).filter { $0.kind == .card }
                .max { (vertical ? $0.frame.height : $0.frame.width) < (vertical ? $1.frame.height : $1.frame.width) }
            return OversizedPage(page: page, length: length, maximum: maximum, source: longest?.itemPath.map { card($0).entry.path })
        }
    }

    /// What common viewers and libraries refuse to open, checked before a page is drawn.
    public enum ViewerLimit {
        /// Longest side: ImageMagick's default policy on Debian ("16KP": it refuses a
        /// 10x16001 PNG, silently), about the 16,384 px texture limit of many GPUs and
        /// image viewers.
        public static let side = 16_000
        /// Pixels: Pillow warns of a decompression bomb above 89,478,485 and refuses twice
        /// that (178,956,970); browsers and phones scale such images down or give up.
        public static let pixels = 89_478_485
    }

    /// A page larger than `ViewerLimit` allows, and why, for a warning before it is drawn.
    public struct LargePage: Sendable, Hashable {
        public var page: Int
        public var size: Size
        /// What it exceeds, for people.
        public var reasons: [String]
    }

    /// The pages too large for common viewers and libraries as a single PNG.
    public var pagesTooLargeForViewers: [LargePage] {
        (0..<layout.pageCount).compactMap { page in
            let size = layout.pageSize(page)
            var reasons: [String] = []
            if max(size.width, size.height) > ViewerLimit.side {
                reasons.append("over \(ViewerLimit.side) px \(size.height >= size.width ? "tall" : "wide"), which ImageMagick (Debian's default policy), many viewers and GPU textures refuse")
            }
            let pixels = size.width * size.height
            if pixels > ViewerLimit.pixels {
                let refuse = pixels > 2 * ViewerLimit.pixels
                reasons.append("\(pixels / 1_000_000) MP, over the \(refuse ? "179" : "89") MP at which Pillow \(refuse ? "refuses to open an image" : "warns of a decompression bomb")")
            }
            return reasons.isEmpty ? nil : LargePage(page: page, size: size, reasons: reasons)
        }
    }

    /// A digest of everything that decides the board's pixels: the options, the version,
    /// and every element's frame, source and caption (FNV-1a, 64 bits, hex). Shards of one
    /// board have the same.
    public var digest: String {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        func mix(_ text: String) {
            for byte in text.utf8 {
                hash ^= UInt64(byte)
                hash = hash &* 0x100_0000_01b3
            }
            hash ^= 0xFF
            hash = hash &* 0x100_0000_01b3
        }
        mix(MosaicVersion.string)
        // The threads do not change a pixel: shards may use different counts.
        var described = options
        described.jobs = 1
        // Nor does whether the width was typed or left at its default.
        described.widthIsGiven = false
        mix(String(describing: described))
        for page in 0..<layout.pageCount {
            for element in layout.elements(onPage: page) {
                mix("\(element.kind.rawValue) \(element.frame) \(element.imageFrame.map(String.init(describing:)) ?? "")")
                if let path = element.itemPath {
                    let card = card(path)
                    mix(card.entry.path)
                    mix(card.caption.map { "\($0.title)|\($0.description)" } ?? "")
                }
            }
        }
        return String(hash, radix: 16)
    }

    /// The style a header or footer of `section` is set in.
    func textStyle(_ kind: ElementKind, section: Int) -> TextStyle {
        if kind == .footer { return footerStyle }
        return hasTitle && section == 0 ? titleStyle : headerStyle
    }

    /// The card at `path` (a path the layout gave).
    /// The inputs that the failure-summary card at `path` stands for (none for other cards).
    func summarizedProblems(of path: ItemPath) -> [CardProblem] {
        let index = path.section - (hasTitle ? 1 : 0)
        return catalog.sections.indices.contains(index) ? catalog.sections[index].summarizedProblems : []
    }

    func card(_ path: ItemPath) -> SheetCard {
        let section = catalog.sections[path.section - (hasTitle ? 1 : 0)]
        let entry = section.entries[path.item]
        return SheetCard(entry: entry, caption: options.caption.caption(for: entry, index: path.item + 1, section: section.header ?? ""))
    }
}
