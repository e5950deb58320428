/// Draws a sheet's elements onto a band's canvas: section backgrounds, headers and footers,
/// cards (shadow, background, image or placeholder, border, caption).
struct CardPainter {
    let sheet: ContactSheet
    /// The sink draws captions, headers and footers as text (a PDF): the raster draws only
    /// their colour glyphs.
    var textAsVectors = false
    var style: SheetStyle { sheet.options.style }

    init(sheet: ContactSheet, textAsVectors: Bool = false) {
        self.sheet = sheet
        self.textAsVectors = textAsVectors
    }

    func drawDecoration(_ element: LayoutAttributes, on canvas: inout Canvas) {
        guard let color = style.sectionBackground else { return }
        canvas.fillRoundedRect(element.frame, radius: style.sectionRadius, color: color.premultiplied)
    }

    /// A header or footer, set across its frame. A header repeated on a page its section
    /// continues on says so ("Title (continued)") when that fits in the lines measured for
    /// the title alone.
    ///
    /// - Throws: `RenderError.text` (the styles were checked when the sheet was laid out).
    func drawText(_ element: LayoutAttributes, on canvas: inout Canvas) throws(RenderError) {
        guard let (layout, origin, color) = try text(element) else { return }
        canvas.draw(mask(layout, width: element.frame.width, outlines: !textAsVectors), at: origin, color: color.premultiplied)
    }

    /// A header's or footer's text set across its frame, where it is drawn and its colour;
    /// nil when it has none.
    func text(_ element: LayoutAttributes) throws(RenderError) -> (TextLayout, Point, Color)? {
        let isHeader = element.kind == .header
        guard let text = isHeader ? sheet.headers[element.section] : sheet.footers[element.section], !text.isEmpty else { return nil }
        var layout: TextLayout
        do {
            let style = sheet.textStyle(element.kind, section: element.section)
            layout = try sheet.typesetter.layout(text, style: style, width: element.frame.width)
            if element.continued == true {
                let marked = try sheet.typesetter.layout(text + " " + Self.continuedMark, style: style, width: element.frame.width)
                if marked.lines.count <= layout.lines.count, !marked.isTruncated { layout = marked }
            }
        } catch {
            throw .text(error)
        }
        let color = isHeader ? style.headerColor : style.footerColor
        // Along a horizontal board a footer is a strip after its section's cards: set at the
        // strip's foot, beside the section's last row, so that it reads as the section's own
        // and not as part of the next section's header at the top.
        var origin = element.frame.origin
        if !isHeader, sheet.options.direction == .horizontal {
            origin.y = max(element.frame.minY, element.frame.maxY - layout.height)
        }
        return (layout, origin, color)
    }

    /// Every caption, header and footer of `page` as text placed on the page (for a sink
    /// that draws text: `PageSink.drawsText`), in z then document order. A placeholder's
    /// message and a badge stay pixels.
    func texts(onPage page: Int) throws(RenderError) -> [PageText] {
        let size = sheet.layout.pageSize(page)
        var texts: [PageText] = []
        for element in sheet.layout.elements(in: Rect(x: 0, y: 0, width: size.width, height: size.height), page: page) {
            switch element.kind {
            case .decoration: continue
            case .header, .footer:
                if let (layout, origin, color) = try text(element) {
                    texts.append(PageText(layout: layout, origin: origin, color: color, typesetter: sheet.typesetter))
                }
            case .card:
                guard let path = element.itemPath, let caption = sheet.card(path).caption, let frame = element.captionFrame else { continue }
                let set = sheet.captions.layout(caption, width: frame.width)
                if let title = set.title {
                    texts.append(PageText(layout: title, origin: frame.origin, color: style.titleColor, typesetter: sheet.typesetter))
                }
                if let description = set.description {
                    let origin = Point(x: frame.minX, y: frame.minY + set.descriptionTop)
                    texts.append(PageText(layout: description, origin: origin, color: style.captionColor, typesetter: sheet.typesetter))
                }
            }
        }
        return texts
    }

    /// What a repeated header adds to its title.
    static let continuedMark = "(continued)"

