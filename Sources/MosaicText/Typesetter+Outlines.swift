import CFreeType
import CMosaicShims

/// One glyph of set text as a vector output (a PDF's text) draws it: a glyph of an outline
/// face, where the raster drew it, with what it reads as.
public struct OutlineGlyph: Hashable, Sendable {
    /// The typesetter's face (`Typesetter.fontProgram(face:glyphs:)` embeds it).
    public var face: Int32
    /// The glyph's index in its face (as HarfBuzz shaped it).
    public var glyph: UInt32
    /// FreeType's synthetic bold (a bold style the face lacks): drawn stroked as well as filled.
    public var isEmboldened: Bool
    /// The glyph's origin from the layout's top-left corner, pixels (its baseline).
    public var x: Double
    public var y: Double
    /// What the glyph reads as: its cluster's text on the cluster's first glyph, "" on the
    /// others (a mark set apart, the second glyph of a split vowel).
    public var text: String
    /// The glyph belongs to a right-to-left run (its line is drawn in visual order).
    public var isRightToLeft: Bool
}

/// A line of set text as a vector output draws it.
public struct OutlineLine: Hashable, Sendable {
    /// Its outline glyphs in visual order (colour glyphs left out: they stay pixels).
    public var glyphs: [OutlineGlyph]
    /// The line's text in logical (reading) order, as set (with the ellipsis when cut).
    public var text: String
    /// The line's paragraph reads right to left.
    public var isRightToLeft: Bool
}

/// A face's font program cut to the glyphs a document uses, with what a PDF font
/// dictionary says of it. Widths and metrics are in 1/1000 of the em.
public struct FontProgram: Sendable {
    /// The font file (a TrueType or OpenType font), glyph indices as in the full face.
    public var data: [UInt8]
    /// CFF outlines (a PDF CIDFontType0 of an OpenType FontFile3), else TrueType (CIDFontType2).
    public var isCFF: Bool
    /// The face's PostScript name (letters and digits only), or a made-up one.
    public var postScriptName: String
    /// Each glyph's advance, by glyph index.
    public var widths: [UInt32: Int]
    public var ascent: Int
    public var descent: Int
    public var capHeight: Int
    /// xMin, yMin, xMax, yMax.
    public var boundingBox: [Int]
    public var italicAngle: Double
    public var isFixedPitch: Bool
    public var isSerif: Bool
}

extension Typesetter {
    /// Whether a face's glyphs can be drawn as text by a vector output: outline faces
    /// without colour glyphs (a colour emoji face's glyphs stay pixels).
    func drawsAsOutline(_ face: Int32) -> Bool {
        let f = faceTable[Int(face)]
        return f.isScalable && !f.hasColor
    }

    /// The glyphs of `layout` that a vector output draws as text, line by line, placed as
    /// `draw(_:into:x:y:)` places them (its glyphs of outline faces; colour glyphs are left
    /// to the raster, `draw(... outlines: false)`).
    public func outlines(_ layout: TextLayout) -> [OutlineLine] {
        lock.withLock { _ in
            layout.lines.enumerated().map { n, line in
                let scalars = Array(line.text.unicodeScalars)
                // Each cluster's text runs to the next cluster's start (in logical order).
                let starts = Set(line.glyphs.map { Int($0.cluster) }).sorted()
                var seen = Set<Int32>()
                let baseline = Double(n * layout.lineHeight + layout.baseline)
                var glyphs: [OutlineGlyph] = []
                for g in line.glyphs where drawsAsOutline(g.face) {
                    let start = min(max(0, Int(g.cluster)), scalars.count)
                    var text = ""
                    if seen.insert(g.cluster).inserted {
                        let index = starts.firstIndex(of: Int(g.cluster)) ?? starts.count
                        let end = index + 1 < starts.count ? min(max(start, starts[index + 1]), scalars.count) : scalars.count
                        text = String(String.UnicodeScalarView(scalars[start..<end]))
                    }
                    glyphs.append(
                        OutlineGlyph(
                            face: g.face, glyph: g.glyph & ~Self.emboldened, isEmboldened: g.glyph & Self.emboldened != 0,
                            x: Double(line.offset) + Double(g.x) / 64, y: baseline + Double(g.y) / 64, text: text, isRightToLeft: g.isRightToLeft))
                }
                return OutlineLine(glyphs: glyphs, text: line.text, isRightToLeft: line.isRightToLeft)
            }
        }
    }

