import MosaicLayout

/// One cluster of a pair's differing pixels: its box, how many pixels, the largest delta
/// among them, and (with `--metric ssim`) the SSIM map's mean over its box.
///
/// Regions are the differing pixels (ignored rectangles left out) grouped by single
/// linkage at `RegionGrid.gap` pixels: two differing pixels at most 8 pixels apart
/// (either way, up to 7 unchanged pixels between them) are in one region. See `RegionGrid`.
public struct ChangedRegion: Hashable, Sendable, Codable {
    /// The smallest rectangle holding the region's differing pixels.
    public var bounds: Rect
    public var differingPixels: Int
    /// The largest delta of the region's differing pixels, on `ImageDifference.largestDelta`'s
    /// scale (0...1).
    public var largestDelta: Double
    /// The mean of the pair's SSIM map over `bounds` (SSIM mode only).
    public var ssim: Double?
    /// SSIM mode: how far the region's mean colour moved, CIEDE2000 between the means of
    /// the two images' pixels over `bounds` in CIELAB (`ColourShift`).
    public var deltaE: Double?
    /// FLIP mode: the mean of the pair's FLIP map over `bounds`.
    public var flip: Double?
    /// Aligned comparison only: what changed (bounds are in the current image but for
    /// `deleted`, whose are in the baseline).
    public var change: RegionChange?
    /// Aligned comparison: for `shifted`, where the block moved from (baseline = bounds -
    /// offset); for `deleted`, where the band was taken out (current y = bounds.minY + dy).
    public var offset: RegionOffset?

    public init(
        bounds: Rect, differingPixels: Int, largestDelta: Double, ssim: Double? = nil, deltaE: Double? = nil, flip: Double? = nil,
        change: RegionChange? = nil, offset: RegionOffset? = nil
    ) {
        self.bounds = bounds
        self.differingPixels = differingPixels
        self.largestDelta = largestDelta
        self.ssim = ssim
        self.deltaE = deltaE
        self.flip = flip
        self.change = change
        self.offset = offset
    }

    /// The report's form: `{"bounds": {"x", "y", "width", "height"}, "differingPixels",
    /// "largestDelta", "ssim", "deltaE", "flip", "change", "offset": {"dx", "dy"}}` (so a
    /// report's JSON reads back into regions); absent figures are left out.
    enum CodingKeys: String, CodingKey { case bounds, differingPixels, largestDelta, ssim, deltaE, flip, change, offset }
    enum BoundsKeys: String, CodingKey { case x, y, width, height }

    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        let b = try c.nestedContainer(keyedBy: BoundsKeys.self, forKey: .bounds)
        bounds = Rect(
            x: try b.decode(Int.self, forKey: .x), y: try b.decode(Int.self, forKey: .y),
            width: try b.decode(Int.self, forKey: .width), height: try b.decode(Int.self, forKey: .height))
        differingPixels = try c.decode(Int.self, forKey: .differingPixels)
        largestDelta = try c.decode(Double.self, forKey: .largestDelta)
        ssim = try c.decodeIfPresent(Double.self, forKey: .ssim)
        deltaE = try c.decodeIfPresent(Double.self, forKey: .deltaE)
        flip = try c.decodeIfPresent(Double.self, forKey: .flip)
        change = try c.decodeIfPresent(RegionChange.self, forKey: .change)
        offset = try c.decodeIfPresent(RegionOffset.self, forKey: .offset)
    }

    public func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        var b = c.nestedContainer(keyedBy: BoundsKeys.self, forKey: .bounds)
        try b.encode(bounds.minX, forKey: .x)
        try b.encode(bounds.minY, forKey: .y)
        try b.encode(bounds.width, forKey: .width)
        try b.encode(bounds.height, forKey: .height)
        try c.encode(differingPixels, forKey: .differingPixels)
        try c.encode(largestDelta, forKey: .largestDelta)
        try c.encodeIfPresent(ssim, forKey: .ssim)
        try c.encodeIfPresent(deltaE, forKey: .deltaE)
        try c.encodeIfPresent(flip, forKey: .flip)
        try c.encodeIfPresent(change, forKey: .change)
        try c.encodeIfPresent(offset, forKey: .offset)
    }

    /// Largest first: more differing pixels first; then top to bottom, left to right by the
    /// box's corner; then the larger box (width, then height) first. (Two regions never
    /// share all of these and their first pixel; `RegionGrid` breaks the last tie by the
    /// region's first tile in reading order.)
    static func isListedBefore(_ a: ChangedRegion, _ b: ChangedRegion) -> Bool? {
        if a.differingPixels != b.differingPixels { return a.differingPixels > b.differingPixels }
        if a.bounds.minY != b.bounds.minY { return a.bounds.minY < b.bounds.minY }
        if a.bounds.minX != b.bounds.minX { return a.bounds.minX < b.bounds.minX }
        if a.bounds.width != b.bounds.width { return a.bounds.width > b.bounds.width }
        if a.bounds.height != b.bounds.height { return a.bounds.height > b.bounds.height }
        return nil
    }
}

