import MosaicSync
import CFreeType

/// Horizontal placement of each line inside the layout width.
public enum TextAlignment: String, Hashable, Sendable, Codable, CaseIterable {
    case left, center, right
}

/// One glyph placed on a line: x in 1/64 pixel from the line's start.
public struct PlacedGlyph: Hashable, Sendable {
    /// Index into the typesetter's face table.
    var face: Int32
    var glyph: UInt32
    var x: Int32
}

/// A line of set text.
public struct TextLine: Hashable, Sendable {
    var glyphs: [PlacedGlyph]
    /// The line's width in pixels (rounded up), trailing spaces excluded.
    public var width: Int
    /// Where the line starts inside the layout width, in pixels (from the alignment).
    public var offset: Int
    /// The text of the line, as set (with the ellipsis when cut).
    public var text: String
}

/// Sets text: finds faces (with per-character fallback), breaks lines, measures, and draws
/// glyphs into coverage masks. Thread-safe; share one per program.
///
/// `@unchecked Sendable`: every stored `var` below, and the `FontLibrary` (FreeType is not
/// thread-safe), is touched only inside `lock.withLock`, in the three public entry points.
/// The lock is the library's own, so typesetters that share a library share it too.
public final class Typesetter: @unchecked Sendable {
    public let fonts: FontLibrary
    var lock: Locked<Void> { fonts.lock }
    var faceTable: [Face] = []
    var faceIDs: [ObjectIdentifier: Int32] = [:]
    var resolved: [FontKey: Face] = [:]
    var advances = FastMap<GlyphInfo>()
    var kerning = FastMap<Int32>()
    var bitmaps: [BitmapKey: GlyphBitmap] = [:]
    var metrics: [MetricsKey: (lineHeight: Int, baseline: Int)] = [:]
    /// Marks an emboldened glyph in `GlyphInfo.glyph` and `PlacedGlyph.glyph` (FreeType's
    /// glyph indices are below 2^16).
    static let emboldened: UInt32 = 1 << 30

    struct FontKey: Hashable {
        var source: FontSource
        var bold: Bool
    }
    struct GlyphInfo {
        var face: Int32
        var glyph: UInt32
        var advance: Int32
    }
    struct BitmapKey: Hashable {
        var face: Int32
        var size26: Int32
        var glyph: UInt32
    }
    struct MetricsKey: Hashable {
        var face: Int32
        var size26: Int32
        var spacing: Double
    }

    public init(fonts: FontLibrary) {
        self.fonts = fonts
    }

    /// Checks that `style` can be used: its font opens and its size is valid.
    public func validate(_ style: TextStyle) throws(TextError) {
        try lock.withLock { (_) throws(TextError) in _ = try primaryFace(style) }
    }

    func faceID(_ face: Face) -> Int32 {
        if let id = faceIDs[ObjectIdentifier(face)] { return id }
        faceTable.append(face)
        let id = Int32(faceTable.count - 1)
        faceIDs[ObjectIdentifier(face)] = id
        return id
    }

    func primaryFace(_ style: TextStyle) throws(TextError) -> Int32 {
        guard style.size.isFinite, style.size > 0, style.size < 10_000 else { throw .invalidFontSize(style.size) }
        guard style.lineSpacing.isFinite, style.lineSpacing > 0 else { throw .invalidFontSize(style.lineSpacing) }
        let key = FontKey(source: style.font, bold: style.bold)
        if let face = resolved[key] { return faceID(face) }
        let face = try fonts.face(style.font, bold: style.bold)
        resolved[key] = face
        return faceID(face)
    }

    /// Breaks `text` into lines at most `width` pixels wide.
    ///
    /// Lines break at spaces (which hang at the line's end), after hyphens, and between
    /// CJK characters, never before closing or after opening punctuation; explicit newlines
    /// end lines; a word longer than a line breaks between characters. With
    /// `style.maximumLines`, the last line kept ends in an ellipsis that fits. Empty or
    /// whitespace-only text has no lines.
    public func layout(_ text: String, style: TextStyle, width: Int) throws(TextError) -> TextLayout {
        try lock.withLock { (_) throws(TextError) -> TextLayout in try layoutLocked(text, style: style, width: width) }
    }

