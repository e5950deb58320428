#if canImport(Glibc)
import Glibc
#endif

/// A band of a page being drawn: `bitmap` holds the page's rows `top ..< top + height`.
/// Every primitive takes page coordinates, clips to the band, and composites premultiplied
/// source-over.
struct Canvas {
    var bitmap: Bitmap
    var top: Int

    var width: Int { bitmap.width }
    var height: Int { bitmap.height }

    /// The rows of `rect` inside the band, in band coordinates, and its columns, clipped.
    func clip(_ rect: Rect) -> (rows: Range<Int>, columns: Range<Int>)? {
        let y0 = max(rect.minY, top) - top, y1 = min(rect.maxY, top + height) - top
        let x0 = max(rect.minX, 0), x1 = min(rect.maxX, width)
        guard y0 < y1, x0 < x1 else { return nil }
        return (y0..<y1, x0..<x1)
    }

    @inline(__always)
    static func blend(_ p: UnsafeMutablePointer<UInt8>, _ c: RGBA, coverage: Int) {
        // source-over with the colour scaled by coverage (0...255), premultiplied.
        let sa = Int(c.alpha) * coverage / 255
        if sa == 0 { return }
        let sr = Int(c.red) * coverage / 255, sg = Int(c.green) * coverage / 255, sb = Int(c.blue) * coverage / 255
        let inverse = 255 - sa
        p[0] = UInt8(sr + (Int(p[0]) * inverse + 127) / 255)
        p[1] = UInt8(sg + (Int(p[1]) * inverse + 127) / 255)
        p[2] = UInt8(sb + (Int(p[2]) * inverse + 127) / 255)
        p[3] = UInt8(sa + (Int(p[3]) * inverse + 127) / 255)
    }

    /// The coverage (0...1) of a rounded rectangle at the centre of pixel (x, y) (page
    /// coordinates): 1 inside, 0 outside, anti-aliased over one pixel at the edge.
    @inline(__always)
    static func roundedCoverage(_ rect: Rect, radius: Int, x: Int, y: Int) -> Double {
        let px = Double(x) + 0.5, py = Double(y) + 0.5
        let r = Double(min(radius, min(rect.width, rect.height) / 2))
        // Distance outside the rectangle shrunk by r, minus r: a signed distance.
        let dx = max(Double(rect.minX) + r - px, px - (Double(rect.maxX) - r), 0)
        let dy = max(Double(rect.minY) + r - py, py - (Double(rect.maxY) - r), 0)
        let distance: Double
        if dx > 0 && dy > 0 {
            distance = (dx * dx + dy * dy).squareRoot() - r
        } else {
            // Along a straight edge: distance to the edge itself.
            let ex = min(px - Double(rect.minX), Double(rect.maxX) - px)
            let ey = min(py - Double(rect.minY), Double(rect.maxY) - py)
            distance = -min(ex, ey)
        }
        return min(1, max(0, 0.5 - distance))
    }

    /// A filled rectangle with anti-aliased rounded corners.
    mutating func fillRoundedRect(_ rect: Rect, radius: Int, color: RGBA) {
        guard color.alpha > 0, let (rows, columns) = clip(rect) else { return }
        let r = max(0, min(radius, min(rect.width, rect.height) / 2))
        let width = self.width, top = self.top
        // An opaque colour at full coverage replaces the pixel: stored, not blended (the
        // same bytes: source-over of alpha 255 leaves nothing of what was there).
        let opaque = color.alpha == 255
        let word = UInt32(color.red) | UInt32(color.green) << 8 | UInt32(color.blue) << 16 | UInt32(color.alpha) << 24
        bitmap.pixels.withUnsafeMutableBufferPointer { buffer in
            let base = buffer.baseAddress!
            for row in rows {
                let y = row + top
                let nearCorner = y < rect.minY + r || y >= rect.maxY - r
                // Columns at full coverage: all, or between the corners.
                let full = nearCorner ? max(columns.lowerBound, rect.minX + r)..<min(columns.upperBound, rect.maxX - r) : columns
                // The rest blended: left and right of the stored span, or the whole row.
                var left = columns, right = columns.upperBound..<columns.upperBound
                if opaque, !full.isEmpty {
                    let start = UnsafeMutableRawPointer(base + (row * width + full.lowerBound) * 4)
                    for i in 0..<full.count { start.storeBytes(of: word.littleEndian, toByteOffset: i &* 4, as: UInt32.self) }
                    (left, right) = (columns.lowerBound..<full.lowerBound, full.upperBound..<columns.upperBound)
                }
                for side in 0..<2 {
                    for x in side == 0 ? left : right {
                        var coverage = 255
                        if nearCorner && (x < rect.minX + r || x >= rect.maxX - r) {
                            coverage = Int(Self.roundedCoverage(rect, radius: r, x: x, y: y) * 255 + 0.5)
                        }
                        Self.blend(base + (row * width + x) * 4, color, coverage: coverage)
                    }
                }
            }
        }
    }

