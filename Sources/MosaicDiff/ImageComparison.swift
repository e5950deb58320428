import MosaicImage
import MosaicLayout

/// pixelmatch (github.com/mapbox/pixelmatch), ported: a perceptual colour delta in YIQ
/// (Kotsarenko and Ramos), against `35215 * threshold^2`, with its anti-aliasing
/// detection (Vyšniauskas). Works on straight alpha, blended over white, like pixelmatch;
/// the bitmaps' premultiplied pixels are converted first.
public enum ImageComparison {
    /// The largest possible YIQ delta (black against white).
    static let maximumDelta = 35215.0

    /// Compares two bitmaps (their overlapping area when the sizes differ).
    ///
    /// - Parameter premultiplied: whether the bitmaps hold premultiplied alpha (mosaic's
    ///   usual form) or the file's straight alpha (`ImageDecoder.premultiplyAlpha = false`:
    ///   exactly pixelmatch's input, so the counts match it exactly).
    public static func compare(
        _ baseline: Bitmap, _ current: Bitmap, options: ComparisonOptions = ComparisonOptions(), premultiplied: Bool = true
    ) -> ImageDifference {
        let width = min(baseline.width, current.width)
        let height = min(baseline.height, current.height)
        let a = straight(baseline, width: width, height: height, premultiplied: premultiplied)
        let b = straight(current, width: width, height: height, premultiplied: premultiplied)
        var diffImage = Bitmap(width: width, height: height)
        let counts = diffImage.pixels.withUnsafeMutableBufferPointer { output in
            a.withUnsafeBufferPointer { img1 in
                b.withUnsafeBufferPointer { img2 in scan(img1, img2, width: width, height: height, options: options, output: output) }
            }
        }
        var mismatch: (Size, Size)? = nil
        if baseline.width != current.width || baseline.height != current.height {
            mismatch = (Size(width: baseline.width, height: baseline.height), Size(width: current.width, height: current.height))
        }
        return ImageDifference(
            differingPixels: counts.differing, antialiasedPixels: counts.antialiased, comparedPixels: counts.compared,
            bounds: counts.bounds, largestDelta: (counts.largest / maximumDelta).squareRoot(), size: Size(width: width, height: height), diffImage: diffImage, sizeMismatch: mismatch)
    }

    /// What a scan counted.
    struct Counts {
        var differing = 0, antialiased = 0, compared = 0
        var largest = 0.0
        var minX = Int.max, minY = Int.max, maxX = -1, maxY = -1

        mutating func differs(x: Int, y: Int) {
            differing += 1
            minX = min(minX, x)
            minY = min(minY, y)
            maxX = max(maxX, x)
            maxY = max(maxY, y)
        }

        var bounds: Rect? { maxX < 0 ? nil : Rect(x: minX, y: minY, width: maxX - minX + 1, height: maxY - minY + 1) }
    }

    /// pixelmatch's loop over two straight-alpha images of `width` x `height`: counts, and
    /// the diff image written into `output`.
    static func scan(
        _ img1: UnsafeBufferPointer<UInt8>, _ img2: UnsafeBufferPointer<UInt8>, width: Int, height: Int,
        options: ComparisonOptions, output: UnsafeMutableBufferPointer<UInt8>
    ) -> Counts {
        var counts = Counts()
        guard let base1 = img1.baseAddress, let base2 = img2.baseAddress else { return counts }
        let words1 = UnsafeRawPointer(base1).assumingMemoryBound(to: UInt32.self)
        let words2 = UnsafeRawPointer(base2).assumingMemoryBound(to: UInt32.self)
        let threshold = min(1, max(0, options.threshold))
        let maxDelta = maximumDelta * threshold * threshold
        let fade = min(1, max(0, options.fade))
        let checkRegions = !options.ignoreRegions.isEmpty
        for y in 0..<height {
            for x in 0..<width {
                let index = y &* width &+ x
                let pos = index &* 4
                if checkRegions && options.ignoreRegions.contains(where: { $0.contains(x: x, y: y) }) {
                    if !options.maskOnly { grey(img1, pos, fade, output) }
                    continue
                }
                counts.compared &+= 1
                // Most pixels of a regression test are identical: one word compare.
                if words1[index] == words2[index] {
                    if !options.maskOnly { grey(img1, pos, fade, output) }
                    continue
                }
                let delta = colorDelta(img1, img2, pos, pos, yOnly: false)
                counts.largest = max(counts.largest, abs(delta))
                if abs(delta) <= maxDelta {
                    if !options.maskOnly { grey(img1, pos, fade, output) }
                } else if !options.includeAntialiasing
                    && (isAntialiased(img1, x, y, width, height, img2) || isAntialiased(img2, x, y, width, height, img1))
                {
                    counts.antialiased += 1
                    if !options.maskOnly { put(output, pos, options.antialiasingColor) }
                } else {
                    counts.differs(x: x, y: y)
                    put(output, pos, options.diffColor)
                }
            }
        }
        return counts
    }