    /// `layout`, with the lock held.
    func layoutLocked(_ text: String, style: TextStyle, width: Int) throws(TextError) -> TextLayout {
        do {
            let primary = try primaryFace(style)
            let size26 = Int32(max(1, Int((style.size * 64).rounded())))
            let (lineHeight, baseline) = lineMetrics(primary, size26: size26, spacing: style.lineSpacing)
            let width = max(1, width)
            var layout = TextLayout(lines: [], lineHeight: lineHeight, baseline: baseline, width: width, size26: Int(size26), isTruncated: false)
            let scalars = Array(text.unicodeScalars)
            if scalars.allSatisfy({ LineBreaking.isSpace($0.value) || $0.value == 0x0A || $0.value == 0x0D }) { return layout }
            let limit = style.maximumLines ?? Int.max
            var lines: [[Int]] = []  // scalar indices per line
            var paragraphStart = 0
            var index = 0
            while index <= scalars.count && lines.count <= limit {
                if index == scalars.count || scalars[index].value == 0x0A {
                    var end = index
                    if end > paragraphStart && scalars[end - 1].value == 0x0D { end -= 1 }
                    if index < scalars.count || paragraphStart < scalars.count {
                        breakParagraph(scalars, paragraphStart..<end, primary: primary, bold: style.bold, size26: size26, width26: width * 64, into: &lines, limit: limit == Int.max ? limit : limit + 1)
                    }
                    paragraphStart = index + 1
                }
                index += 1
            }
            if lines.count > limit {
                lines.removeLast(lines.count - limit)
                layout.isTruncated = true
            }
            for (n, indices) in lines.enumerated() {
                let truncate = layout.isTruncated && n == lines.count - 1
                layout.lines.append(makeLine(scalars, indices, primary: primary, bold: style.bold, size26: size26, width: width, alignment: style.alignment, ellipsis: truncate))
            }
            return layout
        }
    }

    /// The line height and baseline of a face at a size, from its metrics (26.6 px).
    func lineMetrics(_ primary: Int32, size26: Int32, spacing: Double) -> (Int, Int) {
        let key = MetricsKey(face: primary, size26: size26, spacing: spacing)
        if let known = metrics[key] { return known }
        let face = faceTable[Int(primary)]
        face.setSize(Int(size26))
        let m = face.face.pointee.size.pointee.metrics
        let ascender = Int((Double(m.ascender) / 64).rounded(.up))
        let descender = Int((Double(-m.descender) / 64).rounded(.up))
        let natural = max(Int((Double(m.height) / 64).rounded(.up)), ascender + descender)
        let lineHeight = max(1, Int((Double(natural) * spacing).rounded()))
        // Extra leading is split above and below the glyphs.
        let baseline = (lineHeight - (ascender + descender)) / 2 + ascender
        metrics[key] = (lineHeight, baseline)
        return (lineHeight, baseline)
    }

    /// The glyph of `scalar` at `size26` in the primary face or the first fallback that has
    /// it. In a `bold` style, a face without a bold style (a CJK fallback) is emboldened,
    /// measured and drawn alike.
    func glyph(_ scalar: Unicode.Scalar, primary: Int32, bold: Bool, size26: Int32) -> GlyphInfo {
        // primary (16 bits) | bold (1 bit) | size in 1/64 px (22 bits) | scalar (21 bits)
        let key = UInt64(UInt32(primary)) << 48 | (bold ? 1 << 43 : 0) | UInt64(UInt32(size26) & 0x3F_FFFF) << 21 | UInt64(scalar.value)
        if let info = advances[key] { return info }
        let primaryFace = faceTable[Int(primary)]
        let value = scalar.value
        var info: GlyphInfo
        if value < 0x20 || (value >= 0x7F && value < 0xA0) || value == 0x200B || value == 0xFEFF {
            // Control characters and zero-width marks take no room and draw nothing.
            info = GlyphInfo(face: primary, glyph: UInt32.max, advance: 0)
        } else if let face = fonts.face(for: scalar, primary: primaryFace) {
            let id = faceID(face)
            face.setSize(Int(size26))
            let index = face.glyphIndex(scalar)
            FT_Load_Glyph(face.face, index, FT_Int32(FT_LOAD_DEFAULT))
            // A bold style in a face that has none (a CJK fallback): FreeType's synthetic
            // bold, which also widens the advance.
            let embolden = bold && !face.isBold
            if embolden { FT_GlyphSlot_Embolden(face.face.pointee.glyph) }
            info = GlyphInfo(face: id, glyph: embolden ? index | Self.emboldened : index, advance: Int32(face.face.pointee.glyph.pointee.advance.x))
        } else {
            // No face has it: the primary face's missing-glyph box.
            primaryFace.setSize(Int(size26))
            FT_Load_Glyph(primaryFace.face, 0, FT_Int32(FT_LOAD_DEFAULT))
            info = GlyphInfo(face: primary, glyph: 0, advance: Int32(primaryFace.face.pointee.glyph.pointee.advance.x))
        }
        advances[key] = info
        return info
    }

