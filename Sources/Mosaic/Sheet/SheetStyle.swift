/// How a sheet looks.
public struct SheetStyle: Hashable, Sendable {
    /// The sheet's background (transparent makes an RGBA PNG).
    public var background: Color
    /// Behind each card's image and caption.
    public var cardBackground: Color
    /// The cards' corner radius, pixels.
    public var cornerRadius: Int
    /// The cards' border, pixels (0: none).
    public var borderWidth: Int
    /// The border's colour.
    public var borderColor: Color
    /// The shadow's offset across, pixels.
    public var shadowOffsetX: Int
    /// The shadow's offset down, pixels.
    public var shadowOffsetY: Int
    /// The shadow's blur radius, pixels.
    public var shadowBlur: Int
    /// The shadow's colour (transparent: no shadow).
    public var shadowColor: Color
    /// The font of captions, headers and footers (a family or a file).
    public var font: FontSource
    /// The caption size in pixels (titles 1 px larger, descriptions 1 px smaller).
    public var captionSize: Double
    /// The caption title's colour.
    public var titleColor: Color
    /// The caption description's colour.
    public var captionColor: Color
    /// How captions are aligned in their card (`start`: left, or right in a right-to-left
    /// paragraph).
    public var captionAlignment: TextAlignment
    /// The base direction of every caption, header, footer and title paragraph (`auto`:
    /// from its first strong character).
    public var textDirection: TextDirection = .auto
    /// Section headers' size in pixels (bold).
    public var headerSize: Double
    /// Section headers' colour.
    public var headerColor: Color
    /// Section footers' colour.
    public var footerColor: Color
    /// A section's background; nil for none.
    public var sectionBackground: Color?
    /// The corner radius of section backgrounds, pixels.
    public var sectionRadius: Int
    /// Padding inside section backgrounds, pixels.
    public var sectionPadding: Int

    /// Light grey sheet, white cards, a soft shadow.
    public static let light = SheetStyle(
        background: Color(red: 0xF3, green: 0xF4, blue: 0xF6), cardBackground: Color(red: 255, green: 255, blue: 255),
        cornerRadius: 10, borderWidth: 0, borderColor: Color(red: 0xE5, green: 0xE7, blue: 0xEB),
        shadowOffsetX: 0, shadowOffsetY: 2, shadowBlur: 8, shadowColor: Color(red: 0x11, green: 0x18, blue: 0x27, alpha: 0x30),
        font: .family(FontSource.defaultFamily), captionSize: 13,
        titleColor: Color(red: 0x11, green: 0x18, blue: 0x27), captionColor: Color(red: 0x4B, green: 0x55, blue: 0x63),
        captionAlignment: .start, headerSize: 22, headerColor: Color(red: 0x11, green: 0x18, blue: 0x27),
        footerColor: Color(red: 0x6B, green: 0x72, blue: 0x80),
        sectionBackground: nil, sectionRadius: 14, sectionPadding: 12)

    /// Near-black sheet, dark cards, a deeper shadow.
    public static let dark = SheetStyle(
        background: Color(red: 0x11, green: 0x13, blue: 0x18), cardBackground: Color(red: 0x1F, green: 0x23, blue: 0x2B),
        cornerRadius: 10, borderWidth: 0, borderColor: Color(red: 0x37, green: 0x41, blue: 0x51),
        shadowOffsetX: 0, shadowOffsetY: 2, shadowBlur: 8, shadowColor: Color(red: 0, green: 0, blue: 0, alpha: 0x80),
        font: .family(FontSource.defaultFamily), captionSize: 13,
        titleColor: Color(red: 0xF3, green: 0xF4, blue: 0xF6), captionColor: Color(red: 0x9C, green: 0xA3, blue: 0xAF),
        captionAlignment: .start, headerSize: 22, headerColor: Color(red: 0xF9, green: 0xFA, blue: 0xFB),
        footerColor: Color(red: 0x9C, green: 0xA3, blue: 0xAF),
        sectionBackground: nil, sectionRadius: 14, sectionPadding: 12)

    /// For paper (a PDF's default): white paper and cards, no shadow, no border, square
    /// corners, near-black text, no section background unless one is asked for. Its sizes
    /// in points and millimetres are `SheetOptions.printed`'s.
    public static let print = SheetStyle(
        background: Color(red: 255, green: 255, blue: 255), cardBackground: Color(red: 255, green: 255, blue: 255),
        cornerRadius: 0, borderWidth: 0, borderColor: Color(red: 0xD1, green: 0xD5, blue: 0xDB),
        shadowOffsetX: 0, shadowOffsetY: 0, shadowBlur: 0, shadowColor: .transparent,
        font: .family(FontSource.defaultFamily), captionSize: 13,
        titleColor: Color(red: 0x11, green: 0x11, blue: 0x11), captionColor: Color(red: 0x44, green: 0x44, blue: 0x44),
        captionAlignment: .start, headerSize: 22, headerColor: Color(red: 0x11, green: 0x11, blue: 0x11),
        footerColor: Color(red: 0x55, green: 0x55, blue: 0x55),
        sectionBackground: nil, sectionRadius: 0, sectionPadding: 12)

    /// How far a card's shadow reaches beyond its frame, pixels.
    var shadowReach: Int {
        shadowColor.alpha == 0 ? 0 : shadowBlur + max(abs(shadowOffsetX), abs(shadowOffsetY)) + 1
    }
}
