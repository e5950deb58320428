import Foundation
import MosaicImage
import MosaicLayout

/// What passes: at most this many differing pixels, or at most this fraction.
public struct DiffTolerance: Hashable, Sendable {
    public var maximumPixels: Int
    public var maximumFraction: Double?

    public init(maximumPixels: Int = 0, maximumFraction: Double? = nil) {
        self.maximumPixels = maximumPixels
        self.maximumFraction = maximumFraction
    }

    public func accepts(_ difference: ImageDifference) -> Bool {
        if difference.sizeMismatch != nil { return false }
        if let maximumFraction { return difference.fraction <= maximumFraction }
        return difference.differingPixels <= maximumPixels
    }
}
