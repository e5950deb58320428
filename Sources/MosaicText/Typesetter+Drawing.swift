import CFreeType

/// Drawing set text: glyph bitmaps (cached by face, size and glyph) into coverage masks.
extension Typesetter {
    struct GlyphBitmap {
        var width: Int
        var rows: Int
        var left: Int
        var top: Int
        /// Coverage, or (a colour glyph) premultiplied RGBA.
        var pixels: [UInt8]
        var isColor: Bool
    }

    func bitmap(face id: Int32, glyph: UInt32, size26: Int32) -> GlyphBitmap {
        let key = BitmapKey(face: id, size26: size26, glyph: glyph)
        if let known = bitmaps[key] { return known }
        let face = faceTable[Int(id)]
        let scale = face.setSize(Int(size26))
        var result = GlyphBitmap(width: 0, rows: 0, left: 0, top: 0, pixels: [], isColor: false)
        let flags = FT_Int32(FT_LOAD_DEFAULT) | (face.hasColor ? FT_Int32(FT_LOAD_COLOR) : 0)
        let loaded = FT_Load_Glyph(face.face, glyph & ~Self.emboldened, flags) == 0
        if loaded, glyph & Self.emboldened != 0 { FT_GlyphSlot_Embolden(face.face.pointee.glyph) }
        if loaded, FT_Render_Glyph(face.face.pointee.glyph, FT_RENDER_MODE_NORMAL) == 0 {
            let slot = face.face.pointee.glyph.pointee
            let bitmap = slot.bitmap
            let width = Int(bitmap.width), rows = Int(bitmap.rows), pitch = Int(bitmap.pitch)
            let color = bitmap.pixel_mode == UInt8(FT_PIXEL_MODE_BGRA.rawValue)
            var pixels = [UInt8](repeating: 0, count: width * rows * (color ? 4 : 1))
            if let buffer = bitmap.buffer, color || bitmap.pixel_mode == UInt8(FT_PIXEL_MODE_GRAY.rawValue) {
                for y in 0..<rows {
                    let source = pitch >= 0 ? y * pitch : (rows - 1 - y) * -pitch
                    if color {
                        // FreeType's BGRA is premultiplied already.
                        for x in 0..<width {
                            let s = source + x * 4, d = (y * width + x) * 4
                            pixels[d] = buffer[s + 2]
                            pixels[d + 1] = buffer[s + 1]
                            pixels[d + 2] = buffer[s]
                            pixels[d + 3] = buffer[s + 3]
                        }
                    } else {
                        for x in 0..<width { pixels[y * width + x] = buffer[source + x] }
                    }
                }
            }
            result = GlyphBitmap(width: width, rows: rows, left: Int(slot.bitmap_left), top: Int(slot.bitmap_top), pixels: pixels, isColor: color)
            if scale != 1 { result = Self.scaled(result, by: scale) }
        }
        bitmaps[key] = result
        return result
    }

    /// A bitmap glyph (a colour emoji's strike) at `scale` times its size: each pixel the
    /// average of the source pixels it covers (box filter), or the nearest when enlarging.
    static func scaled(_ g: GlyphBitmap, by scale: Double) -> GlyphBitmap {
        let channels = g.isColor ? 4 : 1
        let width = max(1, Int((Double(g.width) * scale).rounded())), rows = max(1, Int((Double(g.rows) * scale).rounded()))
        guard g.width > 0, g.rows > 0 else { return g }
        var pixels = [UInt8](repeating: 0, count: width * rows * channels)
        for y in 0..<rows {
            let y0 = min(g.rows - 1, y * g.rows / rows), y1 = max(y0 + 1, min(g.rows, (y + 1) * g.rows / rows))
            for x in 0..<width {
                let x0 = min(g.width - 1, x * g.width / width), x1 = max(x0 + 1, min(g.width, (x + 1) * g.width / width))
                let count = (y1 - y0) * (x1 - x0)
                for c in 0..<channels {
                    var sum = 0
                    for sy in y0..<y1 {
                        for sx in x0..<x1 { sum += Int(g.pixels[(sy * g.width + sx) * channels + c]) }
                    }
                    pixels[(y * width + x) * channels + c] = UInt8((sum + count / 2) / count)
                }
            }
        }
        return GlyphBitmap(
            width: width, rows: rows, left: Int((Double(g.left) * scale).rounded()), top: Int((Double(g.top) * scale).rounded()), pixels: pixels,
            isColor: g.isColor)
    }

    /// Draws `layout` into `mask` with its top-left corner at (x, y) (pixels; what falls
    /// outside the mask is clipped). Coverage adds up, saturating at 255; colour glyphs go
    /// into the mask's colour layer. With `outlines` false, only the glyphs a vector output
    /// cannot draw as text (colour glyphs, bitmap faces) are drawn: the others are
    /// `outlines(_:)`'s.
    public func draw(_ layout: TextLayout, into mask: inout CoverageMask, x: Int, y: Int, outlines: Bool = true) {
        lock.withLock { _ in
            for (n, line) in layout.lines.enumerated() {
                let baseline = y + n * layout.lineHeight + layout.baseline
                for glyph in line.glyphs where outlines || !drawsAsOutline(glyph.face) {
                    let image = bitmap(face: glyph.face, glyph: glyph.glyph, size26: Int32(layout.size26))
                    let left = x + line.offset + (Int(glyph.x) + 32) >> 6 + image.left
                    let top = baseline + (Int(glyph.y) + 32) >> 6 - image.top
                    if image.isColor {
                        mask.addColor(image.pixels, width: image.width, rows: image.rows, x: left, y: top)
                    } else {
                        mask.add(image.pixels, width: image.width, rows: image.rows, x: left, y: top)
                    }
                }
            }
        }
    }
}