    func drawCard(_ element: LayoutAttributes, _ decoded: DecodedCard, on canvas: inout Canvas) throws(RenderError) {
        let frame = element.frame
        if style.shadowColor.alpha > 0 {
            let shadowRect = Rect(x: frame.minX + style.shadowOffsetX, y: frame.minY + style.shadowOffsetY, width: frame.width, height: frame.height)
            canvas.shadow(
                shadowRect, radius: style.cornerRadius, blur: style.shadowBlur, color: style.shadowColor.premultiplied,
                hidden: style.cardBackground.isOpaque ? frame : nil)
        }
        canvas.fillRoundedRect(frame, radius: style.cornerRadius, color: style.cardBackground.premultiplied)
        let imageFrame = element.imageFrame ?? frame
        // The image's corners follow the card's, less the padding between them.
        let imageRadius = max(0, style.cornerRadius - sheet.options.padding / 2)
        if let image = decoded.image {
            let clip = Rect(
                x: max(imageFrame.minX, decoded.imageOrigin.x), y: max(imageFrame.minY, decoded.imageOrigin.y),
                width: min(imageFrame.width, image.width), height: min(imageFrame.height, image.height))
            canvas.draw(image, at: decoded.imageOrigin, clipRect: clip, radius: imageRadius)
            if let badge = decoded.badge { drawBadge(badge, in: clip, on: &canvas) }
        } else {
            let entry = element.itemPath.map { sheet.card($0).entry }
            // The card that stands for a section's failures past its first 100 says how many.
            let text = entry?.summarizedFailures.map { CaptionMode.summaryTitle($0) } ?? "cannot read\n\(entry?.name ?? "")"
            try drawPlaceholder(imageFrame, text: text, radius: imageRadius, on: &canvas)
        }
        if style.borderWidth > 0 {
            canvas.strokeRoundedRect(frame, radius: style.cornerRadius, lineWidth: style.borderWidth, color: style.borderColor.premultiplied)
        }
        if let captionFrame = element.captionFrame {
            if let title = decoded.title {
                canvas.draw(title, at: captionFrame.origin, color: style.titleColor.premultiplied)
            }
            if let description = decoded.description {
                let origin = Point(x: captionFrame.minX, y: captionFrame.minY + decoded.descriptionTop)
                canvas.draw(description, at: origin, color: style.captionColor.premultiplied)
            }
        }
    }

    /// A video poster's badge (`DecodedCard.badge`) in the bottom-left corner of its image:
    /// white on a translucent dark pill, legible on any frame.
    func drawBadge(_ badge: CoverageMask, in image: Rect, on canvas: inout Canvas) {
        let (padX, padY, margin) = (max(4, badge.height / 3), max(2, badge.height / 6), max(4, badge.height / 3))
        let pill = Rect(
            x: image.minX + margin, y: image.maxY - margin - badge.height - 2 * padY, width: badge.width + 2 * padX,
            height: badge.height + 2 * padY)
        guard pill.minY >= image.minY, pill.maxX <= image.maxX else { return }
        canvas.fillRoundedRect(pill, radius: pill.height / 2, color: RGBA(straightRed: 0, green: 0, blue: 0, alpha: 150))
        canvas.draw(badge, at: Point(x: pill.minX + padX, y: pill.minY + padY), color: .white)
    }

    /// `layout` drawn into a coverage mask `width` pixels wide and as tall as the text;
    /// with `outlines` false, only its colour glyphs (a sink draws the rest as text).
    func mask(_ layout: TextLayout, width: Int, outlines: Bool = true) -> CoverageMask {
        var mask = CoverageMask(width: width, height: max(1, layout.height))
        sheet.typesetter.draw(layout, into: &mask, x: 0, y: 0, outlines: outlines)
        return mask
    }

    /// A card for an input that could not be drawn: a red-edged panel with `text` (naming
    /// the file).
    func drawPlaceholder(_ frame: Rect, text: String, radius: Int, on canvas: inout Canvas) throws(RenderError) {
        let dark = style.background.red < 128
        canvas.fillRoundedRect(frame, radius: radius, color: dark ? RGBA(red: 0x37, green: 0x2A, blue: 0x2A) : RGBA(red: 0xFD, green: 0xE8, blue: 0xE8))
        canvas.strokeRoundedRect(frame, radius: radius, lineWidth: 2, color: RGBA(red: 0xDC, green: 0x26, blue: 0x26))
        guard frame.width > 8 else { return }
        let textStyle = TextStyle(font: style.font, bold: true, size: max(10, style.captionSize), maximumLines: 3, alignment: .center)
        let layout: TextLayout
        do {
            layout = try sheet.typesetter.layout("⚠ " + text, style: textStyle, width: frame.width - 8)
        } catch {
            throw .text(error)
        }
        let origin = Point(x: frame.minX + 4, y: frame.minY + max(0, (frame.height - layout.height) / 2))
        canvas.draw(mask(layout, width: frame.width - 8), at: origin, color: RGBA(red: 0xB9, green: 0x1C, blue: 0x1C))
    }
}
