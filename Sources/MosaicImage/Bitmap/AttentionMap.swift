#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Where the eye goes in an image: libvips's `smartcrop` attention (libvips 8.18,
/// `vips_smartcrop_attention`), computed the same way on a map of 32 x 32 cells, plus one
/// rule of mosaic's own that keeps a face whole.
///
/// libvips's measure: the image shrunk to 32 x 32 (each axis by its own factor) and taken
/// to CIE XYZ (Y from 0 to 100); per cell the sum of edges (five times the Laplacian of Y,
/// absolute), skin (100 less 100 times the distance of the colour's direction in XYZ from
/// (0.78, 0.57, 0.44)) and redness (CIELAB a*), the last two only where Y > 5; that sum
/// blurred with a Gaussian of sigma = max(1, the window's diagonal in cells / 10); the
/// crop is centred on the blurred map's largest cell.
///
/// That measure counts an orange space suit as skin (its direction is 0.29 from skin's, a
/// face's 0.12, grey's 0.30) and follows the suit: on the portrait astronaut its square
/// crop keeps the suit and cuts off her face. So, mosaic's rule: the largest 4-connected
/// run of cells close to skin (direction within 0.2, Y > 20, at least 8 cells) that fits
/// in the window is kept whole, the window moved as little as it takes.
struct AttentionMap {
    /// Cells across and down (32, or the image's size when smaller).
    let columns: Int
    let rows: Int
    /// Per cell, row by row: CIE XYZ, and the distance of its colour's direction from
    /// skin's (the score's skin term and the face rule's test).
    private var xyz: [(x: Double, y: Double, z: Double)]
    private var skinDistance: [Double] = []

    init(_ bitmap: Bitmap) {
        columns = max(1, min(32, bitmap.width))
        rows = max(1, min(32, bitmap.height))
        xyz = []
        xyz.reserveCapacity(columns * rows)
        bitmap.pixels.withUnsafeBufferPointer { pixels in
            for cy in 0..<rows {
                let y0 = cy * bitmap.height / rows, y1 = max(y0 + 1, (cy + 1) * bitmap.height / rows)
                let stepY = max(1, (y1 - y0) / 8)
                for cx in 0..<columns {
                    let x0 = cx * bitmap.width / columns, x1 = max(x0 + 1, (cx + 1) * bitmap.width / columns)
                    let stepX = max(1, (x1 - x0) / 8)
                    // The cell's mean colour, from at most 8 x 8 of its pixels (premultiplied:
                    // transparent counts as black, as libvips premultiplies first).
                    var r = 0, g = 0, b = 0, n = 0
                    for y in stride(from: y0, to: y1, by: stepY) {
                        var i = y * bitmap.stride + x0 * 4
                        for _ in stride(from: x0, to: x1, by: stepX) {
                            r += Int(pixels[i])
                            g += Int(pixels[i + 1])
                            b += Int(pixels[i + 2])
                            n += 1
                            i += 4 * stepX
                        }
                    }
                    let scale = 1 / (255 * Double(max(1, n)))
                    xyz.append(Self.xyz(red: Double(r) * scale, green: Double(g) * scale, blue: Double(b) * scale))
                }
            }
        }
        skinDistance = xyz.map(Self.skinDistance)
    }

    /// The crop window's top-left corner (source pixels, inside the image).
    func origin(imageWidth: Int, imageHeight: Int, windowWidth: Double, windowHeight: Double) -> (x: Double, y: Double) {
        let scaleX = Double(columns) / Double(imageWidth), scaleY = Double(rows) / Double(imageHeight)
        let sigma = max(((windowWidth * scaleX) * (windowWidth * scaleX) + (windowHeight * scaleY) * (windowHeight * scaleY)).squareRoot() / 10, 1)
        let score = Self.blurred(scores(), columns: columns, rows: rows, sigma: sigma)
        var best = 0
        for c in score.indices where score[c] > score[best] { best = c }
        let centerX = (Double(best % columns) / scaleX).rounded(.down), centerY = (Double(best / columns) / scaleY).rounded(.down)
        var left = min(max(0, centerX - (windowWidth / 2).rounded(.down)), Double(imageWidth) - windowWidth)
        var top = min(max(0, centerY - (windowHeight / 2).rounded(.down)), Double(imageHeight) - windowHeight)
        // mosaic's rule: the largest skin region that fits is kept whole.
        if let face = largestSkinRegion() {
            let lowX = Double(face.left) / scaleX, highX = Double(face.right + 1) / scaleX
            let lowY = Double(face.top) / scaleY, highY = Double(face.bottom + 1) / scaleY
            if highX - lowX <= windowWidth {
                if left > lowX { left = max(0, lowX) } else if left + windowWidth < highX { left = min(Double(imageWidth) - windowWidth, highX - windowWidth) }
            }
            if highY - lowY <= windowHeight {
                if top > lowY { top = max(0, lowY) } else if top + windowHeight < highY { top = min(Double(imageHeight) - windowHeight, highY - windowHeight) }
            }
        }
        return (max(0, left), max(0, top))
    }

