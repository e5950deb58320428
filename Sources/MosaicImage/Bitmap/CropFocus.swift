#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Where a crop window goes when an image is cropped to fill a frame of another shape.
public enum CropFocus: String, Sendable, Hashable, CaseIterable, Codable {
    /// The middle (what every crop did before).
    case center
    /// The most interesting place, as libvips's `smartcrop` attention defines it (edges,
    /// skin tones and redness; `AttentionMap`), and a face that fits the window kept whole.
    case attention
    /// The place of most detail: the window whose luminance histogram has the highest
    /// entropy.
    case entropy
}

extension Bitmap {
    /// The top-left corner of the `windowWidth` x `windowHeight` crop window (source
    /// pixels, within the image) that `focus` picks. The window slides along one axis only
    /// (the one the image is too long on). Computed on a map of at most 32 (attention) or 64
    /// (entropy) cells a side, so it costs little whatever the image's size; the same pixels give the same window.
    public func cropOrigin(windowWidth: Double, windowHeight: Double, focus: CropFocus) -> (x: Double, y: Double) {
        let centered = ((Double(width) - windowWidth) / 2, (Double(height) - windowHeight) / 2)
        guard focus != .center, width > 0, height > 0 else { return centered }
        let alongX = windowWidth < Double(width) - 0.5
        let alongY = windowHeight < Double(height) - 0.5
        guard alongX != alongY else { return centered }
        if focus == .attention {
            let origin = AttentionMap(self).origin(imageWidth: width, imageHeight: height, windowWidth: windowWidth, windowHeight: windowHeight)
            return alongX ? (origin.x, centered.1) : (centered.0, origin.y)
        }
        let map = LuminanceMap(self)
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

/// The luminance of each cell of a shrunken image, for the entropy crop.
struct LuminanceMap {
    let width: Int
    let height: Int
    /// Per cell, row by row, from 0 to 1.
    let values: [Double]

    init(_ bitmap: Bitmap) {
        // A square cell of 1/64 of the longer side; on a strip more than 64 times longer
        // than it is thick the cell is cut to the short side (5000 x 10: 79 x 10 pixels),
        // so that a cell never reaches past the image.
        let cell = max(1, (max(bitmap.width, bitmap.height) + 63) / 64)
        let cellWidth = max(1, min(cell, bitmap.width)), cellHeight = max(1, min(cell, bitmap.height))
        let step = max(1, cell / 4)
        let stepX = min(step, cellWidth), stepY = min(step, cellHeight)
        let width = max(1, bitmap.width / cellWidth)
        let height = max(1, bitmap.height / cellHeight)
        self.width = width
        self.height = height
        let area = Double(((cellWidth + stepX - 1) / stepX) * ((cellHeight + stepY - 1) / stepY)) * 255
        var values = [Double](repeating: 0, count: width * height)
        guard bitmap.width > 0, bitmap.height > 0, bitmap.pixels.count >= bitmap.height * bitmap.stride else {
            self.values = values
            return
        }
        bitmap.pixels.withUnsafeBufferPointer { pixels in
            // Box-average the image into cells (premultiplied: transparent is black): whole
            // cells only (width * cellWidth <= the image's width, height * cellHeight <= its
            // height), each sampled on a grid of at most 4 x 4 pixels: a map this coarse
            // needs no more, and it keeps the cost small.
            for cy in 0..<height {
                for cx in 0..<width {
                    var r = 0, g = 0, b = 0
                    for sy in stride(from: 0, to: cellHeight, by: stepY) {
                        var i = (cy * cellHeight + sy) * bitmap.stride + cx * cellWidth * 4
                        for _ in stride(from: 0, to: cellWidth, by: stepX) {
                            r += Int(pixels[i])
                            g += Int(pixels[i + 1])
                            b += Int(pixels[i + 2])
                            i += 4 * stepX
                        }
                    }
                    values[cy * width + cx] = (0.2126 * Double(r) + 0.7152 * Double(g) + 0.0722 * Double(b)) / area
                }
            }
        }
        self.values = values
    }

    /// The start (in cells) of the `window`-cell run along the axis whose luminance
    /// histogram has the highest entropy. Ties go to the run nearest the middle.
    func bestWindow(alongX: Bool, window: Int) -> Int {
        let length = alongX ? width : height, across = alongX ? height : width
        let positions = max(1, length - window + 1)
        var best = (positions - 1) / 2, bestScore = -Double.infinity
        let middle = Double(length - window) / 2
        for start in 0..<positions {
            var histogram = [Double](repeating: 0, count: 32)
            for i in start..<(start + window) {
                for j in 0..<across {
                    let v = values[alongX ? j * width + i : i * width + j]
                    histogram[min(31, Int(v * 32))] += 1
                }
            }
            let total = Double(window * across)
            var score = 0.0
            for count in histogram where count > 0 {
                let p = count / total
                score -= p * log2(p)
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
