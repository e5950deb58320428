import MosaicLayout

/// Measures captions for MosaicLayout with real fonts, and sets them for drawing: both go
/// through `layout(_:width:)`, so a caption is drawn exactly as tall as it was measured.
public struct CaptionTypesetter: TextMeasuring, Sendable {
    public let typesetter: Typesetter
    public let style: CaptionStyle

    /// Checks both styles (fonts open, sizes valid) once, so measuring cannot fail later.
    public init(typesetter: Typesetter, style: CaptionStyle = CaptionStyle()) throws(TextError) {
        try typesetter.validate(style.title)
        try typesetter.validate(style.description)
        self.typesetter = typesetter
        self.style = style
    }

    public func layout(_ caption: Caption, width: Int) -> CaptionLayout {
        // The styles were validated at init: these cannot throw.
        let title = caption.title.isEmpty ? nil : try? typesetter.layout(caption.title, style: style.title, width: width)
        let description = caption.description.isEmpty ? nil : try? typesetter.layout(caption.description, style: style.description, width: width)
        return CaptionLayout(
            title: title.flatMap { $0.lines.isEmpty ? nil : $0 },
            description: description.flatMap { $0.lines.isEmpty ? nil : $0 }, gap: style.gap)
    }

    public func height(of caption: Caption, width: Int) -> Int {
        layout(caption, width: width).height
    }

    /// The tallest a caption can be: the title's lines, the gap and the description's
    /// maximum lines (a horizontal board's fixed caption block).
    public func reservedHeight(of caption: Caption) -> Int {
        let titleLines = caption.title.isEmpty ? 0 : (style.title.maximumLines ?? 1)
        let descriptionLines = caption.description.isEmpty ? 0 : (style.description.maximumLines ?? 3)
        let t = titleLines * lineHeight(style.title), d = descriptionLines * lineHeight(style.description)
        return t + d + (t > 0 && d > 0 ? style.gap : 0)
    }

    func lineHeight(_ style: TextStyle) -> Int {
        (try? typesetter.layout("M", style: style, width: 1000).lineHeight) ?? 0
    }
}
