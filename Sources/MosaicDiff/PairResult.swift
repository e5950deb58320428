import Foundation
import MosaicImage
import MosaicLayout

/// One compared pair.
public struct PairResult: Sendable {
    public enum Status: String, Sendable, Codable {
        case unchanged, changed, added, removed
    }

    public var relativePath: String
    public var status: Status
    public var baselinePath: String?
    public var currentPath: String?
    /// For pairs present on both sides.
    public var difference: ImageDifference?
}
