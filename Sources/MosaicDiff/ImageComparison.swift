import Foundation
import MosaicImage
import MosaicLayout

/// pixelmatch (github.com/mapbox/pixelmatch), ported: a perceptual colour delta in YIQ
/// (Kotsarenko and Ramos), against `35215 * threshold^2`, with its anti-aliasing
/// detection (Vyšniauskas). Works on straight alpha, blended over white, like pixelmatch;
/// the bitmaps' premultiplied pixels are converted first. The differing pixels are grouped
/// into regions as they are found (`RegionGrid`); in SSIM mode the pair is scored too
/// (`StructuralSimilarity`).
public enum ImageComparison {
    /// The largest possible YIQ delta (black against white).
    static let maximumDelta = 35215.0

    /// Compares two bitmaps (their overlapping area when the sizes differ).
    ///
    /// - Parameter premultiplied: whether the bitmaps hold premultiplied alpha (mosaic's
    ///   usual form) or the file's straight alpha (`ImageDecoder.premultiplyAlpha = false`:
    ///   exactly pixelmatch's input, so the counts match it exactly).
    ///
    /// With `options.align`, a pair that differs is also compared aligned
    /// (`PageAlignment`): its regions are then the aligned comparison's, each with its
    /// `change`, and `alignment`, `alignedDifferingPixels` are set; the pixelmatch counts
    /// (`differingPixels`, `antialiasedPixels`, `bounds`, `largestDelta`) stay the
    /// unaligned comparison's. Metric scores (SSIM, FLIP) are then the aligned pair's.
    public static func compare(
        _ baseline: Bitmap, _ current: Bitmap, options: ComparisonOptions = ComparisonOptions(), premultiplied: Bool = true,
        diffImage makeDiffImage: Bool = true
    ) -> ImageDifference {
        let width = min(baseline.width, current.width)
        let height = min(baseline.height, current.height)
        var options = options
        let ignore = options.ignoreRegions
        options.ignoreRegions = clipped(ignore, width: width, height: height)
        // Straight-alpha inputs are read in place (rows of their own stride when the sizes
        // differ); premultiplied ones are converted first (whole when aligning, which reads
        // past the overlap).
        let a = premultiplied ? straight(baseline, width: options.align ? baseline.width : width, height: options.align ? baseline.height : height) : baseline.pixels
        let b = premultiplied ? straight(current, width: options.align ? current.width : width, height: options.align ? current.height : height) : current.pixels
        let strideA = premultiplied && !options.align ? width * 4 : baseline.width * 4
        let strideB = premultiplied && !options.align ? width * 4 : current.width * 4
        var mismatch: (Size, Size)? = nil
        if baseline.width != current.width || baseline.height != current.height {
            mismatch = (Size(width: baseline.width, height: baseline.height), Size(width: current.width, height: current.height))
        }
        var difference = a.withUnsafeBufferPointer { img1 in
            b.withUnsafeBufferPointer { img2 -> ImageDifference in
                guard let base1 = img1.baseAddress, let base2 = img2.baseAddress else {
                    return ImageDifference(
                        differingPixels: 0, antialiasedPixels: 0, comparedPixels: 0, bounds: nil, largestDelta: 0,
                        size: Size(width: width, height: height), diffImage: makeDiffImage ? Bitmap(width: width, height: height) : nil, sizeMismatch: mismatch)
                }
                let p1 = Plane(base: base1, stride: strideA), p2 = Plane(base: base2, stride: strideB)
                let plain = measure(p1, p2, width: width, height: height, options: options, diffImage: makeDiffImage)
                var difference = ImageDifference(
                    differingPixels: plain.counts.differing, antialiasedPixels: plain.counts.antialiased, comparedPixels: plain.counts.compared,
                    bounds: plain.counts.bounds, regions: Array(plain.regions.prefix(RegionGrid.listed)), regionCount: plain.regions.count,
                    ssim: plain.ssim, lowestRegionSSIM: plain.regions.compactMap(\.ssim).min(),
                    largestDelta: (plain.counts.largest / maximumDelta).squareRoot(), size: Size(width: width, height: height),
                    diffImage: plain.diffImage, sizeMismatch: mismatch)
                difference.setScores(plain.regions, flip: plain.flip)
                if options.align && (mismatch != nil || plain.counts.differing > 0 || plain.counts.antialiased > 0) {
                    var alignedOptions = options
                    alignedOptions.ignoreRegions = ignore
                    AlignedComparison.compare(
                        p1, Size(width: baseline.width, height: baseline.height), p2, Size(width: current.width, height: current.height),
                        options: alignedOptions, plain: plain, diffImage: makeDiffImage, into: &difference)
                }
                return difference
            }
        }
        if difference.diffImage == nil && makeDiffImage { difference.diffImage = Bitmap(width: width, height: height) }
        return difference
    }

