/// Edge insets in whole pixels.
public struct Insets: Hashable, Codable, Sendable {
    public var top: Int
    public var left: Int
    public var bottom: Int
    public var right: Int

    public init(top: Int = 0, left: Int = 0, bottom: Int = 0, right: Int = 0) {
        self.top = top
        self.left = left
        self.bottom = bottom
        self.right = right
    }

    /// The same inset on all four edges.
    public init(all value: Int) {
        self.init(top: value, left: value, bottom: value, right: value)
    }

    public static let zero = Insets()

    public var horizontal: Int { left + right }
    public var vertical: Int { top + bottom }
}
