import MosaicImage
import MosaicLayout

/// What a comparison found.
public struct ImageDifference: Sendable {
    /// Pixels whose colour delta is above the threshold (anti-aliased ones only with
    /// `includeAntialiasing`).
    public var differingPixels: Int
    /// Pixels above the threshold that look like anti-aliasing (not counted as differing
    /// unless `includeAntialiasing`).
    public var antialiasedPixels: Int
    /// Pixels compared (the overlapping area, less ignored regions).
    public var comparedPixels: Int
    /// The smallest rectangle holding every differing pixel.
    public var bounds: Rect?
    /// The differing pixels in regions (`ChangedRegion`), largest first: the first
    /// `RegionGrid.listed` (100) of them; `regionCount` counts them all.
    public var regions: [ChangedRegion] = []
    public var regionCount = 0
    /// SSIM mode: the pair's score (`StructuralSimilarity`), 1 for equal images.
    public var ssim: Double?
    /// SSIM mode: the lowest score of any region (listed or not).
    public var lowestRegionSSIM: Double?
    /// The largest delta found, on the threshold's scale, 0...1 (1: black against white): a
    /// pixel differs when its delta is above the threshold. (The YIQ delta is compared
    /// with 35215 x threshold²; this is the square root of delta / 35215, so that a pixel
    /// failing a 0.1 threshold shows more than 0.1, not 0.01.)
    public var largestDelta: Double
    /// The size compared: the overlap of the two images.
    public var size: Size
    /// The baseline faded to grey with differing pixels in the diff colour and anti-aliased
    /// ones in their own (or only the marks, on transparent). Nil in a folder comparison's
    /// results, which keep figures only (10,000 screenshots' diff images would not fit in
    /// memory): written to the pair's `diffImagePath` when asked for.
    public var diffImage: Bitmap?
    /// Set when the sizes differ: the comparison covers their overlap only (the aligned
    /// comparison covers both whole).
    public var sizeMismatch: (baseline: Size, current: Size)?
    /// SSIM mode: the largest colour shift of any region (`ChangedRegion.deltaE`).
    public var largestRegionDeltaE: Double?
    /// FLIP mode: the mean of the pair's FLIP map (`FLIPMetric`), 0 for equal images.
    public var flip: Double?
    /// FLIP mode: the largest mean FLIP of any region.
    public var largestRegionFLIP: Double?
    /// Aligned comparison (`ComparisonOptions.align`): the runs of current rows that
    /// correspond to baseline rows, top to bottom (`PageAlignment`); nil when not aligned.
    public var alignment: [RowShift]?
    /// Aligned comparison: the pixels that count against the tolerance: inserted and
    /// deleted bands whole, moved blocks' content, and corresponding pixels that differ.
    public var alignedDifferingPixels: Int?

    /// The figures of a comparison (as a sharded run's part reads them back).
    public init(
        differingPixels: Int, antialiasedPixels: Int, comparedPixels: Int, bounds: Rect?, regions: [ChangedRegion] = [],
        regionCount: Int = 0, ssim: Double? = nil, lowestRegionSSIM: Double? = nil, largestDelta: Double, size: Size,
        diffImage: Bitmap?, sizeMismatch: (baseline: Size, current: Size)?
    ) {
        self.differingPixels = differingPixels
        self.antialiasedPixels = antialiasedPixels
        self.comparedPixels = comparedPixels
        self.bounds = bounds
        self.regions = regions
        self.regionCount = regionCount
        self.ssim = ssim
        self.lowestRegionSSIM = lowestRegionSSIM
        self.largestDelta = largestDelta
        self.size = size
        self.diffImage = diffImage
        self.sizeMismatch = sizeMismatch
    }

    /// differing / compared (0 when nothing was compared).
    public var fraction: Double { comparedPixels == 0 ? 0 : Double(differingPixels) / Double(comparedPixels) }
    /// Same size and no differing pixel.
    public var isMatch: Bool { sizeMismatch == nil && differingPixels == 0 }

    /// The metric's figures over every region (listed or not).
    mutating func setScores(_ all: [ChangedRegion], flip: Double?) {
        lowestRegionSSIM = all.compactMap(\.ssim).min()
        largestRegionDeltaE = all.compactMap(\.deltaE).max()
        self.flip = flip
        largestRegionFLIP = flip == nil ? nil : all.compactMap(\.flip).max() ?? 0
    }

    /// What `alignment` says in a few words: "40 px inserted at y 0; 2 regions changed".
    public var alignmentSummary: String? {
        guard alignment != nil else { return nil }
        var parts: [String] = []
        for region in regions {
            switch region.change {
            case .inserted where region.bounds.width >= size.width || sizeMismatch.map({ region.bounds.width >= $0.current.width }) == true:
                parts.append("\(region.bounds.height) px inserted at y \(region.bounds.minY)")
            case .deleted where region.bounds.minX == 0:
                parts.append("\(region.bounds.height) px deleted at y \(region.bounds.minY + (region.offset?.dy ?? 0))")
            case .shifted:
                let offset = region.offset ?? RegionOffset(dx: 0, dy: 0)
                if offset.dx != 0 {
                    parts.append("a block moved \(abs(offset.dx)) px \(offset.dx > 0 ? "right" : "left") at x \(region.bounds.minX), y \(region.bounds.minY)")
                } else {
                    parts.append("a block moved \(abs(offset.dy)) px \(offset.dy > 0 ? "down" : "up") at y \(region.bounds.minY)")
                }
            default: continue
            }
        }
        let changed = regions.filter { $0.change == .recoloured || $0.change == .modified }.count
        if changed > 0 || parts.isEmpty { parts.append(changed == 1 ? "1 region changed" : "\(changed) regions changed") }
        return parts.joined(separator: "; ")
    }
}