    /// The top-left `width` x `height` of a bitmap, straight alpha, as pixelmatch sees it.
    static func straight(_ bitmap: Bitmap, width: Int, height: Int, premultiplied: Bool) -> [UInt8] {
        if !premultiplied && width == bitmap.width && height == bitmap.height { return bitmap.pixels }
        var out = [UInt8](repeating: 0, count: width * height * 4)
        for y in 0..<height {
            if !premultiplied {
                let s = y * bitmap.width * 4
                out.replaceSubrange((y * width * 4)..<((y + 1) * width * 4), with: bitmap.pixels[s..<(s + width * 4)])
                continue
            }
            for x in 0..<width {
                let s = (y * bitmap.width + x) * 4, d = (y * width + x) * 4
                let alpha = bitmap.pixels[s + 3]
                out[d + 3] = alpha
                if alpha == 255 {
                    out[d] = bitmap.pixels[s]
                    out[d + 1] = bitmap.pixels[s + 1]
                    out[d + 2] = bitmap.pixels[s + 2]
                } else if alpha > 0 {
                    for c in 0..<3 { out[d + c] = unpremultiply(bitmap.pixels[s + c], alpha) }
                }
            }
        }
        return out
    }

    @inline(__always)
    static func blend(_ c: Double, _ a: Double) -> Double { 255 + (c - 255) * a }
    @inline(__always)
    static func rgb2y(_ r: Double, _ g: Double, _ b: Double) -> Double { r * 0.29889531 + g * 0.58662247 + b * 0.11448223 }
    @inline(__always)
    static func rgb2i(_ r: Double, _ g: Double, _ b: Double) -> Double { r * 0.59597799 - g * 0.27417610 - b * 0.32180189 }
    @inline(__always)
    static func rgb2q(_ r: Double, _ g: Double, _ b: Double) -> Double { r * 0.21147017 - g * 0.52261711 + b * 0.31114694 }

    /// pixelmatch's colorDelta: the squared YIQ distance, negative when the second pixel
    /// is lighter; with `yOnly`, the brightness difference alone.
    @inline(__always)
    static func colorDelta(_ img1: UnsafeBufferPointer<UInt8>, _ img2: UnsafeBufferPointer<UInt8>, _ k: Int, _ m: Int, yOnly: Bool) -> Double {
        let a1i = img1[k + 3], a2i = img2[m + 3]
        if a1i == a2i && img1[k] == img2[m] && img1[k + 1] == img2[m + 1] && img1[k + 2] == img2[m + 2] { return 0 }
        var r1 = Double(img1[k]), g1 = Double(img1[k + 1]), b1 = Double(img1[k + 2])
        var r2 = Double(img2[m]), g2 = Double(img2[m + 1]), b2 = Double(img2[m + 2])
        if a1i < 255 {
            let a1 = Double(a1i) / 255
            r1 = blend(r1, a1)
            g1 = blend(g1, a1)
            b1 = blend(b1, a1)
        }
        if a2i < 255 {
            let a2 = Double(a2i) / 255
            r2 = blend(r2, a2)
            g2 = blend(g2, a2)
            b2 = blend(b2, a2)
        }
        let y1 = rgb2y(r1, g1, b1), y2 = rgb2y(r2, g2, b2)
        let y = y1 - y2
        if yOnly { return y }
        let i = rgb2i(r1, g1, b1) - rgb2i(r2, g2, b2)
        let q = rgb2q(r1, g1, b1) - rgb2q(r2, g2, b2)
        let delta = 0.5053 * y * y + 0.299 * i * i + 0.1957 * q * q
        return y1 > y2 ? -delta : delta
    }

