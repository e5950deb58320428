import CMosaicShims
import Foundation
import MosaicLayout

/// SSIM (Wang, Bovik, Sheikh and Simoncelli 2004) on luma, as scikit-image computes it
/// with `structural_similarity(a, b, gaussian_weights=True, sigma=1.5,
/// use_sample_covariance=False, data_range=255)`: an 11x11 Gaussian window (sigma 1.5,
/// cut at 3.5 sigma), K1 0.01, K2 0.03, edges mirrored (scipy's "reflect"); the pair's
/// score is the map's mean without a 5-pixel border (scikit-image's crop), or of the whole
/// map for images under 11 pixels either way (which scikit-image refuses). Luma is
/// pixelmatch's Y (0.29889531 R + 0.58662247 G + 0.11448223 B) of each pixel blended over
/// white by its alpha, as pixelmatch blends. Ignored rectangles hold the baseline's luma in
/// both images.
///
/// Cost follows the change, not the image: where both images are equal across a pixel's
/// 11x11 window, its SSIM is exactly 1 (every term of the index is computed from the same
/// numbers), so the map is computed (`mosaic_ssim_block`, ssim.c: separable, vectorized)
/// only in the 64x64 blocks within 5 pixels of an 8x8 tile whose bytes differ, which the
/// pixelmatch scan records as it passes; the rest of the map is 1.
enum StructuralSimilarity {
    /// Blocks of the map computed at once, pixels (a multiple of the 8-pixel tiles).
    static let block = 64
    static let radius = Int(MOSAIC_SSIM_RADIUS)

    /// scipy's `_gaussian_kernel1d(1.5, 0, 5)`: exp(-x² / 2σ²) for x in -5...5, normalized.
    static let weights: [Double] = {
        let w = (-radius...radius).map { exp(-0.5 / (1.5 * 1.5) * Double($0 * $0)) }
        let sum = w.reduce(0, +)
        return w.map { $0 / sum }
    }()

    /// The 8x8 tiles (`RegionGrid.shift`) in which some compared pixel's bytes differ: a
    /// bitset, width / 8 x height / 8 bits.
    struct ChangedTiles {
        let columns: Int, rows: Int
        var bits: [UInt64]

        init(width: Int, height: Int, tracking: Bool) {
            columns = (width + 7) >> RegionGrid.shift
            rows = (height + 7) >> RegionGrid.shift
            bits = tracking ? [UInt64](repeating: 0, count: (columns * rows + 63) / 64) : []
        }

        @inline(__always)
        mutating func set(x: Int, y: Int) {
            let i = (y >> RegionGrid.shift) &* columns &+ (x >> RegionGrid.shift)
            bits[i >> 6] |= 1 << UInt64(i & 63)
        }

        /// Which blocks (`side` pixels square, a multiple of the tiles; `columns` x `rows`
        /// of them) hold a tile within `reach` tiles of a changed one, by block index
        /// (row by row).
        func blocks(within reach: Int, side: Int, columns blockColumns: Int, rows blockRows: Int) -> [Bool] {
            let tilesPerBlock = side >> RegionGrid.shift
            var needed = [Bool](repeating: false, count: blockColumns * blockRows)
            for (word, bits) in bits.enumerated() where bits != 0 {
                for bit in 0..<64 where bits & (1 << UInt64(bit)) != 0 {
                    let i = word * 64 + bit
                    let tx = i % columns, ty = i / columns
                    for ny in max(0, ty - reach)...min(rows - 1, ty + reach) {
                        for nx in max(0, tx - reach)...min(columns - 1, tx + reach) {
                            needed[(ny / tilesPerBlock) * blockColumns + nx / tilesPerBlock] = true
                        }
                    }
                }
            }
            return needed
        }

        func isSet(_ tx: Int, _ ty: Int) -> Bool {
            let i = ty * columns + tx
            return bits[i >> 6] & (1 << UInt64(i & 63)) != 0
        }
    }

