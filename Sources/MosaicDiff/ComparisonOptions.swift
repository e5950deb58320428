import MosaicImage
import MosaicLayout

/// How a pair's pass is decided.
public enum DiffMetric: String, Hashable, Sendable, CaseIterable, Codable {
    /// pixelmatch's count of differing pixels (exact), against `DiffTolerance`'s pixels.
    case pixelmatch
    /// SSIM on luma (`StructuralSimilarity`), against `DiffTolerance.minimumSSIM`: the pair's
    /// score and each changed region's; and each region's colour shift (`ColourShift`)
    /// against `DiffTolerance.maximumDeltaE`.
    case ssim
    /// NVIDIA FLIP, LDR (`FLIPMetric`): each changed region's mean against
    /// `DiffTolerance.maximumFLIP`; the diff image is FLIP's error map.
    case flip
}

/// How two images are compared: pixelmatch's perceptual YIQ colour delta.
public struct ComparisonOptions: Hashable, Sendable {
    /// 0...1: the smaller, the more sensitive (pixelmatch's default 0.1).
    public var threshold: Double
    /// Count anti-aliased pixels as differences too.
    public var includeAntialiasing: Bool
    /// Rectangles of pixels left out of the comparison.
    public var ignoreRegions: [Rect]
    /// How much of the baseline shows (faded to grey) under the diff image's marks, 0...1.
    public var fade: Double
    /// Changed pixels in the diff image.
    public var diffColor: RGBA
    /// Anti-aliased pixels in the diff image.
    public var antialiasingColor: RGBA
    /// Draw only the marks, on transparent (a mask).
    public var maskOnly: Bool
    /// How a pair passes; regions and counts come from pixelmatch's test in every mode.
    public var metric: DiffMetric
    /// Also compare the pair aligned (`PageAlignment`): rows inserted, deleted or moved are
    /// found and what corresponds is compared; the regions say what changed, and
    /// `DiffTolerance` judges the aligned figures.
    public var align = false

    public init(
        threshold: Double = 0.1, includeAntialiasing: Bool = false, ignoreRegions: [Rect] = [], fade: Double = 0.1,
        diffColor: RGBA = RGBA(red: 255, green: 0, blue: 0), antialiasingColor: RGBA = RGBA(red: 255, green: 255, blue: 0),
        maskOnly: Bool = false, metric: DiffMetric = .pixelmatch
    ) {
        self.metric = metric
        self.threshold = threshold
        self.includeAntialiasing = includeAntialiasing
        self.ignoreRegions = ignoreRegions
        self.fade = fade
        self.diffColor = diffColor
        self.antialiasingColor = antialiasingColor
        self.maskOnly = maskOnly
    }
}