    /// A border of `lineWidth` inside `rect`'s edge, following its rounded corners.
    mutating func strokeRoundedRect(_ rect: Rect, radius: Int, lineWidth: Int, color: RGBA) {
        guard lineWidth > 0, color.alpha > 0, let (rows, columns) = clip(rect) else { return }
        let inner = rect.inset(by: Insets(all: lineWidth))
        let r = max(0, min(radius, min(rect.width, rect.height) / 2))
        let innerRadius = max(0, r - lineWidth)
        let width = self.width, top = self.top
        bitmap.pixels.withUnsafeMutableBufferPointer { buffer in
            let base = buffer.baseAddress!
            for row in rows {
                let y = row + top
                for x in columns {
                    let outer = Self.roundedCoverage(rect, radius: r, x: x, y: y)
                    let hole = inner.isEmpty ? 0 : Self.roundedCoverage(inner, radius: innerRadius, x: x, y: y)
                    let coverage = Int(max(0, outer - hole) * 255 + 0.5)
                    if coverage > 0 { Self.blend(base + (row * width + x) * 4, color, coverage: coverage) }
                }
            }
        }
    }

    /// A soft shadow of a rounded rectangle: its opacity falls off smoothly over `blur`
    /// pixels around the edge (an analytic stand-in for a Gaussian blur).
    ///
    /// - Parameter hidden: an opaque rectangle that will be drawn over the shadow (the card
    ///   itself): its inside, away from its rounded corners, is skipped.
    mutating func shadow(_ rect: Rect, radius: Int, blur: Int, color: RGBA, hidden: Rect? = nil) {
        guard color.alpha > 0 else { return }
        let reach = max(1, blur)
        let outer = Rect(x: rect.minX - reach, y: rect.minY - reach, width: rect.width + 2 * reach, height: rect.height + 2 * reach)
        guard let (rows, columns) = clip(outer) else { return }
        let r = Double(max(0, min(radius, min(rect.width, rect.height) / 2)))
        let width = self.width, top = self.top
        let b = Double(reach)
        /// The shadow's coverage at distances `dx`, `dy` (>= 0) outside the rectangle
        /// shrunk by the radius: a smoothstep from the edge (half opacity) out to `reach`.
        func coverage(_ dx: Double, _ dy: Double) -> Int {
            let distance = (dx * dx + dy * dy).squareRoot() - r  // <= 0 inside
            let t = min(1, max(0, (distance + b) / (2 * b)))
            let falloff = 1 - t * t * (3 - 2 * t)
            return Int(falloff * 255 + 0.5)
        }
        // Each column's dx, and its coverage in the rows between the corners (dy = 0);
        // in a corner row, the columns between the corners (dx = 0) share one value: only
        // the corners' pixels are computed one by one.
        let first = columns.lowerBound
        withUnsafeTemporaryAllocation(of: Double.self, capacity: columns.count) { dxs in
            withUnsafeTemporaryAllocation(of: Int.self, capacity: columns.count) { straight in
                for x in columns {
                    let px = Double(x) + 0.5
                    let dx = max(Double(rect.minX) + r - px, px - (Double(rect.maxX) - r), 0)
                    dxs[x - first] = dx
                    straight[x - first] = coverage(dx, 0)
                }
                bitmap.pixels.withUnsafeMutableBufferPointer { buffer in
                    let base = buffer.baseAddress!
                    // Columns [skipFrom, skipTo) of a row inside `hidden` (clear of its corners).
                    let corner = Int(r) + 1
                    for row in rows {
                        let py = Double(row + top) + 0.5
                        let dy = max(Double(rect.minY) + r - py, py - (Double(rect.maxY) - r), 0)
                        var skipFrom = Int.max, skipTo = Int.min
                        if let hidden, row + top >= hidden.minY + corner, row + top < hidden.maxY - corner {
                            skipFrom = hidden.minX + 1
                            skipTo = hidden.maxX - 1
                        }
                        let between = coverage(0, dy)
                        // The columns left and right of the skipped span (all of them when
                        // none is skipped): the span itself is not walked.
                        let skipping = skipFrom < skipTo
                        let left = columns.lowerBound..<(skipping ? min(max(skipFrom, columns.lowerBound), columns.upperBound) : columns.upperBound)
                        let right = (skipping ? min(max(skipTo, columns.lowerBound), columns.upperBound) : columns.upperBound)..<columns.upperBound
                        for part in 0..<2 {
                            for x in part == 0 ? left : right {
                                let dx = dxs[x - first]
                                let value = dy == 0 ? straight[x - first] : dx == 0 ? between : coverage(dx, dy)
                                if value > 0 { Self.blend(base + (row * width + x) * 4, color, coverage: value) }
                            }
                        }
                    }
                }
            }
        }
    }

