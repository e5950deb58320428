import CFriBidi
import CHarfBuzz
import CMosaicShims

/// One glyph as HarfBuzz shaped it, in 26.6 pixels.
struct ShapedGlyph {
    /// Index into the typesetter's face table.
    var face: Int32
    /// The glyph index, with `Typesetter.emboldened` set for synthetic bold.
    var glyph: UInt32
    var advance: Int32
    var xOffset: Int32
    /// Up from the baseline (HarfBuzz's sense).
    var yOffset: Int32
    /// The paragraph index of the first scalar of the glyph's cluster.
    var cluster: Int32
}

/// A run of one bidi level, one script and one face, shaped: glyphs in visual order (right
/// to left runs come out of HarfBuzz reversed).
struct ShapedRun {
    var start: Int
    var end: Int
    var level: UInt8
    var glyphs: [ShapedGlyph]
}

/// A paragraph (text between newlines) itemized, shaped and with its break opportunities:
/// what lines are broken from, measured from and drawn from.
struct ShapedParagraph {
    var scalars: [UInt32]
    /// In logical order.
    var runs: [ShapedRun]
    /// The paragraph's embedding level: 0 left to right, 1 right to left.
    var baseLevel: UInt8
    /// `prefix[i]`: the advance of scalars 0..<i (26.6 px), each cluster's advance counted
    /// at its first scalar.
    var prefix: [Int]
    /// Whether a glyph cluster starts at scalar i (where a word too long for a line may
    /// break); count + 1 entries.
    var clusterStart: [Bool]
    /// MOSAIC_BREAK_ kinds before each scalar (count + 1 entries), from ICU.
    var breaks: [UInt8]

    var count: Int { scalars.count }

    func width(_ range: Range<Int>) -> Int { prefix[range.upperBound] - prefix[range.lowerBound] }

    /// `range` without the white space at its end (it hangs past the line's edge).
    func trimmed(_ range: Range<Int>) -> Range<Int> {
        var end = range.upperBound
        while end > range.lowerBound && Self.isWhiteSpace(scalars[end - 1]) { end -= 1 }
        return range.lowerBound..<end
    }

    /// Format characters that draw nothing by themselves: joiners, direction marks and
    /// embeddings, word joiners, variation selectors, the byte order mark.
    static func isInvisible(_ v: UInt32) -> Bool {
        switch v {
        case 0x200C...0x200F, 0x202A...0x202E, 0x2060...0x206F, 0xFE00...0xFE0F, 0xFEFF, 0xE0100...0xE01EF: return true
        default: return false
        }
    }

    /// Spaces that hang at a line's end and are skipped at a line's start.
    static func isWhiteSpace(_ v: UInt32) -> Bool {
        v == 0x20 || v == 0x09 || v == 0x3000 || v == 0x200B || (v >= 0x2000 && v <= 0x200A && v != 0x2007) || v == 0x1680 || v == 0x205F
    }
}

/// ICU's line-break iterator, opened once per typesetter (used under its lock).
final class LineBreaker {
    let breaker: OpaquePointer?

    init() {
        var message = [CChar](repeating: 0, count: Int(MOSAIC_MESSAGE_SIZE))
        breaker = mosaic_line_breaker_open(&message)
    }

    deinit { mosaic_line_breaker_close(breaker) }

    /// Break kinds before each of `scalars` and at the end (MOSAIC_BREAK_). Without ICU,
    /// lines break after spaces only.
    func breaks(_ scalars: [UInt32]) -> [UInt8] {
        var kinds = [UInt8](repeating: 0, count: scalars.count + 1)
        if let breaker, scalars.count < Int(Int32.max / 2), mosaic_line_breaks(breaker, scalars, Int32(scalars.count), &kinds) == 0 { return kinds }
        for i in 1..<max(1, scalars.count) where scalars[i - 1] == 0x20 && scalars[i] != 0x20 { kinds[i] = UInt8(MOSAIC_BREAK_ALLOWED) }
        kinds[scalars.count] = UInt8(MOSAIC_BREAK_MANDATORY)
        return kinds
    }
}

