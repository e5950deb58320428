#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import CMosaicShims

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

    /// The region `extent` (fractional pixels: `DecodedImage.extent`, within the bitmap)
    /// resampled to exactly `width` x `height`: a block-averaged read's partial last block
    /// counts for the part of a pixel it covers, so the scale is exact and edges stay where
    /// they are.
    public func resampled(width: Int, height: Int, filter: ResamplingFilter = .lanczos3, extent: ImageExtent) -> Bitmap {
        resampled(width: width, height: height, filter: filter, region: SourceRegion(x: extent.x, y: extent.y, width: extent.width, height: extent.height))
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
        let horizontal = Contributions.cached(inputCount: self.width, outputCount: width, regionStart: region.x, regionLength: region.width, filter: filter)
        let vertical = Contributions.cached(inputCount: self.height, outputCount: height, regionStart: region.y, regionLength: region.height, filter: filter)
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
    /// pass reads), into `width` columns, premultiplied (`mosaic_resample_horizontal`).
    func horizontalPass(_ horizontal: Contributions, firstRow: Int, rows: Int, width: Int) -> [UInt8] {
        let count = width * rows * 4
        // Every byte is stored: no zero-fill.
        return [UInt8](unsafeUninitializedCapacity: count) { target, initialized in
            pixels.withUnsafeBytes { source in
                guard let base = source.baseAddress?.assumingMemoryBound(to: UInt8.self), let out = target.baseAddress, rows > 0 else { return }
                mosaic_resample_horizontal(
                    base + firstRow * self.width * 4, self.width * 4, Int32(rows), horizontal.starts, horizontal.counts, horizontal.weights,
                    horizontal.stride, out, Int32(width))
            }
            initialized = count
        }
    }

    /// One pass of the separable filter along the rows of `source`: output row `i` is the
    /// weighted sum of input rows `starts[i] - firstRow ..< + counts[i]`, each `rowBytes`
    /// bytes from `firstByte` into a row of `rowStride` bytes; premultiplied RGBA out
    /// (`mosaic_resample_vertical`).
    static func sumRows(
        _ taps: Contributions, source: UnsafeRawBufferPointer, rowStride: Int, firstByte: Int, rowBytes: Int, firstRow: Int
    ) -> [UInt8] {
        let outputs = taps.starts.count
        var sums = [Int32](repeating: 0, count: rowBytes)
        return [UInt8](unsafeUninitializedCapacity: rowBytes * outputs) { target, initialized in
            guard let input = source.baseAddress?.assumingMemoryBound(to: UInt8.self), let out = target.baseAddress else { return }
            mosaic_resample_vertical(
                input, rowStride, firstByte, rowBytes, firstRow, Int32(outputs), taps.starts, taps.counts, taps.weights, taps.stride, &sums, out)
            initialized = rowBytes * outputs
        }
    }

    /// Scaled to cover `width` x `height` and cropped to it around the centre ("crop to
    /// fill"): no distortion, no empty bands.
    /// `extent` (`DecodedImage.extent`; nil: the whole bitmap) is what the image spans;
    /// `focus` places the crop window (`center`, or the most interesting place).
    public func resampledToFill(
        width: Int, height: Int, filter: ResamplingFilter = .lanczos3, extent: ImageExtent? = nil, focus: CropFocus = .center
    ) -> Bitmap {
        let width = max(1, width), height = max(1, height)
        guard self.width > 0, self.height > 0 else { return Bitmap(width: width, height: height) }
        let (x, y, spanX, spanY) = extent ?? (0, 0, Double(self.width), Double(self.height))
        let sourceAspect = spanX / spanY
        let targetAspect = Double(width) / Double(height)
        var region = SourceRegion(x: x, y: y, width: spanX, height: spanY)
        if sourceAspect > targetAspect {
            region.width = spanY * targetAspect
            region.x = x + (spanX - region.width) / 2
        } else if sourceAspect < targetAspect {
            region.height = spanX / targetAspect
            region.y = y + (spanY - region.height) / 2
        }
        if focus != .center, sourceAspect != targetAspect {
            let (focusX, focusY) = cropOrigin(windowWidth: region.width, windowHeight: region.height, focus: focus)
            // Inside what the image spans (a reduction's last block may be partial).
            region.x = min(max(x, focusX), x + spanX - region.width)
            region.y = min(max(y, focusY), y + spanY - region.height)
        }
        return resampled(width: width, height: height, filter: filter, region: region)
    }
}
