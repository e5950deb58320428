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
    /// Set when the sizes differ: the comparison covers their overlap only.
    public var sizeMismatch: (baseline: Size, current: Size)?

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
}