/// Groups differing pixels into `ChangedRegion`s as a scan finds them, at a cost paid only
/// by differing pixels: each is recorded into its 8x8 tile (a count, a box, the largest
/// delta); when the scan is done, tiles whose boxes come within `gap` pixels are joined
/// (union-find), which only neighbouring tiles can, and each region's figures are the sum
/// of its tiles'.
///
/// Why 8 pixels: the glyphs of one word, the strokes of one icon, a border and its shadow
/// sit 1 to 6 pixels apart and belong to one change, while interface elements are laid out
/// on 8-pixel (or larger) spacing, so separate changes stay separate; and with 8x8 tiles a
/// tile's boxes can only come that close to its 8 neighbours'. Any two differing pixels at
/// most 8 pixels apart end in one region; two in neighbouring tiles whose boxes (not
/// pixels) come within 8 may too.
///
/// Memory: one row of tiles (width / 8) plus the tiles holding differing pixels (at most
/// 1/64 of the pixels), nothing for a pair that matches.
struct RegionGrid {
    /// Tile side, pixels (a power of two: `shift`).
    static let shift = 3
    /// Differing pixels at most this far apart (Chebyshev distance) are one region.
    static let gap = 8
    /// How many regions a pair lists (largest first); `ImageDifference.regionCount` counts all.
    static let listed = 100

    struct Tile {
        var tx = 0, ty = 0
        var count = 0
        var minX = Int.max, minY = Int.max, maxX = -1, maxY = -1
        var largest = 0.0
    }

    let columns: Int
    /// The tile row being filled (allocated at the first differing pixel).
    var row: [Tile] = []
    var rowTouched: [Int] = []
    var currentRow = -1
    /// Finished tiles, in reading order.
    var tiles: [Tile] = []

    init(width: Int) {
        columns = (width + (1 << Self.shift) - 1) >> Self.shift
    }

    /// A differing pixel at (`x`, `y`), its squared YIQ delta `delta`; pixels come in
    /// reading order.
    @inline(__always)
    mutating func add(x: Int, y: Int, delta: Double) {
        let ty = y >> Self.shift, tx = x >> Self.shift
        if ty != currentRow { startRow(ty) }
        if row[tx].count == 0 {
            rowTouched.append(tx)
            row[tx].tx = tx
            row[tx].ty = ty
        }
        row[tx].count &+= 1
        if x < row[tx].minX { row[tx].minX = x }
        if x > row[tx].maxX { row[tx].maxX = x }
        if y < row[tx].minY { row[tx].minY = y }
        if y > row[tx].maxY { row[tx].maxY = y }
        if delta > row[tx].largest { row[tx].largest = delta }
    }

    mutating func startRow(_ ty: Int) {
        flush()
        if row.isEmpty { row = [Tile](repeating: Tile(), count: columns) }
        currentRow = ty
    }

    /// Moves the current row's tiles to `tiles`, in order.
    mutating func flush() {
        rowTouched.sort()
        for tx in rowTouched {
            tiles.append(row[tx])
            row[tx] = Tile()
        }
        rowTouched.removeAll(keepingCapacity: true)
    }

    /// The neighbours before a tile in reading order (left, and the three above).
    static let earlierNeighbours = [(-1, 0), (-1, -1), (0, -1), (1, -1)]

    /// Whether two boxes come within `gap` pixels (Chebyshev distance between their
    /// closest pixels).
    static func near(_ a: Tile, _ b: Tile) -> Bool {
        let dx = max(0, max(a.minX, b.minX) - min(a.maxX, b.maxX))
        let dy = max(0, max(a.minY, b.minY) - min(a.maxY, b.maxY))
        return max(dx, dy) <= gap
    }

    /// Every region, largest first (`ChangedRegion.isListedBefore`, then the first tile
    /// in reading order); `largestDelta`s on the report's 0...1 scale.
    mutating func regions() -> [ChangedRegion] {
        flush()
        guard !tiles.isEmpty else { return [] }
        var index: [Int: Int] = [:]
        index.reserveCapacity(tiles.count)
        for (i, t) in tiles.enumerated() { index[t.ty &* columns &+ t.tx] = i }
        var parent = Array(0..<tiles.count)
        func find(_ i: Int) -> Int {
            var i = i
            while parent[i] != i {
                parent[i] = parent[parent[i]]
                i = parent[i]
            }
            return i
        }
        for (i, t) in tiles.enumerated() {
            // The neighbours before it in reading order; the others find it.
            for (dx, dy) in Self.earlierNeighbours {
                let nx = t.tx + dx, ny = t.ty + dy
                guard nx >= 0, nx < columns, ny >= 0, let j = index[ny &* columns &+ nx], Self.near(t, tiles[j]) else { continue }
                let ri = find(i), rj = find(j)
                // The root is the earlier tile: a region's root is its first tile.
                if ri != rj { parent[max(ri, rj)] = min(ri, rj) }
            }
        }
        var merged: [Int: Tile] = [:]
        for (i, t) in tiles.enumerated() {
            let root = find(i)
            guard var m = merged[root] else {
                merged[root] = t
                continue
            }
            m.count += t.count
            m.minX = min(m.minX, t.minX)
            m.minY = min(m.minY, t.minY)
            m.maxX = max(m.maxX, t.maxX)
            m.maxY = max(m.maxY, t.maxY)
            m.largest = max(m.largest, t.largest)
            merged[root] = m
        }
        let found = merged.map { root, m in
            (
                root,
                ChangedRegion(
                    bounds: Rect(x: m.minX, y: m.minY, width: m.maxX - m.minX + 1, height: m.maxY - m.minY + 1), differingPixels: m.count,
                    largestDelta: (m.largest / ImageComparison.maximumDelta).squareRoot())
            )
        }
        return found.sorted { a, b in ChangedRegion.isListedBefore(a.1, b.1) ?? (a.0 < b.0) }.map(\.1)
    }
}
