import Foundation

/// One colour, 8 bits a channel: a pixel of a `Bitmap` (premultiplied alpha there, as
/// every bitmap is) or a colour a user gives (straight alpha: a sheet's `background`, a
/// caption's colour; `premultiplied` turns it into a pixel). The sheet calls it `Color`.
public struct RGBA: Hashable, Sendable, CustomStringConvertible {
    public var red: UInt8
    public var green: UInt8
    public var blue: UInt8
    /// Opacity, 0 (transparent) ... 255 (opaque).
    public var alpha: UInt8

    /// A colour from its channels (opaque unless `alpha` is given).
    public init(red: UInt8, green: UInt8, blue: UInt8, alpha: UInt8 = 255) {
        self.red = red
        self.green = green
        self.blue = blue
        self.alpha = alpha
    }

    /// Premultiplies a straight-alpha colour: each channel times alpha / 255, rounded.
    public init(straightRed red: UInt8, green: UInt8, blue: UInt8, alpha: UInt8) {
        self.init(
            red: premultiply(red, alpha), green: premultiply(green, alpha),
            blue: premultiply(blue, alpha), alpha: alpha)
    }

    public static let transparent = RGBA(red: 0, green: 0, blue: 0, alpha: 0)
    public static let black = RGBA(red: 0, green: 0, blue: 0)
    public static let white = RGBA(red: 255, green: 255, blue: 255)

    /// This colour (straight alpha) premultiplied, for drawing.
    public var premultiplied: RGBA { RGBA(straightRed: red, green: green, blue: blue, alpha: alpha) }

    /// True when `alpha` is 255.
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
        // ASCII hex digits only: `Character.isHexDigit` also accepts fullwidth digits
        // (typed with a CJK input method), which no radix parser reads.
        let digits = value.utf8.dropFirst().map(Self.hexValue)
        guard digits.allSatisfy({ $0 != nil }) else { return nil }
        let nibbles = digits.compactMap { $0 }
        switch nibbles.count {
        case 3, 4:
            let bytes = nibbles.map { $0 << 4 | $0 }
            self.init(red: bytes[0], green: bytes[1], blue: bytes[2], alpha: nibbles.count == 4 ? bytes[3] : 255)
        case 6, 8:
            let bytes = stride(from: 0, to: nibbles.count, by: 2).map { nibbles[$0] << 4 | nibbles[$0 + 1] }
            self.init(red: bytes[0], green: bytes[1], blue: bytes[2], alpha: nibbles.count == 8 ? bytes[3] : 255)
        default:
            return nil
        }
    }

    /// The value of an ASCII hex digit (0-9, a-f, A-F), or nil.
    static func hexValue(_ byte: UInt8) -> UInt8? {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): return byte - UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): return byte - UInt8(ascii: "a") + 10
        case UInt8(ascii: "A")...UInt8(ascii: "F"): return byte - UInt8(ascii: "A") + 10
        default: return nil
        }
    }

    /// `#rrggbb`, or `#rrggbbaa` when not opaque.
    public var description: String {
        func hex(_ v: UInt8) -> String { (v < 16 ? "0" : "") + String(v, radix: 16) }
        return "#" + hex(red) + hex(green) + hex(blue) + (alpha == 255 ? "" : hex(alpha))
    }
}
