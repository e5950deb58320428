#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Where a crop window goes when an image is cropped to fill a frame of another shape.
public enum CropFocus: String, Sendable, Hashable, CaseIterable, Codable {
    /// The middle (what every crop did before).
    case center
    /// The most interesting place, as libvips's `smartcrop` attention defines it: edges,
    /// skin tones and saturation, weighted toward skin so that a face outweighs a bright
    /// garment.
    case attention
    /// The place of most detail: the window whose luminance histogram has the highest
    /// entropy.
    case entropy
}

extension Bitmap {
    /// The top-left corner of the `windowWidth` x `windowHeight` crop window (source
    /// pixels, within the image) that `focus` picks. The window slides along one axis only
    /// (the one the image is too long on). Computed on a map of at most 64 cells a side,
    /// so it costs little whatever the image's size; the same pixels give the same window.
    public func cropOrigin(windowWidth: Double, windowHeight: Double, focus: CropFocus) -> (x: Double, y: Double) {
        let centered = ((Double(width) - windowWidth) / 2, (Double(height) - windowHeight) / 2)
        guard focus != .center, width > 0, height > 0 else { return centered }
        let alongX = windowWidth < Double(width) - 0.5
        let alongY = windowHeight < Double(height) - 0.5
        guard alongX != alongY else { return centered }
        let map = InterestMap(self, focus: focus)
        // The window's extent in map cells, and the map's profile along the sliding axis.
        let length = alongX ? map.width : map.height
        let scale = Double(length) / Double(alongX ? width : height)
        let window = max(1, min(length, Int((alongX ? windowWidth : windowHeight) * scale + 0.5)))
        let best = map.bestWindow(alongX: alongX, window: window)
        let travel = Double(alongX ? width : height) - (alongX ? windowWidth : windowHeight)
        // The cell offset back to pixels, within the image.
        let offset = min(travel, max(0, Double(best) / scale))
        return alongX ? (offset, centered.1) : (centered.0, offset)
    }
}

/// How interesting each cell of a shrunken image is.
struct InterestMap {
    let width: Int
    let height: Int
    /// Per cell, row by row.
    var values: [Double]
    let focus: CropFocus

    init(_ bitmap: Bitmap, focus: CropFocus) {
        self.focus = focus
        let cell = max(1, (max(bitmap.width, bitmap.height) + 63) / 64)
        let step = max(1, cell / 4)
        let width = max(1, bitmap.width / cell)
        let height = max(1, bitmap.height / cell)
        self.width = width
        self.height = height
        // Box-average the image into cells (premultiplied: transparent is black).
        var red = [Double](repeating: 0, count: width * height)
        var green = red, blue = red
        bitmap.pixels.withUnsafeBufferPointer { pixels in
            // Whole cells only (width * cell <= the image's width), each sampled on a grid of
            // at most 4 x 4 pixels: a map this coarse needs no more, and it keeps the cost
            // small.
            for cy in 0..<height {
                for cx in 0..<width {
                    var r = 0, g = 0, b = 0
                    for sy in stride(from: 0, to: cell, by: step) {
                        var i = (cy * cell + sy) * bitmap.stride + cx * cell * 4
                        for _ in stride(from: 0, to: cell, by: step) {
                            r += Int(pixels[i])
                            g += Int(pixels[i + 1])
                            b += Int(pixels[i + 2])
                            i += 4 * step
                        }
                    }
                    red[cy * width + cx] = Double(r)
                    green[cy * width + cx] = Double(g)
                    blue[cy * width + cx] = Double(b)
                }
            }
        }
        let samples = (cell + step - 1) / step
        let area = Double(samples * samples) * 255
        var luma = [Double](repeating: 0, count: width * height)
        for c in luma.indices {
            red[c] /= area
            green[c] /= area
            blue[c] /= area
            luma[c] = 0.2126 * red[c] + 0.7152 * green[c] + 0.0722 * blue[c]
        }
        var values = [Double](repeating: 0, count: width * height)
        switch focus {
        case .entropy:
            values = luma
        case .attention, .center:
            for y in 0..<height {
                for x in 0..<width {
                    let c = y * width + x
                    // Edges: the Laplacian of luma.
                    var neighbours = 0.0, count = 0.0
                    if x > 0 { neighbours += luma[c - 1]; count += 1 }
                    if x + 1 < width { neighbours += luma[c + 1]; count += 1 }
                    if y > 0 { neighbours += luma[c - width]; count += 1 }
                    if y + 1 < height { neighbours += luma[c + width]; count += 1 }
                    let edge = count > 0 ? abs(luma[c] * count - neighbours) / count : 0
                    // Skin: the colour's direction near (0.78, 0.57, 0.44), as libvips
                    // takes it, in mid-tones.
                    let norm = (red[c] * red[c] + green[c] * green[c] + blue[c] * blue[c]).squareRoot()
                    var skin = 0.0
                    if norm > 0, luma[c] > 0.15, luma[c] < 0.95 {
                        let dr = red[c] / norm - 0.78, dg = green[c] / norm - 0.57, db = blue[c] / norm - 0.44
                        skin = max(0, 1 - (dr * dr + dg * dg + db * db).squareRoot() / 0.2)
                    }
                    // Saturation, in mid-tones.
                    let high = max(red[c], green[c], blue[c]), low = min(red[c], green[c], blue[c])
                    let saturation = high > 0.1 ? (high - low) / high : 0
                    let interest = 2 * edge + 3 * skin * skin + 0.15 * saturation * saturation
                    // To the power 1.5, so that a window is drawn to the most interesting places
                    // rather than to a wide area of middling interest.
                    values[c] = interest * interest.squareRoot()
                }
            }
        }
        self.values = values
    }

    /// The start (in cells) of the `window`-cell run along the axis with the most
    /// interest: attention sums the cells, entropy takes the luminance histogram's
    /// entropy. Ties go to the run nearest the middle.
    func bestWindow(alongX: Bool, window: Int) -> Int {
        let length = alongX ? width : height, across = alongX ? height : width
        let positions = max(1, length - window + 1)
        // Attention: each line's sum across, once; a window's sum is then a difference of
        // running sums.
        var running = [Double](repeating: 0, count: length + 1)
        if focus != .entropy {
            for i in 0..<length {
                var line = 0.0
                for j in 0..<across { line += values[alongX ? j * width + i : i * width + j] }
                running[i + 1] = running[i] + line
            }
        }
        var best = (positions - 1) / 2, bestScore = -Double.infinity
        let middle = Double(length - window) / 2
        for start in 0..<positions {
            var score = 0.0
            if focus == .entropy {
                var histogram = [Double](repeating: 0, count: 32)
                for i in start..<(start + window) {
                    for j in 0..<across {
                        let v = values[alongX ? j * width + i : i * width + j]
                        histogram[min(31, Int(v * 32))] += 1
                    }
                }
                let total = Double(window * across)
                for count in histogram where count > 0 {
                    let p = count / total
                    score -= p * log2(p)
                }
            } else {
                score = running[min(length, start + window)] - running[start]
            }
            let nearer = abs(Double(start) - middle) < abs(Double(best) - middle)
            if score > bestScore + 1e-9 || (abs(score - bestScore) <= 1e-9 && nearer) {
                best = start
                bestScore = score
            }
        }
        return best
    }
}
