/// A size in whole pixels.
public struct Size: Hashable, Codable, Sendable, CustomStringConvertible {
    public var width: Int
    public var height: Int

    public init(width: Int, height: Int) {
        self.width = width
        self.height = height
    }

    public static let zero = Size(width: 0, height: 0)

    /// "WIDTHxHEIGHT".
    public var description: String { "\(width)x\(height)" }
}
