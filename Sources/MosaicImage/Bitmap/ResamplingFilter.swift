#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The filter a resampling uses.
public enum ResamplingFilter: String, Sendable, Hashable, CaseIterable, Codable {
    /// Lanczos with 3 lobes: sharp, the default.
    case lanczos3
    /// The average of the pixels an output pixel covers: fast, a little soft.
    case box

    /// Half the filter's width, in output pixels.
    var support: Double {
        switch self {
        case .lanczos3: return 3
        case .box: return 0.5
        }
    }

    func weight(_ x: Double) -> Double {
        switch self {
        case .box:
            return (x >= -0.5 && x < 0.5) ? 1 : 0
        case .lanczos3:
            if x == 0 { return 1 }
            if x <= -3 || x >= 3 { return 0 }
            let px = Double.pi * x
            return 3 * sin(px) * sin(px / 3) / (px * px)
        }
    }
}
