import CFreeType

/// An 8-bit coverage mask: 0 nothing, 255 fully covered. Row-major, no padding. Colour
/// glyphs (emoji) are kept apart in `colors`, painted as they are over the masked colour.
public struct CoverageMask: Hashable, Sendable {
    public let width: Int
    public let height: Int
    public var pixels: [UInt8]
    /// Premultiplied RGBA, 4 bytes a pixel, row-major; empty while no colour glyph is drawn.
    public var colors: [UInt8] = []

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

    /// Composites a `width` x `rows` block of premultiplied RGBA over the colour layer at
    /// (x, y), clipped.
    mutating func addColor(_ source: [UInt8], width sourceWidth: Int, rows: Int, x: Int, y: Int) {
        let x0 = max(0, x), y0 = max(0, y)
        let x1 = min(width, x + sourceWidth), y1 = min(height, y + rows)
        guard x0 < x1, y0 < y1 else { return }
        if colors.isEmpty { colors = [UInt8](repeating: 0, count: width * height * 4) }
        for row in y0..<y1 {
            for column in x0..<x1 {
                let s = ((row - y) * sourceWidth + column - x) * 4, d = (row * width + column) * 4
                let keep = 255 - Int(source[s + 3])
                for c in 0..<4 { colors[d + c] = UInt8(min(255, Int(source[s + c]) + (Int(colors[d + c]) * keep + 127) / 255)) }
            }
        }
    }

    /// The smallest rectangle holding every covered (or coloured) pixel: (x, y, width, height), or nil.
    public var inkBounds: (x: Int, y: Int, width: Int, height: Int)? {
        var minX = width, minY = height, maxX = -1, maxY = -1
        for y in 0..<height {
            for x in 0..<width where pixels[y * width + x] != 0 || (!colors.isEmpty && colors[(y * width + x) * 4 + 3] != 0) {
                minX = min(minX, x)
                maxX = max(maxX, x)
                minY = min(minY, y)
                maxY = max(maxY, y)
            }
        }
        return maxX < 0 ? nil : (minX, minY, maxX - minX + 1, maxY - minY + 1)
    }
}
