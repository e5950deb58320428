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
        // The horizontal pass first (as Pillow does: the same rounding), on the rows the
        // vertical pass reads; then the vertical one, a contiguous loop over rows.
        let firstRow = vertical.firstInput, rows = vertical.inputSpan
        let intermediate = horizontalPass(horizontal, firstRow: firstRow, rows: rows, width: width)
        let result = intermediate.withUnsafeBytes { source in
            Self.sumRows(vertical, source: source, rowStride: width * 4, firstByte: 0, rowBytes: width * 4, firstRow: firstRow)
        }
        return Bitmap(width: width, height: height, pixels: result) ?? Bitmap(width: width, height: height)
    }

    /// The horizontal pass over rows `firstRow..<firstRow + rows` (the ones the vertical
    /// pass reads), into `width` columns, premultiplied. Fixed point, the four channels of
    /// a pixel in one vector register, with wrapping arithmetic: the sums cannot overflow
    /// 32 bits with 14-bit weights.
    func horizontalPass(_ horizontal: Contributions, firstRow: Int, rows: Int, width: Int) -> [UInt8] {
        let count = width * rows * 4
        // Every byte is stored below: no zero-fill.
        return [UInt8](unsafeUninitializedCapacity: count) { target, initialized in
            pixels.withUnsafeBytes { source in
                horizontal.weights.withUnsafeBufferPointer { weights in
                    horizontal.starts.withUnsafeBufferPointer { starts in
                        horizontal.counts.withUnsafeBufferPointer { counts in
                            guard let base = source.baseAddress, let out = target.baseAddress else { return }
                            let half = SIMD4<Int32>(repeating: 1 << (Contributions.precision - 1))
                            for row in 0..<rows {
                                let sourceRow = base + (firstRow + row) * self.width * 4
                                let targetRow = out + row * width * 4
                                for x in 0..<width {
                                    var sum = half
                                    var p = sourceRow + starts[x] &* 4
                                    var w = x &* horizontal.stride
                                    for _ in 0..<counts[x] {
                                        let pixel = SIMD4<Int32>(truncatingIfNeeded: p.loadUnaligned(as: SIMD4<UInt8>.self))
                                        sum &+= pixel &* Int32(weights[w])
                                        p += 4
                                        w &+= 1
                                    }
                                    storePremultiplied(sum, at: targetRow + x &* 4)
                                }
                            }
                        }
                    }
                }
            }
            initialized = count
        }
    }

    /// One pass of the separable filter along the rows of `source`: output row `i` is the
    /// weighted sum of input rows `starts[i] - firstRow ..< + counts[i]`, each `rowBytes`
    /// bytes from `firstByte` into a row of `rowStride` bytes; premultiplied RGBA out.
    ///
    /// Fixed point with wrapping arithmetic (14-bit weights, 8-bit samples: no overflow in
    /// 32 bits). The weights are 16-bit and the samples 8-bit, so the multiply-add over a
    /// row vectorizes.
    static func sumRows(
        _ taps: Contributions, source: UnsafeRawBufferPointer, rowStride: Int, firstByte: Int, rowBytes: Int, firstRow: Int
    ) -> [UInt8] {
        let outputs = taps.starts.count
        var sums = [Int32](repeating: 0, count: rowBytes)
        return [UInt8](unsafeUninitializedCapacity: rowBytes * outputs) { target, initialized in
            sums.withUnsafeMutableBufferPointer { sums in
                taps.weights.withUnsafeBufferPointer { weights in
                    guard let input = source.baseAddress?.assumingMemoryBound(to: UInt8.self), let out = target.baseAddress,
                        let sum = sums.baseAddress
                    else { return }
                    for i in 0..<outputs {
                        sum.update(repeating: 1 << (Contributions.precision - 1), count: rowBytes)
                        var row = input + (taps.starts[i] - firstRow) * rowStride + firstByte
                        var w = i &* taps.stride
                        for _ in 0..<taps.counts[i] {
                            let weight = Int32(weights[w])
                            for b in 0..<rowBytes { sum[b] &+= weight &* Int32(row[b]) }
                            row += rowStride
                            w &+= 1
                        }
                        let targetRow = out + i * rowBytes
                        let raw = UnsafeRawPointer(sum)
                        for x in 0..<(rowBytes / 4) {
                            storePremultiplied(raw.loadUnaligned(fromByteOffset: x &* 16, as: SIMD4<Int32>.self), at: targetRow + x &* 4)
                        }
                    }
                }
            }
            initialized = rowBytes * outputs
        }
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
private func storePremultiplied(_ sum: SIMD4<Int32>, at target: UnsafeMutablePointer<UInt8>) {
    let value = sum &>> Contributions.precision
    let alpha = min(max(value[3], 0), 255)
    let clamped = value.clamped(lowerBound: .zero, upperBound: SIMD4(alpha, alpha, alpha, 255))
    UnsafeMutableRawPointer(target).storeBytes(of: SIMD4<UInt8>(truncatingIfNeeded: clamped), as: SIMD4<UInt8>.self)
}