    /// The size, pixels, `layout`'s glyphs were set at (a PDF's font size before scaling).
    public func fontSize(of layout: TextLayout) -> Double { Double(layout.size26) / 64 }

    /// What FreeType's synthetic bold adds to a glyph's width at `size` pixels (the em over
    /// 24, as `FT_GlyphSlot_Embolden` makes it), pixels: the stroke a vector output draws
    /// an emboldened glyph with.
    public static func emboldening(size: Double) -> Double { size / 24 }

    /// The advances of `glyphs` of `face` as its font file has them (unhinted), 1/1000 em:
    /// a PDF font's widths (`/W`), by glyph index.
    public func advances(face: Int32, glyphs: Set<UInt32>) -> [UInt32: Int] {
        lock.withLock { _ in advances(faceTable[Int(face)], glyphs: glyphs) }
    }

    func advances(_ f: Face, glyphs: Set<UInt32>) -> [UInt32: Int] {
        let units = Double(max(1, Int(f.face.pointee.units_per_EM)))
        var widths: [UInt32: Int] = [:]
        for glyph in glyphs {
            var advance: FT_Fixed = 0
            if FT_Get_Advance(f.face, glyph, FT_Int32(FT_LOAD_NO_SCALE), &advance) == 0 { widths[glyph] = Int((Double(advance) * 1000 / units).rounded()) }
        }
        return widths
    }

    /// Face `face` cut to `glyphs` (HarfBuzz's subsetter, glyph indices kept), with its
    /// metrics and the glyphs' advances.
    ///
    /// - Throws: `TextError.subset` naming the font file when it cannot be cut.
    public func fontProgram(face: Int32, glyphs: [UInt32]) throws(TextError) -> FontProgram {
        try lock.withLock { (_) throws(TextError) -> FontProgram in
            let f = faceTable[Int(face)]
            var subset = mosaic_font_subset()
            let result = mosaic_font_subset_make(f.path, UInt32(clamping: f.index), glyphs, glyphs.count, &subset)
            defer { mosaic_font_subset_free(&subset) }
            guard result.status == MOSAIC_OK, let data = subset.data else {
                throw .subset(path: f.path, message: withUnsafeBytes(of: result.message) { String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self) })
            }
            let bytes = Array(UnsafeBufferPointer(start: data, count: subset.length))
            let ft = f.face.pointee
            let units = Double(max(1, Int(ft.units_per_EM)))
            let perMille = { (value: Double) in Int((value * 1000 / units).rounded()) }
            let widths = advances(f, glyphs: Set(glyphs + [0]))
            var name = FT_Get_Postscript_Name(f.face).map { String(cString: $0) } ?? ""
            name = String(name.unicodeScalars.filter { $0.isASCII && ($0.properties.isAlphabetic || ("0"..."9").contains($0) || $0 == "-") })
            if name.isEmpty { name = "MosaicFont\(face)" }
            let os2 = FT_Get_Sfnt_Table(f.face, FT_SFNT_OS2)?.assumingMemoryBound(to: TT_OS2.self).pointee
            let post = FT_Get_Sfnt_Table(f.face, FT_SFNT_POST)?.assumingMemoryBound(to: TT_Postscript.self).pointee
            let capHeight = os2.map { $0.version >= 2 && $0.sCapHeight > 0 ? Double($0.sCapHeight) : Double(ft.ascender) * 0.7 } ?? Double(ft.ascender) * 0.7
            let family = os2.map { Int($0.sFamilyClass) >> 8 } ?? 0
            return FontProgram(
                data: bytes, isCFF: subset.outlines == Int32(MOSAIC_FONT_CFF), postScriptName: name, widths: widths,
                ascent: perMille(Double(ft.ascender)), descent: perMille(Double(ft.descender)), capHeight: perMille(capHeight),
                boundingBox: [ft.bbox.xMin, ft.bbox.yMin, ft.bbox.xMax, ft.bbox.yMax].map { perMille(Double($0)) },
                italicAngle: post.map { Double($0.italicAngle) / 65536 } ?? 0, isFixedPitch: post.map { $0.isFixedPitch != 0 } ?? false,
                isSerif: (1...7).contains(family))
        }
    }
}
