import Foundation
import MosaicImage
import MosaicLayout

/// What passes: at most this many differing pixels, or at most this fraction; in SSIM
/// mode (a difference with an `ssim` score), a score and regions' scores of at least
/// `minimumSSIM` and no region's colour moved by more than `maximumDeltaE`; in FLIP mode
/// (a difference with a `flip` score), no region's mean FLIP above `maximumFLIP`.
///
/// An aligned difference (`ImageDifference.alignedDifferingPixels` set) is judged by the
/// aligned comparison: its count against the pixels or fraction; in SSIM and FLIP mode, a
/// band inserted or deleted or a block moved fails the pair, and the scores judge the rest.
public struct DiffTolerance: Hashable, Sendable {
    public var maximumPixels: Int
    public var maximumFraction: Double?
    /// SSIM mode: the lowest score that passes, for the pair and for each of its regions.
    public var minimumSSIM: Double
    /// SSIM mode: the largest colour shift (CIEDE2000 between a region's mean colours) that
    /// passes. 2 by default: about twice a just noticeable difference.
    public var maximumDeltaE: Double
    /// FLIP mode: the largest mean FLIP of a region that passes.
    public var maximumFLIP: Double

    public init(maximumPixels: Int = 0, maximumFraction: Double? = nil, minimumSSIM: Double = 0.99, maximumDeltaE: Double = 2, maximumFLIP: Double = 0.05) {
        self.maximumPixels = maximumPixels
        self.minimumSSIM = minimumSSIM
        self.maximumFraction = maximumFraction
        self.maximumDeltaE = maximumDeltaE
        self.maximumFLIP = maximumFLIP
    }

    /// The verdict on a pair with `difference`: unchanged (no pixel differs), within the
    /// tolerance, or changed. The one rule, for a comparison and for a merge that checks a
    /// part's verdicts against its figures.
    public func status(of difference: ImageDifference) -> PairResult.Status {
        guard accepts(difference) else { return .changed }
        return difference.differingPixels == 0 && difference.sizeMismatch == nil ? .unchanged : .withinTolerance
    }

    public func accepts(_ difference: ImageDifference) -> Bool {
        let structural = difference.regions.contains { $0.change == .inserted || $0.change == .deleted || $0.change == .shifted }
        if let aligned = difference.alignedDifferingPixels {
            if difference.ssim != nil || difference.flip != nil {
                if structural { return false }
            } else {
                if let maximumFraction {
                    let area = difference.sizeMismatch.map { max($0.baseline.width * $0.baseline.height, $0.current.width * $0.current.height) }
                        ?? difference.comparedPixels
                    return area == 0 ? aligned == 0 : Double(aligned) / Double(area) <= maximumFraction
                }
                return aligned <= maximumPixels
            }
        } else if difference.sizeMismatch != nil {
            return false
        }
        if let ssim = difference.ssim {
            return ssim >= minimumSSIM && (difference.lowestRegionSSIM ?? 1) >= minimumSSIM && (difference.largestRegionDeltaE ?? 0) <= maximumDeltaE
        }
        if difference.flip != nil { return (difference.largestRegionFLIP ?? 0) <= maximumFLIP }
        if let maximumFraction { return difference.fraction <= maximumFraction }
        return difference.differingPixels <= maximumPixels
    }
}
