import Foundation
import MosaicImage
import MosaicLayout

/// One compared pair.
public struct PairResult: Sendable {
    public enum Status: String, Sendable, Codable {
        /// `unchanged`: no pixel differs. `withinTolerance`: some differ, no more than the
        /// tolerance lets pass. `failed`: one of the two images could not be read (see
        /// `error`).
        case unchanged, withinTolerance, changed, added, removed, failed
    }

    public var relativePath: String
    public var status: Status
    public var baselinePath: String?
    public var currentPath: String?
    /// For pairs present on both sides.
    public var difference: ImageDifference?
    /// For a failed pair: why it could not be compared.
    public var error: PairError?
    /// Where the pair's diff image was written, when the comparison was asked to write them.
    public var diffImagePath: String?
    /// The index of the per-path rule (`PairRule`) the pair was compared by; nil for the
    /// run's own settings.
    public var rule: Int?
    /// What the baseline and the current file held when the comparison read them (nil for
    /// a side it did not read: a removed pair's current, an added pair's baseline, a pair
    /// that failed). Approving writes a current file only while it still has this digest.
    public var baselineDigest: ContentDigest?
    public var currentDigest: ContentDigest?

    public init(
        relativePath: String, status: Status, baselinePath: String? = nil, currentPath: String? = nil,
        difference: ImageDifference? = nil, error: PairError? = nil
    ) {
        self.relativePath = relativePath
        self.status = status
        self.baselinePath = baselinePath
        self.currentPath = currentPath
        self.difference = difference
        self.error = error
    }
}