    /// What one pass over a pair of planes found.
    struct Measured {
        var counts: Counts
        /// Every region, largest first, with the metric's scores.
        var regions: [ChangedRegion]
        var ssim: Double?
        var flip: Double?
        var diffImage: Bitmap?
    }

    /// pixelmatch's scan of `width` x `height` of two planes, its regions, and the metric's
    /// scores (SSIM with each region's colour shift, or FLIP).
    static func measure(_ p1: Plane, _ p2: Plane, width: Int, height: Int, options: ComparisonOptions, diffImage makeDiffImage: Bool) -> Measured {
        var diffImage = makeDiffImage ? Bitmap(width: width, height: height) : nil
        var counts: Counts
        if diffImage == nil {
            counts = scan(p1, p2, width: width, height: height, options: options, output: nil)
        } else {
            counts = diffImage!.pixels.withUnsafeMutableBufferPointer { output in
                scan(p1, p2, width: width, height: height, options: options, output: output.baseAddress)
            }
        }
        var regions = counts.grid.regions()
        var ssim: Double?, flip: Double?
        switch options.metric {
        case .pixelmatch:
            break
        case .ssim:
            ssim = StructuralSimilarity.score(
                p1, p2, width: width, height: height, ignore: options.ignoreRegions, changed: counts.changedTiles, regions: &regions)
            ColourShift.measure(p1, p2, regions: &regions)
        case .flip:
            let map = FLIPMetric.map(p1, p2, width: width, height: height, ignore: options.ignoreRegions, changed: counts.changedTiles)
            flip = map.mean
            map.score(&regions)
            if makeDiffImage { diffImage = map.image() }
        }
        return Measured(counts: counts, regions: regions, ssim: ssim, flip: flip, diffImage: diffImage)
    }

    /// The parts of `rects` inside a `width` x `height` image, empty ones dropped: no
    /// rectangle's edge overflows (before, `--ignore 5,5,9223372036854775807,10` trapped).
    static func clipped(_ rects: [Rect], width: Int, height: Int) -> [Rect] {
        rects.compactMap { rect in
            let right = rect.minX.addingReportingOverflow(rect.width), bottom = rect.minY.addingReportingOverflow(rect.height)
            let x0 = max(0, rect.minX), y0 = max(0, rect.minY)
            let x1 = right.overflow ? width : min(width, right.partialValue), y1 = bottom.overflow ? height : min(height, bottom.partialValue)
            return x0 < x1 && y0 < y1 ? Rect(x: x0, y: y0, width: x1 - x0, height: y1 - y0) : nil
        }
    }

    /// What a scan counted.
    struct Counts {
        var differing = 0, antialiased = 0, compared = 0
        var largest = 0.0
        var minX = Int.max, minY = Int.max, maxX = -1, maxY = -1
        /// The differing pixels, for their regions.
        var grid: RegionGrid
        /// SSIM mode: the tiles where bytes differ.
        var changedTiles: StructuralSimilarity.ChangedTiles

        init(width: Int, height: Int, metric: DiffMetric) {
            grid = RegionGrid(width: width)
            changedTiles = StructuralSimilarity.ChangedTiles(width: width, height: height, tracking: metric != .pixelmatch)
        }

        @inline(__always)
        mutating func differs(x: Int, y: Int, delta: Double) {
            grid.add(x: x, y: y, delta: delta)
            differing += 1
            minX = min(minX, x)
            minY = min(minY, y)
            maxX = max(maxX, x)
            maxY = max(maxY, y)
        }

        var bounds: Rect? { maxX < 0 ? nil : Rect(x: minX, y: minY, width: maxX - minX + 1, height: maxY - minY + 1) }
    }

    /// Straight-alpha RGBA8 pixels: the first byte and the bytes from one row to the next.
    struct Plane {
        let base: UnsafePointer<UInt8>
        let stride: Int