extension Typesetter {
    /// Itemizes `scalars` (one paragraph) into runs of one bidi level, script and face,
    /// shapes each with HarfBuzz, and finds its break opportunities.
    func shape(_ scalars: [UInt32], primary: Int32, bold: Bool, size26: Int32, direction: TextDirection) -> ShapedParagraph {
        let n = scalars.count
        guard n > 0 else {
            return ShapedParagraph(scalars: [], runs: [], baseLevel: direction == .rtl ? 1 : 0, prefix: [0], clusterStart: [true], breaks: [2])
        }
        let (levels, baseLevel) = Self.bidiLevels(scalars, direction: direction)
        // What HarfBuzz sees: control characters and the line and paragraph separators
        // (ICU ends a line after them) as zero-width spaces, taking no room and drawing
        // nothing; tabs as spaces.
        let text = scalars.map { v -> UInt32 in
            v == 0x09 ? 0x20 : (v < 0x20 || (v >= 0x7F && v < 0xA0) || v == 0x2028 || v == 0x2029) ? 0x200B : v
        }
        let funcs = hb_unicode_funcs_get_default()
        // Scripts: common and inherited characters (spaces, digits, marks) join the run
        // around them.
        var scripts = text.map { hb_unicode_script(funcs, $0) }
        var last: hb_script_t? = nil
        for i in 0..<n {
            if Self.isCommon(scripts[i]) {
                if let last { scripts[i] = last }
            } else {
                if last == nil { for j in 0..<i { scripts[j] = scripts[i] } }
                last = scripts[i]
            }
        }
        let primaryFace = faceTable[Int(primary)]
        let wordFaces = faceOfWords(text, scripts: scripts, primary: primaryFace)
        // Faces: per character, the first that has it; marks, joiners, variation
        // selectors and common characters keep the face before them when it has them.
        var faces = [Int32](repeating: primary, count: n)
        for i in 0..<n {
            let v = text[i]
            if wordFaces[i] >= 0 {
                faces[i] = wordFaces[i]
                continue
            }
            if i > 0 && Self.extendsCluster(v) {
                faces[i] = faces[i - 1]
                continue
            }
            if v == 0x200B { faces[i] = i > 0 ? faces[i - 1] : primary; continue }
            // (Not an emoji face's: its spaces and digits are emoji-sized.)
            if i > 0, faces[i - 1] != primary, faceTable[Int(faces[i - 1])].isScalable,
                Self.isCommon(hb_unicode_script(funcs, v)) || Self.isMark(funcs, v),
                faceTable[Int(faces[i - 1])].glyphIndex(Unicode.Scalar(v) ?? " ") != 0
            {
                faces[i] = faces[i - 1]
                continue
            }
            // An emoji asked for in colour (variation selector 16) takes the emoji face.
            let colour = i + 1 < n && text[i + 1] == 0xFE0F
            if !colour && primaryFace.glyphIndex(Unicode.Scalar(v) ?? " ") != 0 { continue }
            if let scalar = Unicode.Scalar(v), let face = fonts.face(for: scalar, primary: primaryFace, colour: colour) { faces[i] = faceID(face) }
        }
        var runs: [ShapedRun] = []
        var prefix = [Int](repeating: 0, count: n + 1)
        var clusterStart = [Bool](repeating: false, count: n + 1)
        clusterStart[n] = true
        var start = 0
        text.withUnsafeBufferPointer { buffer in
            for i in 1...max(1, n) where i == n || levels[i] != levels[start] || faces[i] != faces[start] || scripts[i] != scripts[start] {
                guard start < i else { continue }
                let glyphs = shapeRun(
                    buffer, start..<i, face: faces[start], rtl: levels[start] & 1 == 1, script: scripts[start], bold: bold, size26: size26)
                for g in glyphs {
                    prefix[Int(g.cluster) + 1] += Int(g.advance)
                    clusterStart[Int(g.cluster)] = true
                }
                runs.append(ShapedRun(start: start, end: i, level: levels[start], glyphs: glyphs))
                start = i
            }
        }
        for i in 0..<n { prefix[i + 1] += prefix[i] }
        return ShapedParagraph(
            scalars: scalars, runs: runs, baseLevel: baseLevel, prefix: prefix, clusterStart: clusterStart, breaks: breaker.breaks(scalars))
    }

    /// For each word (letters of one script between spaces) that the primary face cannot
    /// set whole, one face that can: the fallback for its first letter the primary lacks,
    /// when that face has every letter (an Urdu word's letters split between DejaVu Sans
    /// and Noto Sans Arabic would not join). -1 elsewhere.
    func faceOfWords(_ text: [UInt32], scripts: [hb_script_t], primary: Face) -> [Int32] {
        let n = text.count
        var result = [Int32](repeating: -1, count: n)
        var start = 0
        while start < n {
            if ShapedParagraph.isWhiteSpace(text[start]) || Self.isCommon(scripts[start]) {
                start += 1
                continue
            }
            var end = start + 1
            while end < n && scripts[end] == scripts[start] && !ShapedParagraph.isWhiteSpace(text[end]) { end += 1 }
            let letters = (start..<end).compactMap { i -> Unicode.Scalar? in
                let v = text[i]
                return Self.extendsCluster(v) || ShapedParagraph.isInvisible(v) || v == 0x200B ? nil : Unicode.Scalar(v)
            }
            if let lacking = letters.first(where: { primary.glyphIndex($0) == 0 }), let face = fonts.face(for: lacking, primary: primary),
                face !== primary, letters.allSatisfy({ face.glyphIndex($0) != 0 })
            {
                let id = faceID(face)
                for i in start..<end { result[i] = id }
            }
            start = end
        }
        return result
    }

