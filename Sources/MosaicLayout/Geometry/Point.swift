// Integral pixel geometry: the one vocabulary of sizes and rectangles every module uses.
// Origin top-left, y grows downwards; every value is a whole pixel.

/// A point in pixels; origin top-left, y down.
public struct Point: Hashable, Codable, Sendable {
    public var x: Int
    public var y: Int

    public init(x: Int, y: Int) {
        self.x = x
        self.y = y
    }

    public static let zero = Point(x: 0, y: 0)
}
