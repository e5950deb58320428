#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A rectangle of a source bitmap, in (fractional) source pixels.
struct SourceRegion: Hashable, Sendable {
    var x: Double
    var y: Double
    var width: Double
    var height: Double

    init(x: Double, y: Double, width: Double, height: Double) {
        self.x = x
        self.y = y
        self.width = width
        self.height = height
    }
}

extension Bitmap {
    /// This bitmap resampled to exactly `width` x `height` with a separable filter, in
    /// premultiplied alpha. Both sizes are at least 1 (smaller counts as 1).
    public func resampled(width: Int, height: Int, filter: ResamplingFilter = .lanczos3) -> Bitmap {
        resampled(width: width, height: height, filter: filter, region: nil)
    }

    /// `region` (fractional source pixels; nil for all) resampled to `width` x `height`.
    func resampled(width: Int, height: Int, filter: ResamplingFilter, region: SourceRegion?) -> Bitmap {
        let width = max(1, width), height = max(1, height)
        guard self.width > 0, self.height > 0 else { return Bitmap(width: width, height: height) }
        let region = region ?? SourceRegion(x: 0, y: 0, width: Double(self.width), height: Double(self.height))
        if region == SourceRegion(x: 0, y: 0, width: Double(self.width), height: Double(self.height)),
            width == self.width, height == self.height {
            return self
        }
        let horizontal = Contributions(inputCount: self.width, outputCount: width, regionStart: region.x, regionLength: region.width, filter: filter)
        let vertical = Contributions(inputCount: self.height, outputCount: height, regionStart: region.y, regionLength: region.height, filter: filter)
        // Only the rows the vertical pass reads go through the horizontal pass.
        let firstRow = vertical.starts.min() ?? 0
        let lastRow = zip(vertical.starts, vertical.counts).map { $0 + $1 }.max() ?? 0
        let rows = lastRow - firstRow
        let intermediate = horizontalPass(horizontal, firstRow: firstRow, rows: rows, width: width)
        let result = Self.verticalPass(vertical, over: intermediate, firstRow: firstRow, width: width, height: height)
        return result
    }

    /// The horizontal pass over rows `firstRow..<firstRow + rows` (the ones the vertical
    /// pass reads), into `width` columns, premultiplied. Fixed point with wrapping
    /// arithmetic: the sums cannot overflow 32 bits with 14-bit weights.
    func horizontalPass(_ horizontal: Contributions, firstRow: Int, rows: Int, width: Int) -> [UInt8] {
        var intermediate = [UInt8](repeating: 0, count: width * rows * 4)
        let half = Int32(1) << (Contributions.precision - 1)
        pixels.withUnsafeBufferPointer { source in
            intermediate.withUnsafeMutableBufferPointer { target in
                horizontal.weights.withUnsafeBufferPointer { weights in
                    for row in 0..<rows {
                        let sourceRow = (firstRow + row) * self.width * 4
                        let targetRow = row * width * 4
                        for x in 0..<width {
                            var r = half, g = half, b = half, a = half
                            var p = sourceRow &+ horizontal.starts[x] &* 4
                            var w = x &* horizontal.stride
                            for _ in 0..<horizontal.counts[x] {
                                let weight = weights[w]
                                r &+= weight &* Int32(source[p])
                                g &+= weight &* Int32(source[p &+ 1])
                                b &+= weight &* Int32(source[p &+ 2])
                                a &+= weight &* Int32(source[p &+ 3])
                                p &+= 4
                                w &+= 1
                            }
                            storePremultiplied(target, targetRow &+ x &* 4, r, g, b, a)
                        }
                    }
                }
            }
        }
        return intermediate
    }

    /// The vertical pass from the horizontal pass's rows into a `width` x `height` bitmap.
    static func verticalPass(_ vertical: Contributions, over intermediate: [UInt8], firstRow: Int, width: Int, height: Int) -> Bitmap {
        let half = Int32(1) << (Contributions.precision - 1)
        var result = Bitmap(width: width, height: height)
        intermediate.withUnsafeBufferPointer { source in
            result.pixels.withUnsafeMutableBufferPointer { target in
                vertical.weights.withUnsafeBufferPointer { weights in
                    let rowBytes = width * 4
                    for y in 0..<height {
                        let start = vertical.starts[y] - firstRow, count = vertical.counts[y]
                        let targetRow = y * rowBytes
                        for x in 0..<width {
                            var r = half, g = half, b = half, a = half
                            var p = start &* rowBytes &+ x &* 4
                            var w = y &* vertical.stride
                            for _ in 0..<count {
                                let weight = weights[w]
                                r &+= weight &* Int32(source[p])
                                g &+= weight &* Int32(source[p &+ 1])
                                b &+= weight &* Int32(source[p &+ 2])
                                a &+= weight &* Int32(source[p &+ 3])
                                p &+= rowBytes
                                w &+= 1
                            }
                            storePremultiplied(target, targetRow &+ x &* 4, r, g, b, a)
                        }
                    }
                }
            }
        }
        return result
    }

    /// Scaled to cover `width` x `height` and cropped to it around the centre ("crop to
    /// fill"): no distortion, no empty bands.
    public func resampledToFill(width: Int, height: Int, filter: ResamplingFilter = .lanczos3) -> Bitmap {
        let width = max(1, width), height = max(1, height)
        guard self.width > 0, self.height > 0 else { return Bitmap(width: width, height: height) }
        let sourceAspect = Double(self.width) / Double(self.height)
        let targetAspect = Double(width) / Double(height)
        var region = SourceRegion(x: 0, y: 0, width: Double(self.width), height: Double(self.height))
        if sourceAspect > targetAspect {
            region.width = Double(self.height) * targetAspect
            region.x = (Double(self.width) - region.width) / 2
        } else if sourceAspect < targetAspect {
            region.height = Double(self.width) / targetAspect
            region.y = (Double(self.height) - region.height) / 2
        }
        return resampled(width: width, height: height, filter: filter, region: region)
    }
}

/// Drops the 14 fractional bits, clamps to 0...255, and the colour channels to at most
/// alpha (Lanczos overshoots), so the result stays valid premultiplied RGBA.
@inline(__always)
private func storePremultiplied(_ target: UnsafeMutableBufferPointer<UInt8>, _ index: Int, _ r: Int32, _ g: Int32, _ b: Int32, _ a: Int32) {
    let shift = Contributions.precision
    let alpha = min(max(a >> shift, 0), 255)
    target[index] = UInt8(truncatingIfNeeded: min(max(r >> shift, 0), alpha))
    target[index &+ 1] = UInt8(truncatingIfNeeded: min(max(g >> shift, 0), alpha))
    target[index &+ 2] = UInt8(truncatingIfNeeded: min(max(b >> shift, 0), alpha))
    target[index &+ 3] = UInt8(truncatingIfNeeded: alpha)
}
