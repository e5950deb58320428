import Foundation

/// A colour with straight (not premultiplied) alpha.
public struct Color: Hashable, Sendable, CustomStringConvertible {
    public var red: UInt8
    public var green: UInt8
    public var blue: UInt8
    public var alpha: UInt8

    public init(red: UInt8, green: UInt8, blue: UInt8, alpha: UInt8 = 255) {
        self.red = red
        self.green = green
        self.blue = blue
        self.alpha = alpha
    }

    public static let transparent = Color(red: 0, green: 0, blue: 0, alpha: 0)

    /// Premultiplied, for drawing.
    public var premultiplied: RGBA { RGBA(straightRed: red, green: green, blue: blue, alpha: alpha) }

    public var isOpaque: Bool { alpha == 255 }

    static let names: [String: (UInt8, UInt8, UInt8)] = [
        "black": (0, 0, 0), "white": (255, 255, 255), "red": (255, 0, 0), "green": (0, 128, 0), "lime": (0, 255, 0),
        "blue": (0, 0, 255), "yellow": (255, 255, 0), "cyan": (0, 255, 255), "aqua": (0, 255, 255),
        "magenta": (255, 0, 255), "fuchsia": (255, 0, 255), "gray": (128, 128, 128), "grey": (128, 128, 128),
        "silver": (192, 192, 192), "maroon": (128, 0, 0), "olive": (128, 128, 0), "purple": (128, 0, 128),
        "teal": (0, 128, 128), "navy": (0, 0, 128), "orange": (255, 165, 0), "pink": (255, 192, 203),
        "brown": (165, 42, 42), "gold": (255, 215, 0), "indigo": (75, 0, 130), "violet": (238, 130, 238),
        "whitesmoke": (245, 245, 245), "gainsboro": (220, 220, 220), "lightgray": (211, 211, 211),
        "lightgrey": (211, 211, 211), "darkgray": (169, 169, 169), "darkgrey": (169, 169, 169),
        "dimgray": (105, 105, 105), "dimgrey": (105, 105, 105), "slategray": (112, 128, 144),
        "ivory": (255, 255, 240), "beige": (245, 245, 220), "linen": (250, 240, 230), "snow": (255, 250, 250),
        "crimson": (220, 20, 60), "tomato": (255, 99, 71), "coral": (255, 127, 80), "salmon": (250, 128, 114),
        "skyblue": (135, 206, 235), "steelblue": (70, 130, 180), "royalblue": (65, 105, 225),
        "midnightblue": (25, 25, 112), "forestgreen": (34, 139, 34), "seagreen": (46, 139, 87),
        "chocolate": (210, 105, 30), "tan": (210, 180, 140), "khaki": (240, 230, 140), "lavender": (230, 230, 250),
    ]

    /// Parses `#rgb`, `#rgba`, `#rrggbb`, `#rrggbbaa`, a CSS colour name or `transparent`.
    public init?(parsing text: String) {
        let value = text.trimmingCharacters(in: .whitespaces).lowercased()
        if value == "transparent" || value == "none" {
            self = .transparent
            return
        }
        if let (r, g, b) = Self.names[value] {
            self.init(red: r, green: g, blue: b)
            return
        }
        guard value.hasPrefix("#") else { return nil }
        let hex = Array(value.dropFirst())
        guard hex.allSatisfy(\.isHexDigit) else { return nil }
        func byte(_ s: ArraySlice<Character>) -> UInt8 { UInt8(String(s), radix: 16)! }
        switch hex.count {
        case 3, 4:
            let digits = hex.map { byte([$0, $0][...]) }
            self.init(red: digits[0], green: digits[1], blue: digits[2], alpha: hex.count == 4 ? digits[3] : 255)
        case 6, 8:
            self.init(
                red: byte(hex[0..<2]), green: byte(hex[2..<4]), blue: byte(hex[4..<6]),
                alpha: hex.count == 8 ? byte(hex[6..<8]) : 255)
        default:
            return nil
        }
    }

    public var description: String {
        func hex(_ v: UInt8) -> String { (v < 16 ? "0" : "") + String(v, radix: 16) }
        return "#" + hex(red) + hex(green) + hex(blue) + (alpha == 255 ? "" : hex(alpha))
    }
}

/// What a card's caption says.
public enum CaptionMode: Hashable, Sendable, CustomStringConvertible {
    case none
    /// The file name.
    case name
    /// The file name without its extension.
    case stem
    /// The manifest's title and description; the file's stem when there is no title.
    case title
    /// A template with {name} {stem} {ext} {width} {height} {index} {section} {title}
    /// {description}; a line break ("\n") separates the title from the description.
    case template(String)

    public init(parsing text: String) {
        switch text {
        case "none": self = .none
        case "name": self = .name
        case "stem": self = .stem
        case "title": self = .title
        default: self = .template(text.replacingOccurrences(of: "\\n", with: "\n"))
        }
    }

    public var description: String {
        switch self {
        case .none: return "none"
        case .name: return "name"
        case .stem: return "stem"
        case .title: return "title"
        case .template(let t): return t
        }
    }

    /// The caption for `entry`, the `index`-th card (from 1) in section `section`.
    func caption(for entry: CatalogEntry, index: Int, section: String) -> Caption? {
        switch self {
        case .none: return nil
        case .name: return Caption(title: entry.name)
        case .stem: return Caption(title: entry.stem)
        case .title: return Caption(title: entry.title ?? entry.stem, description: entry.description ?? "")
        case .template(let template):
            var text = template
            let fields: [(String, String)] = [
                ("{name}", entry.name), ("{stem}", entry.stem), ("{ext}", entry.fileExtension),
                ("{width}", entry.info.map { String($0.orientedWidth) } ?? "?"),
                ("{height}", entry.info.map { String($0.orientedHeight) } ?? "?"),
                ("{index}", String(index)), ("{section}", section),
                ("{title}", entry.title ?? entry.stem), ("{description}", entry.description ?? ""),
            ]
            for (key, value) in fields { text = text.replacingOccurrences(of: key, with: value) }
            let parts = text.split(separator: "\n", maxSplits: 1, omittingEmptySubsequences: false)
            let caption = Caption(title: String(parts[0]), description: parts.count > 1 ? String(parts[1]) : "")
            return caption.isEmpty ? nil : caption
        }
    }
}

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

/// Everything that decides a sheet, but the inputs.
public struct SheetOptions: Hashable, Sendable {
    public var direction: Direction = .vertical
    /// The sheet's width (vertical boards).
    public var width = 1800
    /// The sheet's height (horizontal boards).
    public var height = 1200
    /// Columns, or (with `columnWidth`) derived; rows on a horizontal board.
    public var columns: Int? = nil
    public var columnWidth: Int? = nil
    public var rows = 4
    public var spacing = 16
    public var columnSpacing: Int? = nil
    public var rowSpacing: Int? = nil
    public var inset = 32
    public var padding = 8
    public var order: ItemOrder = .shortestFirst
    public var title: String? = nil
    public var maxHeight: Int? = nil
    public var maxAspect: Double? = nil
    public var caption: CaptionMode = .title
    public var captionLines = 2
    public var style: SheetStyle = .light
    public var compressionLevel = PNGWriter.defaultCompressionLevel
    public var jobs = ProcessInfo.processInfo.activeProcessorCount
    public var strict = false
    public var filter: ResamplingFilter = .lanczos3
    public var limits = ImageLimits()

    public init() {}
}