    /// libvips's per-cell score before the blur: edges + skin + a*.
    private func scores() -> [Double] {
        var score = [Double](repeating: 0, count: xyz.count)
        for row in 0..<rows {
            for column in 0..<columns {
                let c = row * columns + column
                // Five times the Laplacian of Y, the edge cells copied outward.
                func luminance(_ dx: Int, _ dy: Int) -> Double {
                    xyz[min(rows - 1, max(0, row + dy)) * columns + min(columns - 1, max(0, column + dx))].y
                }
                let laplacian = 4 * xyz[c].y - luminance(-1, 0) - luminance(1, 0) - luminance(0, -1) - luminance(0, 1)
                var total = abs(5 * laplacian)
                if xyz[c].y > 5 {
                    total += 100 - 100 * skinDistance[c]
                    total += Self.labA(xyz[c])
                }
                score[c] = total
            }
        }
        return score
    }

    /// The distance of a colour's direction in XYZ from skin's.
    static func skinDistance(_ colour: (x: Double, y: Double, z: Double)) -> Double {
        let (x, y, z) = colour
        let norm = (x * x + y * y + z * z).squareRoot()
        guard norm > 0 else { return (0.78 * 0.78 + 0.57 * 0.57 + 0.44 * 0.44).squareRoot() }
        let dx = x / norm - 0.78, dy = y / norm - 0.57, dz = z / norm - 0.44
        return (dx * dx + dy * dy + dz * dz).squareRoot()
    }

    /// The bounds (in cells) of the largest 4-connected run of skin cells, when it has at
    /// least 8; ties go to the first found in row order.
    private func largestSkinRegion() -> (left: Int, top: Int, right: Int, bottom: Int)? {
        let skin = xyz.indices.map { xyz[$0].y > 20 && skinDistance[$0] < 0.2 }
        var seen = [Bool](repeating: false, count: skin.count)
        var best: (count: Int, bounds: (left: Int, top: Int, right: Int, bottom: Int))?
        for start in skin.indices where skin[start] && !seen[start] {
            var stack = [start], count = 0
            seen[start] = true
            var bounds = (left: start % columns, top: start / columns, right: start % columns, bottom: start / columns)
            while let c = stack.popLast() {
                count += 1
                let (x, y) = (c % columns, c / columns)
                bounds = (min(bounds.left, x), min(bounds.top, y), max(bounds.right, x), max(bounds.bottom, y))
                for (nx, ny) in [(x - 1, y), (x + 1, y), (x, y - 1), (x, y + 1)] where nx >= 0 && ny >= 0 && nx < columns && ny < rows {
                    let n = ny * columns + nx
                    if skin[n] && !seen[n] {
                        seen[n] = true
                        stack.append(n)
                    }
                }
            }
            if count > (best?.count ?? 0) { best = (count, bounds) }
        }
        guard let best, best.count >= 8 else { return nil }
        return best.bounds
    }

    /// sRGB (0...1) to CIE XYZ, D65, Y from 0 to 100.
    static func xyz(red: Double, green: Double, blue: Double) -> (x: Double, y: Double, z: Double) {
        func linear(_ v: Double) -> Double { v <= 0.04045 ? v / 12.92 : pow((v + 0.055) / 1.055, 2.4) }
        let r = linear(red), g = linear(green), b = linear(blue)
        return (
            100 * (0.4124 * r + 0.3576 * g + 0.1805 * b),
            100 * (0.2126 * r + 0.7152 * g + 0.0722 * b),
            100 * (0.0193 * r + 0.1192 * g + 0.9505 * b)
        )
    }

    /// CIELAB a* of an XYZ colour (D65 white).
    static func labA(_ c: (x: Double, y: Double, z: Double)) -> Double {
        func f(_ t: Double) -> Double { t > 216.0 / 24389 ? cbrt(t) : t * 24389 / 3132 + 4.0 / 29 }
        return 500 * (f(c.x / 95.047) - f(c.y / 100))
    }

    /// `values` blurred by a Gaussian of `sigma` cells (cut where it falls below 0.2 of its
    /// peak, as libvips's `gaussblur` cuts it), the edge cells copied outward.
    static func blurred(_ values: [Double], columns: Int, rows: Int, sigma: Double) -> [Double] {
        var radius = 0
        while exp(-Double((radius + 1) * (radius + 1)) / (2 * sigma * sigma)) >= 0.2 { radius += 1 }
        var weights = (-radius...radius).map { exp(-Double($0 * $0) / (2 * sigma * sigma)) }
        let total = weights.reduce(0, +)
        weights = weights.map { $0 / total }
        var across = [Double](repeating: 0, count: values.count)
        for y in 0..<rows {
            for x in 0..<columns {
                var sum = 0.0
                for k in -radius...radius { sum += weights[k + radius] * values[y * columns + min(columns - 1, max(0, x + k))] }
                across[y * columns + x] = sum
            }
        }
        var out = [Double](repeating: 0, count: values.count)
        for y in 0..<rows {
            for x in 0..<columns {
                var sum = 0.0
                for k in -radius...radius { sum += weights[k + radius] * across[min(rows - 1, max(0, y + k)) * columns + x] }
                out[y * columns + x] = sum
            }
        }
        return out
    }
}
