import CFreeType

/// An 8-bit coverage mask: 0 nothing, 255 fully covered. Row-major, no padding.
public struct CoverageMask: Hashable, Sendable {
    public let width: Int
    public let height: Int
    public var pixels: [UInt8]

    public init(width: Int, height: Int) {
        self.width = max(0, width)
        self.height = max(0, height)
        pixels = [UInt8](repeating: 0, count: self.width * self.height)
    }

    public subscript(x: Int, y: Int) -> UInt8 { pixels[y * width + x] }

    /// Adds a `width` x `rows` block of coverage at (x, y), clipped, saturating.
    mutating func add(_ source: [UInt8], width sourceWidth: Int, rows: Int, x: Int, y: Int) {
        let x0 = max(0, x), y0 = max(0, y)
        let x1 = min(width, x + sourceWidth), y1 = min(height, y + rows)
        guard x0 < x1, y0 < y1 else { return }
        for row in y0..<y1 {
            let s = (row - y) * sourceWidth - x
            let d = row * width
            for column in x0..<x1 {
                let sum = Int(pixels[d + column]) + Int(source[s + column])
                pixels[d + column] = UInt8(min(255, sum))
            }
        }
    }

    /// The smallest rectangle holding every covered pixel: (x, y, width, height), or nil.
    public var inkBounds: (x: Int, y: Int, width: Int, height: Int)? {
        var minX = width, minY = height, maxX = -1, maxY = -1
        for y in 0..<height {
            for x in 0..<width where pixels[y * width + x] != 0 {
                minX = min(minX, x)
                maxX = max(maxX, x)
                minY = min(minY, y)
                maxY = max(maxY, y)
            }
        }
        return maxX < 0 ? nil : (minX, minY, maxX - minX + 1, maxY - minY + 1)
    }
}
