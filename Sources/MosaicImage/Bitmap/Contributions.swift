#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import MosaicSync

/// The taps of a one-dimensional resampling: for each output pixel, the first input pixel
/// and its fixed-point weights (14 fractional bits, summing to exactly 1 << 14; 16 bits
/// each, so the passes multiply in 16 bits).
struct Contributions: Sendable {
    static let precision: Int32 = 14
    var starts: [Int]
    var counts: [Int]
    /// `outputCount * stride` weights.
    var weights: [Int16]
    var stride: Int

    /// The first input pixel any output reads, and how many from there on are read.
    var firstInput: Int { starts.min() ?? 0 }
    var inputSpan: Int { (zip(starts, counts).map { $0 + $1 }.max() ?? 0) - firstInput }

    /// Taps mapping `region` (start, length, in input pixels) of an axis of `inputCount`
    /// pixels onto `outputCount` pixels. The support widens with the reduction so that
    /// every input pixel counts.
    init(inputCount: Int, outputCount: Int, regionStart: Double, regionLength: Double, filter: ResamplingFilter) {
        let scale = regionLength / Double(outputCount)
        let filterScale = max(scale, 1)
        let support = filter.support * filterScale
        stride = max(1, Int(ceil(support * 2)) + 2)
        starts = Array(repeating: 0, count: outputCount)
        counts = Array(repeating: 0, count: outputCount)
        weights = Array(repeating: 0, count: outputCount * stride)
        var real = [Double](repeating: 0, count: stride)
        for i in 0..<outputCount {
            let center = regionStart + (Double(i) + 0.5) * scale
            var first = Int(floor(center - support))
            var last = Int(ceil(center + support))
            first = min(max(first, 0), inputCount - 1)
            last = min(max(last, first + 1), inputCount)
            if last - first > stride { last = first + stride }
            var total = 0.0
            for j in first..<last {
                let w = filter.weight((Double(j) + 0.5 - center) / filterScale)
                real[j - first] = w
                total += w
            }
            if total == 0 {
                // The region falls between input pixels (box of a tiny region): nearest.
                let nearest = min(max(Int(center), first), last - 1)
                for j in first..<last { real[j - first] = j == nearest ? 1 : 0 }
                total = 1
            }
            // To fixed point; the rounding error goes to the largest tap so the sum is exact.
            let one = Int32(1) << Self.precision
            var sum: Int32 = 0
            var largest = 0
            for k in 0..<(last - first) {
                let w = Int32((real[k] / total * Double(one)).rounded())
                weights[i * stride + k] = Int16(clamping: w)
                sum += Int32(weights[i * stride + k])
                if abs(real[k]) > abs(real[largest]) { largest = k }
            }
            weights[i * stride + largest] = Int16(clamping: Int32(weights[i * stride + largest]) + one - sum)
            starts[i] = first
            counts[i] = last - first
        }
    }

    /// What `init` would make, from the last few made: a sheet's cards share a column
    /// width and a few aspect ratios, and each set costs a sine per tap.
    static func cached(inputCount: Int, outputCount: Int, regionStart: Double, regionLength: Double, filter: ResamplingFilter) -> Contributions {
        let key = Key(inputCount: inputCount, outputCount: outputCount, regionStart: regionStart, regionLength: regionLength, filter: filter)
        if let hit = cache.withLock({ $0[key] }) { return hit }
        let made = Contributions(inputCount: inputCount, outputCount: outputCount, regionStart: regionStart, regionLength: regionLength, filter: filter)
        cache.withLock { cache in
            if cache.count >= 256 { cache.removeAll(keepingCapacity: true) }
            cache[key] = made
        }
        return made
    }

    struct Key: Hashable, Sendable {
        var inputCount: Int
        var outputCount: Int
        var regionStart: Double
        var regionLength: Double
        var filter: ResamplingFilter
    }

    static let cache = Locked<[Key: Contributions]>([:])
}