    /// pixelmatch's antialiased(): a pixel between a darker and a brighter neighbour, one of
    /// which sits in a flat area in both images.
    static func isAntialiased(_ img: UnsafeBufferPointer<UInt8>, _ x1: Int, _ y1: Int, _ width: Int, _ height: Int, _ img2: UnsafeBufferPointer<UInt8>) -> Bool {
        let x0 = max(x1 - 1, 0), y0 = max(y1 - 1, 0)
        let x2 = min(x1 + 1, width - 1), y2 = min(y1 + 1, height - 1)
        let pos = (y1 * width + x1) * 4
        var zeroes = (x1 == x0 || x1 == x2 || y1 == y0 || y1 == y2) ? 1 : 0
        var minimum = 0.0, maximum = 0.0
        var minX = 0, minY = 0, maxX = 0, maxY = 0
        for x in x0...x2 {
            for y in y0...y2 {
                if x == x1 && y == y1 { continue }
                let delta = colorDelta(img, img, pos, (y * width + x) * 4, yOnly: true)
                if delta == 0 {
                    zeroes += 1
                    if zeroes > 2 { return false }
                } else if delta < minimum {
                    minimum = delta
                    minX = x
                    minY = y
                } else if delta > maximum {
                    maximum = delta
                    maxX = x
                    maxY = y
                }
            }
        }
        if minimum == 0 || maximum == 0 { return false }
        return (hasManySiblings(img, minX, minY, width, height) && hasManySiblings(img2, minX, minY, width, height))
            || (hasManySiblings(img, maxX, maxY, width, height) && hasManySiblings(img2, maxX, maxY, width, height))
    }

    /// Whether a pixel has 3 or more neighbours of exactly its colour.
    static func hasManySiblings(_ img: UnsafeBufferPointer<UInt8>, _ x1: Int, _ y1: Int, _ width: Int, _ height: Int) -> Bool {
        let x0 = max(x1 - 1, 0), y0 = max(y1 - 1, 0)
        let x2 = min(x1 + 1, width - 1), y2 = min(y1 + 1, height - 1)
        let pos = (y1 * width + x1) * 4
        var zeroes = (x1 == x0 || x1 == x2 || y1 == y0 || y1 == y2) ? 1 : 0
        for x in x0...x2 {
            for y in y0...y2 {
                if x == x1 && y == y1 { continue }
                let pos2 = (y * width + x) * 4
                if img[pos] == img[pos2] && img[pos + 1] == img[pos2 + 1] && img[pos + 2] == img[pos2 + 2] && img[pos + 3] == img[pos2 + 3] {
                    zeroes += 1
                }
                if zeroes > 2 { return true }
            }
        }
        return false
    }

    @inline(__always)
    static func put(_ output: UnsafeMutableBufferPointer<UInt8>, _ pos: Int, _ color: RGBA) {
        output[pos] = color.red
        output[pos + 1] = color.green
        output[pos + 2] = color.blue
        output[pos + 3] = color.alpha
    }

    /// The baseline pixel as grey, faded towards white.
    @inline(__always)
    static func grey(_ img: UnsafeBufferPointer<UInt8>, _ pos: Int, _ fade: Double, _ output: UnsafeMutableBufferPointer<UInt8>) {
        let value = blend(rgb2y(Double(img[pos]), Double(img[pos + 1]), Double(img[pos + 2])), fade * Double(img[pos + 3]) / 255)
        let v = UInt8(min(255, max(0, value)))
        output[pos] = v
        output[pos + 1] = v
        output[pos + 2] = v
        output[pos + 3] = 255
    }
}