    func kern(_ left: GlyphInfo, _ right: GlyphInfo, size26: Int32) -> Int32 {
        guard left.face == right.face, left.glyph != UInt32.max, right.glyph != UInt32.max else { return 0 }
        let face = faceTable[Int(left.face)]
        guard face.hasKerning else { return 0 }
        // face (12 bits) | size in 1/64 px (20 bits) | left glyph (16 bits) | right glyph (16 bits)
        let key = UInt64(UInt32(left.face) & 0xFFF) << 52 | UInt64(UInt32(size26) & 0xF_FFFF) << 32
            | UInt64(left.glyph & 0xFFFF) << 16 | UInt64(right.glyph & 0xFFFF)
        if let known = kerning[key] { return known }
        face.setSize(Int(size26))
        var vector = FT_Vector()
        FT_Get_Kerning(face.face, left.glyph & ~Self.emboldened, right.glyph & ~Self.emboldened, FT_UInt(FT_KERNING_DEFAULT.rawValue), &vector)
        let value = Int32(vector.x)
        kerning[key] = value
        return value
    }

    /// Greedy line filling of one paragraph; appends each line's scalar indices.
    func breakParagraph(
        _ scalars: [Unicode.Scalar], _ range: Range<Int>, primary: Int32, bold: Bool, size26: Int32, width26: Int,
        into lines: inout [[Int]], limit: Int
    ) {
        var start = range.lowerBound
        if range.isEmpty {
            lines.append([])
            return
        }
        while start < range.upperBound && lines.count < limit {
            var pen = 0
            var lastBreak: Int? = nil  // a line may end before this index
            var previous: GlyphInfo? = nil
            var end = range.upperBound
            var i = start
            while i < range.upperBound {
                let v = scalars[i].value
                let info = glyph(scalars[i], primary: primary, bold: bold, size26: size26)
                let kerned = previous.map { kern($0, info, size26: size26) } ?? 0
                let next = pen + Int(kerned) + Int(info.advance)
                if i > start && !LineBreaking.isSpace(v) && next > width26 {
                    // Too long: end at the last break, or (a long word) before this character
                    // unless that would put closing punctuation first; then take it along.
                    if let lastBreak, lastBreak > start {
                        end = lastBreak
                    } else {
                        // A word longer than the line: break between characters, but keep
                        // closing punctuation with what precedes it and opening
                        // punctuation with what follows.
                        end = i
                        while end - 1 > start,
                            LineBreaking.isClosing(scalars[end].value) || LineBreaking.isOpening(scalars[end - 1].value)
                        {
                            end -= 1
                        }
                    }
                    break
                }
                pen = next
                previous = info
                if i + 1 < range.upperBound,
                    LineBreaking.canBreak(between: v, and: scalars[i + 1].value, beforeA: i > range.lowerBound ? scalars[i - 1].value : 0)
                {
                    lastBreak = i + 1
                }
                i += 1
            }
            lines.append(Array(start..<end))
            start = end
            // Spaces at a break belong to the line before.
            while start < range.upperBound && LineBreaking.isSpace(scalars[start].value) { start += 1 }
        }
    }

