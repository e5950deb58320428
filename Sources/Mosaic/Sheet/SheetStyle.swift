/// How a sheet looks.
public struct SheetStyle: Hashable, Sendable {
    public var background: Color
    public var cardBackground: Color
    public var cornerRadius: Int
    public var borderWidth: Int
    public var borderColor: Color
    public var shadowOffsetX: Int
    public var shadowOffsetY: Int
    public var shadowBlur: Int
    public var shadowColor: Color
    public var font: FontSource
    public var captionSize: Double
    public var titleColor: Color
    public var captionColor: Color
    public var captionAlignment: TextAlignment
    public var headerSize: Double
    public var headerColor: Color
    public var footerColor: Color
    /// A section's background; nil for none.
    public var sectionBackground: Color?
    public var sectionRadius: Int
    public var sectionPadding: Int

    public static let light = SheetStyle(
        background: Color(red: 0xF3, green: 0xF4, blue: 0xF6), cardBackground: Color(red: 255, green: 255, blue: 255),
        cornerRadius: 10, borderWidth: 0, borderColor: Color(red: 0xE5, green: 0xE7, blue: 0xEB),
        shadowOffsetX: 0, shadowOffsetY: 2, shadowBlur: 8, shadowColor: Color(red: 0x11, green: 0x18, blue: 0x27, alpha: 0x30),
        font: .family("sans-serif"), captionSize: 13,
        titleColor: Color(red: 0x11, green: 0x18, blue: 0x27), captionColor: Color(red: 0x4B, green: 0x55, blue: 0x63),
        captionAlignment: .left, headerSize: 22, headerColor: Color(red: 0x11, green: 0x18, blue: 0x27),
        footerColor: Color(red: 0x6B, green: 0x72, blue: 0x80),
        sectionBackground: nil, sectionRadius: 14, sectionPadding: 12)

    public static let dark = SheetStyle(
        background: Color(red: 0x11, green: 0x13, blue: 0x18), cardBackground: Color(red: 0x1F, green: 0x23, blue: 0x2B),
        cornerRadius: 10, borderWidth: 0, borderColor: Color(red: 0x37, green: 0x41, blue: 0x51),
        shadowOffsetX: 0, shadowOffsetY: 2, shadowBlur: 8, shadowColor: Color(red: 0, green: 0, blue: 0, alpha: 0x80),
        font: .family("sans-serif"), captionSize: 13,
        titleColor: Color(red: 0xF3, green: 0xF4, blue: 0xF6), captionColor: Color(red: 0x9C, green: 0xA3, blue: 0xAF),
        captionAlignment: .left, headerSize: 22, headerColor: Color(red: 0xF9, green: 0xFA, blue: 0xFB),
        footerColor: Color(red: 0x9C, green: 0xA3, blue: 0xAF),
        sectionBackground: nil, sectionRadius: 14, sectionPadding: 12)

    /// How far a card's shadow reaches beyond its frame, pixels.
    var shadowReach: Int {
        shadowColor.alpha == 0 ? 0 : shadowBlur + max(abs(shadowOffsetX), abs(shadowOffsetY)) + 1
    }
}