    /// The pair's score, and each region's (`ssim`: the map's mean over its box).
    /// `ignore`: rectangles inside the image.
    static func score(
        _ img1: ImageComparison.Plane, _ img2: ImageComparison.Plane, width: Int, height: Int, ignore: [Rect],
        changed: ChangedTiles, regions: inout [ChangedRegion]
    ) -> Double {
        guard width > 0, height > 0 else { return 1 }
        // The blocks to compute: those within one tile (8 > 5 pixels) of a changed tile.
        let blockColumns = (width + block - 1) / block, blockRows = (height + block - 1) / block
        let needed = changed.blocks(within: 1, side: block, columns: blockColumns, rows: blockRows)
        let crop = width > 2 * radius && height > 2 * radius
            ? Rect(x: radius, y: radius, width: width - 2 * radius, height: height - 2 * radius)
            : Rect(x: 0, y: 0, width: width, height: height)
        // The regions each needed block meets.
        var meeting: [Int: [Int]] = [:]
        for (r, region) in regions.enumerated() {
            let box = region.bounds
            for by in (box.minY / block)...((box.maxY - 1) / block) {
                for bx in (box.minX / block)...((box.maxX - 1) / block) where needed[by * blockColumns + bx] {
                    meeting[by * blockColumns + bx, default: []].append(r)
                }
            }
        }
        // The rectangles ignored (`ImageComparison.clipped`: inside the image, so that no
        // sum overflows in C).
        let rects = ignore.flatMap { [Int32($0.minX), Int32($0.minY), Int32($0.width), Int32($0.height)] }
        // 1 - SSIM summed, over the crop and over each region's box.
        var deficit = 0.0
        var regionDeficit = [Double](repeating: 0, count: regions.count)
        var scratch = [Double](repeating: 0, count: mosaic_ssim_scratch_count(Int32(block), Int32(block)))
        var map = [Double](repeating: 0, count: block * block)
        for by in 0..<blockRows {
            for bx in 0..<blockColumns where needed[by * blockColumns + bx] {
                let area = Rect(x: bx * block, y: by * block, width: min(block, width - bx * block), height: min(block, height - by * block))
                scratch.withUnsafeMutableBufferPointer { s in
                    map.withUnsafeMutableBufferPointer { out in
                        rects.withUnsafeBufferPointer { r in
                            weights.withUnsafeBufferPointer { w in
                                mosaic_ssim_block(
                                    img1.base, img1.stride, img2.base, img2.stride, Int32(width), Int32(height), r.baseAddress, Int32(rects.count / 4),
                                    Int32(area.minX), Int32(area.minY), Int32(area.width), Int32(area.height), w.baseAddress, s.baseAddress, out.baseAddress)
                            }
                        }
                    }
                }
                deficit += sum(map, area: area, over: crop)
                for r in meeting[by * blockColumns + bx] ?? [] {
                    regionDeficit[r] += sum(map, area: area, over: regions[r].bounds)
                }
            }
        }
        for r in regions.indices {
            let box = regions[r].bounds
            regions[r].ssim = 1 - regionDeficit[r] / Double(box.width * box.height)
        }
        return 1 - deficit / Double(crop.width * crop.height)
    }

    /// Σ (1 - SSIM) over the part of `rect` inside the block `area` (`map`: the block's
    /// values, `area.width` a row).
    static func sum(_ map: [Double], area: Rect, over rect: Rect) -> Double {
        let x0 = max(area.minX, rect.minX), x1 = min(area.maxX, rect.maxX)
        let y0 = max(area.minY, rect.minY), y1 = min(area.maxY, rect.maxY)
        guard x0 < x1, y0 < y1 else { return 0 }
        var total = 0.0
        for y in y0..<y1 {
            let row = (y - area.minY) * area.width - area.minX
            for x in x0..<x1 { total += 1 - map[row + x] }
        }
        return total
    }
}