    /// Shapes `range` of `text` (the whole paragraph is the context, so joining looks past
    /// the run's ends) in one face.
    func shapeRun(
        _ text: UnsafeBufferPointer<UInt32>, _ range: Range<Int>, face id: Int32, rtl: Bool, script: hb_script_t, bold: Bool, size26: Int32
    ) -> [ShapedGlyph] {
        let face = faceTable[Int(id)]
        let scale = face.setSize(Int(size26))
        let embolden = bold && !face.isBold && face.isScalable
        let strength = embolden ? face.emboldenStrength : 0
        hb_buffer_clear_contents(shapingBuffer)
        hb_buffer_add_utf32(
            shapingBuffer, text.baseAddress, Int32(clamping: text.count), UInt32(clamping: range.lowerBound), Int32(clamping: range.count))
        hb_buffer_set_direction(shapingBuffer, rtl ? HB_DIRECTION_RTL : HB_DIRECTION_LTR)
        hb_buffer_set_script(shapingBuffer, Self.isCommon(script) ? HB_SCRIPT_LATIN : script)
        hb_buffer_set_language(shapingBuffer, hb_language_get_default())
        hb_shape(face.hbFont, shapingBuffer, nil, 0)
        var count: UInt32 = 0
        guard let infos = hb_buffer_get_glyph_infos(shapingBuffer, &count), let positions = hb_buffer_get_glyph_positions(shapingBuffer, &count)
        else { return [] }
        var glyphs: [ShapedGlyph] = []
        glyphs.reserveCapacity(Int(count))
        for k in 0..<Int(count) {
            let p = positions[k]
            var advance = scale == 1 ? p.x_advance : Int32((Double(p.x_advance) * scale).rounded())
            if embolden && advance != 0 { advance += strength }
            glyphs.append(
                ShapedGlyph(
                    face: id, glyph: embolden ? infos[k].codepoint | Self.emboldened : infos[k].codepoint, advance: advance,
                    xOffset: scale == 1 ? p.x_offset : Int32((Double(p.x_offset) * scale).rounded()),
                    yOffset: scale == 1 ? p.y_offset : Int32((Double(p.y_offset) * scale).rounded()),
                    cluster: Int32(infos[k].cluster)))
        }
        return glyphs
    }

    /// Embedding levels per scalar and the paragraph's level, from FriBidi (text with no
    /// right-to-left character in an automatic or left-to-right paragraph skips it).
    static func bidiLevels(_ scalars: [UInt32], direction: TextDirection) -> ([UInt8], UInt8) {
        let n = scalars.count
        if direction != .rtl, !scalars.contains(where: mayBeRightToLeft) { return ([UInt8](repeating: 0, count: n), 0) }
        // (FriBidi counts in 32 bits: a paragraph past that keeps its own direction.)
        guard n < Int(Int32.max) else { return ([UInt8](repeating: direction == .rtl ? 1 : 0, count: n), direction == .rtl ? 1 : 0) }
        var types = [FriBidiCharType](repeating: FriBidiCharType(rawValue: 0), count: n)
        var brackets = [FriBidiBracketType](repeating: 0, count: n)
        var levels = [FriBidiLevel](repeating: 0, count: n)
        var base: FriBidiParType = direction == .auto ? mosaic_fribidi_par_on : direction == .ltr ? mosaic_fribidi_par_ltr : mosaic_fribidi_par_rtl
        fribidi_get_bidi_types(scalars, FriBidiStrIndex(n), &types)
        fribidi_get_bracket_types(scalars, FriBidiStrIndex(n), types, &brackets)
        let resolved = fribidi_get_par_embedding_levels_ex(types, brackets, FriBidiStrIndex(n), &base, &levels)
        let baseLevel: UInt8 = base == mosaic_fribidi_par_rtl ? 1 : 0
        // 0: FriBidi ran out of memory; the paragraph's own direction for all.
        if resolved == 0 { return ([UInt8](repeating: baseLevel, count: n), baseLevel) }
        return (levels.map { UInt8(clamping: Int($0)) }, baseLevel)
    }

    /// Characters of the right-to-left blocks and the bidi controls that start RTL text.
    static func mayBeRightToLeft(_ v: UInt32) -> Bool {
        switch v {
        case 0x0590...0x08FF, 0xFB1D...0xFDFF, 0xFE70...0xFEFF, 0x10800...0x10FFF, 0x1E800...0x1EFFF, 0x200F, 0x202B, 0x202E, 0x2067: return true
        default: return false
        }
    }

    static func isCommon(_ script: hb_script_t) -> Bool {
        script == HB_SCRIPT_COMMON || script == HB_SCRIPT_INHERITED || script == HB_SCRIPT_UNKNOWN
    }

    static func isMark(_ funcs: OpaquePointer?, _ v: UInt32) -> Bool {
        let category = hb_unicode_general_category(funcs, v)
        return category == HB_UNICODE_GENERAL_CATEGORY_NON_SPACING_MARK || category == HB_UNICODE_GENERAL_CATEGORY_SPACING_MARK
            || category == HB_UNICODE_GENERAL_CATEGORY_ENCLOSING_MARK
    }

    /// Joiners, variation selectors, emoji modifiers and tags: part of the character before.
    static func extendsCluster(_ v: UInt32) -> Bool {
        switch v {
        case 0x200C, 0x200D, 0xFE00...0xFE0F, 0xE0100...0xE01EF, 0x1F3FB...0x1F3FF, 0xE0020...0xE007F, 0x20E3: return true
        default: return false
        }
    }
}