        @inline(__always) func offset(_ x: Int, _ y: Int) -> Int { y &* stride &+ x &* 4 }
        @inline(__always) subscript(_ i: Int) -> UInt8 { base[i] }
    }

    /// pixelmatch's loop over two straight-alpha images of `width` x `height`: counts, and
    /// the diff image (`width` x `height`, packed) written into `output` when given.
    ///
    /// Identical stretches cost no colour math: a row equal in both images (and not cut by
    /// an ignored region) is one `memcmp`, and inside a row that differs equal pixels are
    /// skipped two at a time by 8-byte compares; the YIQ delta (pixelmatch's Double
    /// arithmetic, unchanged) and the anti-aliasing check run only where a pixel differs.
    static func scan(
        _ img1: Plane, _ img2: Plane, width: Int, height: Int, options: ComparisonOptions, output: UnsafeMutablePointer<UInt8>?
    ) -> Counts {
        var counts = Counts(width: width, height: height, metric: options.metric)
        let tracking = options.metric != .pixelmatch
        let threshold = min(1, max(0, options.threshold))
        let maxDelta = maximumDelta * threshold * threshold
        let fade = min(1, max(0, options.fade))
        let rowBytes = width &* 4
        for y in 0..<height {
            let row1 = img1.base + img1.offset(0, y), row2 = img2.base + img2.offset(0, y)
            let marks = output.map { $0 + y &* rowBytes }
            let greyOut = options.maskOnly ? nil : marks
            let regions = options.ignoreRegions.filter { $0.minY <= y && y < $0.maxY && $0.width > 0 }
            if regions.isEmpty && memcmp(row1, row2, rowBytes) == 0 {
                counts.compared &+= width
                if let out = greyOut { greyRow(row1, width, fade, out) }
                continue
            }
            var x = 0
            while x < width {
                if regions.contains(where: { $0.minX <= x && x < $0.maxX }) {
                    if let out = greyOut { grey(row1 + x &* 4, fade, out + x &* 4) }
                    x &+= 1
                    continue
                }
                // Two equal pixels at once where both are compared.
                if regions.isEmpty && x &+ 1 < width
                    && UnsafeRawPointer(row1 + x &* 4).loadUnaligned(as: UInt64.self) == UnsafeRawPointer(row2 + x &* 4).loadUnaligned(as: UInt64.self)
                {
                    counts.compared &+= 2
                    if let out = greyOut {
                        greyRow(row1 + x &* 4, 2, fade, out + x &* 4)
                    }
                    x &+= 2
                    continue
                }
                counts.compared &+= 1
                let p1 = row1 + x &* 4, p2 = row2 + x &* 4
                if UnsafeRawPointer(p1).loadUnaligned(as: UInt32.self) == UnsafeRawPointer(p2).loadUnaligned(as: UInt32.self) {
                    if let out = greyOut { grey(p1, fade, out + x &* 4) }
                    x &+= 1
                    continue
                }
                if tracking { counts.changedTiles.set(x: x, y: y) }
                let delta = colorDelta(img1, img2, img1.offset(x, y), img2.offset(x, y), yOnly: false)
                counts.largest = max(counts.largest, abs(delta))
                if abs(delta) <= maxDelta {
                    if let out = greyOut { grey(p1, fade, out + x &* 4) }
                } else if !options.includeAntialiasing
                    && (isAntialiased(img1, x, y, width, height, img2) || isAntialiased(img2, x, y, width, height, img1))
                {
                    counts.antialiased += 1
                    if let out = greyOut { put(out + x &* 4, options.antialiasingColor) }
                } else {
                    counts.differs(x: x, y: y, delta: abs(delta))
                    if let out = marks { put(out + x &* 4, options.diffColor) }
                }
                x &+= 1
            }
        }
        return counts
    }

