import ArgumentParser
import Foundation
import Mosaic

/// Colours and the cards' shape: what is drawn, not where (`render` only).
struct LookArguments: ParsableArguments {
    @Option(help: "Colour preset (default: light; print for a PDF: white paper, no shadows).")
    var theme: Theme?
    @Option(help: "Sheet background: #rrggbb, a CSS name, transparent... (default: the theme's).")
    var background: String?
    @Option(help: "Card background colour (default: the theme's).")
    var cardBackground: String?
    @Option(parsing: .unconditional, help: "Card corner radius, pixels (default: 10).")
    var cornerRadius: Int?
    @Option(parsing: .unconditional, help: ArgumentHelp("Card border width: pixels, or for a PDF mm or pt (default: 0).", valueName: "length"))
    var borderWidth: LengthArgument?
    @Option(help: "Card border colour (default: the theme's).")
    var borderColor: String?
    @Option(help: ArgumentHelp("Card shadow: X,Y,BLUR,COLOR or none (default: the theme's).", valueName: "shadow"))
    var shadow: String?
    @Option(help: "Caption title colour (default: the theme's).")
    var titleColor: String?
    @Option(help: "Caption description colour (default: the theme's).")
    var captionColor: String?
    @Option(help: "Section header colour (default: the theme's).")
    var headerColor: String?
    @Option(help: "Section footer colour (default: the theme's).")
    var footerColor: String?
    @Option(parsing: .unconditional, help: "Corner radius of section backgrounds, pixels (default: 14).")
    var sectionRadius: Int?

    func validate() throws {
        try LengthArgument.check([(.borderWidth, borderWidth)])
        try SheetArguments.checkNotNegative([("corner-radius", cornerRadius ?? 0), ("section-radius", sectionRadius ?? 0)])
        try SheetArguments.checkColors([
            ("background", background), ("card-background", cardBackground), ("border-color", borderColor), ("title-color", titleColor),
            ("caption-color", captionColor), ("header-color", headerColor), ("footer-color", footerColor),
        ])
        if let shadow, Self.parseShadow(shadow) == nil {
            throw ValidationError("--shadow: \"\(shadow)\" is not X,Y,BLUR,COLOR (e.g. 0,2,8,#0003) or none")
        }
    }

    /// `X,Y,BLUR,COLOR` or `none`; nil when `text` is neither.
    static func parseShadow(_ text: String) -> (x: Int, y: Int, blur: Int, color: Color)? {
        if text == "none" { return (0, 0, 0, .transparent) }
        let parts = text.split(separator: ",", maxSplits: 3).map { $0.trimmingCharacters(in: .whitespaces) }
        guard parts.count == 4, let x = Int(parts[0]), let y = Int(parts[1]), let blur = Int(parts[2]), blur >= 0, let color = Color(parsing: parts[3]) else {
            return nil
        }
        return (x, y, blur, color)
    }

    /// Sets the theme's style, then the colours and shapes given.
    func apply(to o: inout SheetOptions) {
        var style = theme?.style ?? o.style
        if let background, let color = Color(parsing: background) { style.background = color }
        if let cardBackground, let color = Color(parsing: cardBackground) { style.cardBackground = color }
        if let cornerRadius { style.cornerRadius = cornerRadius }
        if let borderColor, let color = Color(parsing: borderColor) { style.borderColor = color }
        if let shadow, let (x, y, blur, color) = Self.parseShadow(shadow) {
            (style.shadowOffsetX, style.shadowOffsetY, style.shadowBlur, style.shadowColor) = (x, y, blur, color)
        }
        if let titleColor, let color = Color(parsing: titleColor) { style.titleColor = color }
        if let captionColor, let color = Color(parsing: captionColor) { style.captionColor = color }
        if let headerColor, let color = Color(parsing: headerColor) { style.headerColor = color }
        if let footerColor, let color = Color(parsing: footerColor) { style.footerColor = color }
        if let sectionRadius { style.sectionRadius = sectionRadius }
        o.style = style
        LengthArgument.apply([(.borderWidth, borderWidth)], to: &o)
    }
}