    func makeLine(
        _ scalars: [Unicode.Scalar], _ indices: [Int], primary: Int32, bold: Bool, size26: Int32, width: Int, alignment: TextAlignment,
        ellipsis: Bool
    ) -> TextLine {
        var indices = indices
        // Trailing spaces do not count.
        while let last = indices.last, LineBreaking.isSpace(scalars[last].value) { indices.removeLast() }
        func place(_ infos: [GlyphInfo]) -> ([PlacedGlyph], Int) {
            var pen = 0
            var placed: [PlacedGlyph] = []
            placed.reserveCapacity(infos.count)
            var previous: GlyphInfo? = nil
            for info in infos {
                if let previous { pen += Int(kern(previous, info, size26: size26)) }
                if info.glyph != UInt32.max { placed.append(PlacedGlyph(face: info.face, glyph: info.glyph, x: Int32(pen))) }
                pen += Int(info.advance)
                previous = info
            }
            return (placed, pen)
        }
        var infos = indices.map { glyph(scalars[$0], primary: primary, bold: bold, size26: size26) }
        var text = String(String.UnicodeScalarView(indices.map { scalars[$0] }))
        if ellipsis {
            let mark: [Unicode.Scalar] = faceTable[Int(primary)].glyphIndex("\u{2026}") != 0 ? ["\u{2026}"] : [".", ".", "."]
            let markInfos = mark.map { glyph($0, primary: primary, bold: bold, size26: size26) }
            let markWidth = markInfos.reduce(0) { $0 + Int($1.advance) }
            while !infos.isEmpty && place(infos).1 + markWidth > width * 64 {
                infos.removeLast()
                indices.removeLast()
            }
            while let last = indices.last, LineBreaking.isSpace(scalars[last].value) {
                indices.removeLast()
                infos.removeLast()
            }
            infos += markInfos
            text = String(String.UnicodeScalarView(indices.map { scalars[$0] } + mark))
        }
        let (placed, pen) = place(infos)
        let lineWidth = (pen + 63) / 64
        let offset: Int
        switch alignment {
        case .left: offset = 0
        case .center: offset = max(0, (width - lineWidth) / 2)
        case .right: offset = max(0, width - lineWidth)
        }
        return TextLine(glyphs: placed, width: lineWidth, offset: offset, text: text)
    }

    // MARK: Drawing

    struct GlyphBitmap {
        var width: Int
        var rows: Int
        var left: Int
        var top: Int
        var pixels: [UInt8]
    }

    func bitmap(face id: Int32, glyph: UInt32, size26: Int32) -> GlyphBitmap {
        let key = BitmapKey(face: id, size26: size26, glyph: glyph)
        if let known = bitmaps[key] { return known }
        let face = faceTable[Int(id)]
        face.setSize(Int(size26))
        var result = GlyphBitmap(width: 0, rows: 0, left: 0, top: 0, pixels: [])
        let loaded = FT_Load_Glyph(face.face, glyph & ~Self.emboldened, FT_Int32(FT_LOAD_DEFAULT)) == 0
        if loaded, glyph & Self.emboldened != 0 { FT_GlyphSlot_Embolden(face.face.pointee.glyph) }
        if loaded, FT_Render_Glyph(face.face.pointee.glyph, FT_RENDER_MODE_NORMAL) == 0
        {
            let slot = face.face.pointee.glyph.pointee
            let bitmap = slot.bitmap
            let width = Int(bitmap.width), rows = Int(bitmap.rows), pitch = Int(bitmap.pitch)
            var pixels = [UInt8](repeating: 0, count: width * rows)
            if let buffer = bitmap.buffer, bitmap.pixel_mode == UInt8(FT_PIXEL_MODE_GRAY.rawValue) {
                for y in 0..<rows {
                    let source = pitch >= 0 ? y * pitch : (rows - 1 - y) * -pitch
                    for x in 0..<width { pixels[y * width + x] = buffer[source + x] }
                }
            }
            result = GlyphBitmap(width: width, rows: rows, left: Int(slot.bitmap_left), top: Int(slot.bitmap_top), pixels: pixels)
        }
        bitmaps[key] = result
        return result
    }

    /// Draws `layout` into `mask` with its top-left corner at (x, y) (pixels; what falls
    /// outside the mask is clipped). Coverage adds up, saturating at 255.
    public func draw(_ layout: TextLayout, into mask: inout CoverageMask, x: Int, y: Int) {
        lock.withLock { _ in
            for (n, line) in layout.lines.enumerated() {
                let baseline = y + n * layout.lineHeight + layout.baseline
                for glyph in line.glyphs {
                    let image = bitmap(face: glyph.face, glyph: glyph.glyph, size26: Int32(layout.size26))
                    let left = x + line.offset + (Int(glyph.x) + 32) / 64 + image.left
                    let top = baseline - image.top
                    mask.add(image.pixels, width: image.width, rows: image.rows, x: left, y: top)
                }
            }
        }
    }
}
