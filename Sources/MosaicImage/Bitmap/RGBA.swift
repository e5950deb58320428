/// One premultiplied RGBA8 pixel.
public struct RGBA: Hashable, Sendable, CustomStringConvertible {
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

    /// Premultiplies a straight-alpha colour: each channel times alpha / 255, rounded.
    public init(straightRed red: UInt8, green: UInt8, blue: UInt8, alpha: UInt8) {
        self.init(
            red: premultiply(red, alpha), green: premultiply(green, alpha),
            blue: premultiply(blue, alpha), alpha: alpha)
    }

    public static let transparent = RGBA(red: 0, green: 0, blue: 0, alpha: 0)
    public static let black = RGBA(red: 0, green: 0, blue: 0)
    public static let white = RGBA(red: 255, green: 255, blue: 255)

    public var description: String { "rgba(\(red), \(green), \(blue), \(alpha))" }
}
