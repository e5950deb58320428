import Foundation
import MosaicImage
import MosaicLayout

/// What passes: at most this many differing pixels, or at most this fraction; in SSIM
/// mode (a difference with an `ssim` score), a score and regions' scores of at least
/// `minimumSSIM`.
public struct DiffTolerance: Hashable, Sendable {
    public var maximumPixels: Int
    public var maximumFraction: Double?
    /// SSIM mode: the lowest score that passes, for the pair and for each of its regions.
    public var minimumSSIM: Double

    public init(maximumPixels: Int = 0, maximumFraction: Double? = nil, minimumSSIM: Double = 0.99) {
        self.maximumPixels = maximumPixels
        self.minimumSSIM = minimumSSIM
        self.maximumFraction = maximumFraction
    }

    /// The verdict on a pair with `difference`: unchanged (no pixel differs), within the
    /// tolerance, or changed. The one rule, for a comparison and for a merge that checks a
    /// part's verdicts against its figures.
    public func status(of difference: ImageDifference) -> PairResult.Status {
        guard accepts(difference) else { return .changed }
        return difference.differingPixels == 0 && difference.sizeMismatch == nil ? .unchanged : .withinTolerance
    }

    public func accepts(_ difference: ImageDifference) -> Bool {
        if difference.sizeMismatch != nil { return false }
        if let ssim = difference.ssim { return ssim >= minimumSSIM && (difference.lowestRegionSSIM ?? 1) >= minimumSSIM }
        if let maximumFraction { return difference.fraction <= maximumFraction }
        return difference.differingPixels <= maximumPixels
    }
}