    /// Draws `image` (premultiplied) with its top-left corner at `origin` (page
    /// coordinates), clipped to a rounded rectangle `clipRect` of `radius`.
    mutating func draw(_ image: Bitmap, at origin: Point, clipRect: Rect, radius: Int) {
        let target = Rect(x: origin.x, y: origin.y, width: image.width, height: image.height)
        let visible = Rect(
            x: max(target.minX, clipRect.minX), y: max(target.minY, clipRect.minY),
            width: min(target.maxX, clipRect.maxX) - max(target.minX, clipRect.minX),
            height: min(target.maxY, clipRect.maxY) - max(target.minY, clipRect.minY))
        guard !visible.isEmpty, let (rows, columns) = clip(visible) else { return }
        let r = max(0, min(radius, min(clipRect.width, clipRect.height) / 2))
        let width = self.width, top = self.top
        image.pixels.withUnsafeBufferPointer { source in
            bitmap.pixels.withUnsafeMutableBufferPointer { buffer in
                let base = buffer.baseAddress!
                for row in rows {
                    let y = row + top
                    let sourceRow = (y - origin.y) * image.width
                    let nearCorner = r > 0 && (y < clipRect.minY + r || y >= clipRect.maxY - r)
                    for x in columns {
                        let s = (sourceRow + x - origin.x) * 4
                        let d = base + (row * width + x) * 4
                        var coverage = 255
                        if nearCorner && (x < clipRect.minX + r || x >= clipRect.maxX - r) {
                            coverage = Int(Self.roundedCoverage(clipRect, radius: r, x: x, y: y) * 255 + 0.5)
                        }
                        let alpha = source[s + 3]
                        if alpha == 255 && coverage == 255 {
                            // An opaque pixel as it is: its four bytes at once.
                            UnsafeMutableRawPointer(d).storeBytes(
                                of: UnsafeRawPointer(source.baseAddress! + s).loadUnaligned(as: UInt32.self), as: UInt32.self)
                        } else {
                            Self.blend(d, RGBA(red: source[s], green: source[s + 1], blue: source[s + 2], alpha: alpha), coverage: coverage)
                        }
                    }
                }
            }
        }
    }

    /// Paints `color` through a coverage mask whose top-left corner is at `origin`, then its
    /// colour layer (emoji) over that as it is.
    mutating func draw(_ mask: CoverageMask, at origin: Point, color: RGBA) {
        let target = Rect(x: origin.x, y: origin.y, width: mask.width, height: mask.height)
        guard let (rows, columns) = clip(target) else { return }
        let width = self.width, top = self.top
        mask.pixels.withUnsafeBufferPointer { source in
            bitmap.pixels.withUnsafeMutableBufferPointer { buffer in
                let base = buffer.baseAddress!
                for row in rows {
                    let sourceRow = (row + top - origin.y) * mask.width
                    for x in columns {
                        let coverage = Int(source[sourceRow + x - origin.x])
                        if coverage > 0 { Self.blend(base + (row * width + x) * 4, color, coverage: coverage) }
                    }
                }
            }
        }
        guard !mask.colors.isEmpty else { return }
        mask.colors.withUnsafeBufferPointer { source in
            bitmap.pixels.withUnsafeMutableBufferPointer { buffer in
                let base = buffer.baseAddress!
                for row in rows {
                    let sourceRow = (row + top - origin.y) * mask.width
                    for x in columns {
                        let s = (sourceRow + x - origin.x) * 4
                        if source[s + 3] > 0 {
                            Self.blend(base + (row * width + x) * 4, RGBA(red: source[s], green: source[s + 1], blue: source[s + 2], alpha: source[s + 3]), coverage: 255)
                        }
                    }
                }
            }
        }
    }
}
