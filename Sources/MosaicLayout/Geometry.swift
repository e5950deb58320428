// Integral pixel geometry. Origin top-left, y grows downwards; every value is a whole pixel.

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

/// A size in whole pixels.
public struct Size: Hashable, Codable, Sendable {
    public var width: Int
    public var height: Int

    public init(width: Int, height: Int) {
        self.width = width
        self.height = height
    }

    public static let zero = Size(width: 0, height: 0)
}

/// A rectangle in whole pixels: `origin` is its top-left corner, `size` never negative
/// when produced by this module.
public struct Rect: Hashable, Codable, Sendable, CustomStringConvertible {
    public var origin: Point
    public var size: Size

    public init(origin: Point, size: Size) {
        self.origin = origin
        self.size = size
    }

    public init(x: Int, y: Int, width: Int, height: Int) {
        self.origin = Point(x: x, y: y)
        self.size = Size(width: width, height: height)
    }

    public static let zero = Rect(x: 0, y: 0, width: 0, height: 0)

    public var minX: Int { origin.x }
    public var minY: Int { origin.y }
    public var maxX: Int { origin.x + size.width }
    public var maxY: Int { origin.y + size.height }
    public var width: Int { size.width }
    public var height: Int { size.height }
    public var isEmpty: Bool { size.width <= 0 || size.height <= 0 }

    /// True when the two rectangles share at least one pixel (touching edges do not count).
    public func intersects(_ other: Rect) -> Bool {
        minX < other.maxX && other.minX < maxX && minY < other.maxY && other.minY < maxY
    }

    /// True when `other` lies entirely inside this rectangle (edges included).
    public func contains(_ other: Rect) -> Bool {
        other.minX >= minX && other.maxX <= maxX && other.minY >= minY && other.maxY <= maxY
    }

    /// The rectangle shrunk by `insets` (the size never goes below zero).
    public func inset(by insets: Insets) -> Rect {
        Rect(
            x: minX + insets.left, y: minY + insets.top,
            width: max(0, width - insets.left - insets.right),
            height: max(0, height - insets.top - insets.bottom))
    }

    public var description: String { "(\(minX), \(minY), \(width)x\(height))" }
}

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

/// Rounds half away from zero, as `Double.rounded()` does, to a whole pixel. Written out
/// because `rounded()` calls libm's `round`, which an executable linking only this module
/// does not get on Linux. `value` must be finite and below 2^52 in magnitude.
@inline(__always)
func roundedPixels(_ value: Double) -> Int {
    let whole = Int(value)  // truncates toward zero
    let fraction = value - Double(whole)  // exact below 2^52
    if fraction >= 0.5 { return whole + 1 }
    if fraction <= -0.5 { return whole - 1 }
    return whole
}

/// The largest rectangle of the given aspect ratio that fits inside `rect`, centred:
/// the equivalent of AVFoundation's `AVMakeRect(aspectRatio:insideRect:)`, in whole pixels.
///
/// - Parameters:
///   - aspectRatio: any size whose width / height is the wanted ratio (pixels or not);
///     both must be finite and positive, otherwise the result is `rect` itself.
///   - rect: the bounding rectangle.
/// - Returns: a rectangle inside `rect`, with the fitted dimension rounded to the nearest
///   pixel (at least 1 when `rect` is not empty) and the free space split evenly (the odd
///   pixel goes after).
public func aspectFit(aspectRatio: (width: Double, height: Double), insideRect rect: Rect) -> Rect {
    let (w, h) = aspectRatio
    guard w.isFinite, h.isFinite, w > 0, h > 0, !rect.isEmpty else { return rect }
    let scale = Swift.min(Double(rect.width) / w, Double(rect.height) / h)
    let fittedWidth = Swift.min(rect.width, Swift.max(1, roundedPixels(w * scale)))
    let fittedHeight = Swift.min(rect.height, Swift.max(1, roundedPixels(h * scale)))
    return Rect(
        x: rect.minX + (rect.width - fittedWidth) / 2,
        y: rect.minY + (rect.height - fittedHeight) / 2,
        width: fittedWidth, height: fittedHeight)
}

/// The smallest rectangle of the given aspect ratio that covers `rect`, centred on it
/// (it overhangs `rect` on one axis): what "crop to fill" scales an image to.
///
/// - Returns: `rect` itself when the ratio is not finite and positive or `rect` is empty.
public func aspectFill(aspectRatio: (width: Double, height: Double), coveringRect rect: Rect) -> Rect {
    let (w, h) = aspectRatio
    guard w.isFinite, h.isFinite, w > 0, h > 0, !rect.isEmpty else { return rect }
    let scale = Swift.max(Double(rect.width) / w, Double(rect.height) / h)
    let filledWidth = Swift.max(rect.width, roundedPixels(w * scale))
    let filledHeight = Swift.max(rect.height, roundedPixels(h * scale))
    return Rect(
        x: rect.minX - (filledWidth - rect.width) / 2,
        y: rect.minY - (filledHeight - rect.height) / 2,
        width: filledWidth, height: filledHeight)
}