    /// The top-left `width` x `height` of a premultiplied bitmap, straight alpha, as
    /// pixelmatch sees it.
    static func straight(_ bitmap: Bitmap, width: Int, height: Int) -> [UInt8] {
        let count = width * height * 4
        guard count > 0 else { return [] }
        return [UInt8](unsafeUninitializedCapacity: count) { out, initialized in
            bitmap.pixels.withUnsafeBufferPointer { source in
                guard let from = source.baseAddress, let to = out.baseAddress else { return }
                for y in 0..<height {
                    let s = from + y &* bitmap.width &* 4, d = to + y &* width &* 4
                    for x in 0..<width {
                        let p = s + x &* 4, q = d + x &* 4
                        let alpha = p[3]
                        if alpha == 255 {
                            UnsafeMutableRawPointer(q).storeBytes(of: UnsafeRawPointer(p).loadUnaligned(as: UInt32.self), as: UInt32.self)
                        } else if alpha == 0 {
                            UnsafeMutableRawPointer(q).storeBytes(of: 0, as: UInt32.self)
                        } else {
                            for c in 0..<3 { q[c] = unpremultiply(p[c], alpha) }
                            q[3] = alpha
                        }
                    }
                }
            }
            initialized = count
        }
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
    static func colorDelta(_ img1: Plane, _ img2: Plane, _ k: Int, _ m: Int, yOnly: Bool) -> Double {
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
    static func isAntialiased(_ img: Plane, _ x1: Int, _ y1: Int, _ width: Int, _ height: Int, _ img2: Plane) -> Bool {
        let x0 = max(x1 - 1, 0), y0 = max(y1 - 1, 0)
        let x2 = min(x1 + 1, width - 1), y2 = min(y1 + 1, height - 1)
        let pos = img.offset(x1, y1)
        var zeroes = (x1 == x0 || x1 == x2 || y1 == y0 || y1 == y2) ? 1 : 0
        var minimum = 0.0, maximum = 0.0
        var minX = 0, minY = 0, maxX = 0, maxY = 0
        for x in x0...x2 {
            for y in y0...y2 {
                if x == x1 && y == y1 { continue }
                let delta = colorDelta(img, img, pos, img.offset(x, y), yOnly: true)
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
    static func hasManySiblings(_ img: Plane, _ x1: Int, _ y1: Int, _ width: Int, _ height: Int) -> Bool {
        let x0 = max(x1 - 1, 0), y0 = max(y1 - 1, 0)
        let x2 = min(x1 + 1, width - 1), y2 = min(y1 + 1, height - 1)
        let pixel = UnsafeRawPointer(img.base + img.offset(x1, y1)).loadUnaligned(as: UInt32.self)
        var zeroes = (x1 == x0 || x1 == x2 || y1 == y0 || y1 == y2) ? 1 : 0
        for x in x0...x2 {
            for y in y0...y2 {
                if x == x1 && y == y1 { continue }
                if UnsafeRawPointer(img.base + img.offset(x, y)).loadUnaligned(as: UInt32.self) == pixel { zeroes += 1 }
                if zeroes > 2 { return true }
            }
        }
        return false
    }

    @inline(__always)
    static func put(_ output: UnsafeMutablePointer<UInt8>, _ color: RGBA) {
        output[0] = color.red
        output[1] = color.green
        output[2] = color.blue
        output[3] = color.alpha
    }

    /// The baseline pixel as grey, faded towards white.
    @inline(__always)
    static func grey(_ pixel: UnsafePointer<UInt8>, _ fade: Double, _ output: UnsafeMutablePointer<UInt8>) {
        let value = blend(rgb2y(Double(pixel[0]), Double(pixel[1]), Double(pixel[2])), fade * Double(pixel[3]) / 255)
        let v = UInt8(min(255, max(0, value)))
        output[0] = v
        output[1] = v
        output[2] = v
        output[3] = 255
    }

    /// `count` baseline pixels as grey (`grey` for each): a pixel equal to the one before
    /// it (a page's flat background, a rule) takes that one's grey without the arithmetic.
    static func greyRow(_ pixels: UnsafePointer<UInt8>, _ count: Int, _ fade: Double, _ output: UnsafeMutablePointer<UInt8>) {
        guard count > 0 else { return }
        let source = UnsafeRawPointer(pixels), target = UnsafeMutableRawPointer(output)
        grey(pixels, fade, output)
        var last = source.loadUnaligned(as: UInt32.self), made = target.loadUnaligned(as: UInt32.self)
        for x in 1..<count {
            let pixel = source.loadUnaligned(fromByteOffset: x &* 4, as: UInt32.self)
            if pixel != last {
                grey(pixels + x &* 4, fade, output + x &* 4)
                last = pixel
                made = target.loadUnaligned(fromByteOffset: x &* 4, as: UInt32.self)
            } else {
                target.storeBytes(of: made, toByteOffset: x &* 4, as: UInt32.self)
            }
        }
    }
}
