import CFreeType
import CHarfBuzz
import CMosaicShims
import MosaicSync

/// Sets text: itemizes it into runs by direction, script and face (with per-character
/// fallback), shapes the runs with HarfBuzz, breaks lines by UAX #14 (ICU), reorders each
/// line by the Unicode Bidirectional Algorithm (FriBidi's levels), measures, and draws
/// glyphs into coverage masks (colour glyphs into their colour layer). Thread-safe; share
/// one per program.
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
    var bitmaps: [BitmapKey: GlyphBitmap] = [:]
    var metrics: [MetricsKey: (lineHeight: Int, baseline: Int)] = [:]
    /// Set text by string, style and width: a caption repeated on many cards is shaped once.
    var layouts: [LayoutKey: TextLayout] = [:]
    /// The shaped ellipsis by primary face and size.
    var ellipses: [MetricsKey: (glyphs: [ShapedGlyph], text: String)] = [:]
    let shapingBuffer: OpaquePointer
    let breaker = LineBreaker()
    /// Marks an emboldened glyph in `ShapedGlyph.glyph` and `PlacedGlyph.glyph` (FreeType's
    /// glyph indices are below 2^16).
    static let emboldened: UInt32 = 1 << 30
    /// At most this many set texts are kept (then the cache starts again), so that a
    /// million different captions do not stay in memory.
    static let layoutCacheLimit = 4_096

    struct FontKey: Hashable {
        var source: FontSource
        var bold: Bool
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
    struct LayoutKey: Hashable {
        var text: String
        var style: TextStyle
        var width: Int
    }

    public init(fonts: FontLibrary) {
        self.fonts = fonts
        shapingBuffer = hb_buffer_create()
    }

    deinit { hb_buffer_destroy(shapingBuffer) }

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
    /// Each paragraph (explicit newlines end them) is shaped, then broken where UAX #14
    /// allows (spaces hang at a line's end; Thai, Lao, Khmer and Burmese words come from
    /// ICU's dictionaries; CJK between characters, not before closing punctuation); a word
    /// longer than a line breaks between glyph clusters. Each line's runs are then put in
    /// visual order. With `style.maximumLines`, the last line kept ends in an ellipsis that
    /// fits, at its logical end. Empty or whitespace-only text has no lines.
    public func layout(_ text: String, style: TextStyle, width: Int) throws(TextError) -> TextLayout {
        try lock.withLock { (_) throws(TextError) -> TextLayout in try layoutLocked(text, style: style, width: width) }
    }

    /// `layout`, with the lock held; cached by text, style and width.
    func layoutLocked(_ text: String, style: TextStyle, width: Int) throws(TextError) -> TextLayout {
        let key = LayoutKey(text: text, style: style, width: width)
        if let known = layouts[key] { return known }
        let layout = try setText(text, style: style, width: width)
        if layouts.count >= Self.layoutCacheLimit { layouts.removeAll(keepingCapacity: true) }
        layouts[key] = layout
        return layout
    }

    func setText(_ text: String, style: TextStyle, width: Int) throws(TextError) -> TextLayout {
        let primary = try primaryFace(style)
        let size26 = Int32(max(1, Int((style.size * 64).rounded())))
        let (lineHeight, baseline) = lineMetrics(primary, size26: size26, spacing: style.lineSpacing)
        let width = max(1, width)
        var layout = TextLayout(lines: [], lineHeight: lineHeight, baseline: baseline, width: width, size26: Int(size26), isTruncated: false)
        let scalars = TextLimits.capped(text.unicodeScalars.map(\.value), length: style.maximumLines == nil ? Int.max : TextLimits.maximumScalars)
        // Nothing visible (spaces, newlines, joiners, direction marks, variation selectors):
        // no lines, as for empty text.
        if scalars.allSatisfy({ ShapedParagraph.isWhiteSpace($0) || $0 == 0x0A || $0 == 0x0D || ShapedParagraph.isInvisible($0) }) { return layout }
        let limit = style.maximumLines ?? Int.max
        var paragraphs: [ShapedParagraph] = []
        var lines: [(paragraph: Int, range: Range<Int>)] = []
        var paragraphStart = 0
        var index = 0
        while index <= scalars.count && lines.count <= limit {
            if index == scalars.count || scalars[index] == 0x0A {
                var end = index
                if end > paragraphStart && scalars[end - 1] == 0x0D { end -= 1 }
                if index < scalars.count || paragraphStart < scalars.count {
                    let paragraph = shape(Array(scalars[paragraphStart..<end]), primary: primary, bold: style.bold, size26: size26, direction: style.direction)
                    for range in breakLines(paragraph, width26: width * 64, limit: limit == Int.max ? limit : limit + 1 - lines.count) {
                        lines.append((paragraphs.count, range))
                    }
                    paragraphs.append(paragraph)
                }
                paragraphStart = index + 1
            }
            index += 1
        }
        if lines.count > limit {
            lines.removeLast(lines.count - limit)
            layout.isTruncated = true
        }
        for (n, line) in lines.enumerated() {
            let truncate = layout.isTruncated && n == lines.count - 1
            layout.lines.append(
                makeLine(
                    paragraphs[line.paragraph], line.range, primary: primary, bold: style.bold, size26: size26, width: width, alignment: style.alignment,
                    ellipsis: truncate))
        }
        return layout
    }

    /// The line height and baseline of a face at a size, from its metrics (26.6 px).
    func lineMetrics(_ primary: Int32, size26: Int32, spacing: Double) -> (Int, Int) {
        let key = MetricsKey(face: primary, size26: size26, spacing: spacing)
        if let known = metrics[key] { return known }
        let face = faceTable[Int(primary)]
        // (A face of bitmap strikes, such as an emoji font given as the font, has the
        // strike's metrics: scaled to the size like its glyphs.)
        let scale = face.setSize(Int(size26)) / 64
        let m = face.face.pointee.size.pointee.metrics
        let ascender = Int((Double(m.ascender) * scale).rounded(.up))
        let descender = Int((Double(-m.descender) * scale).rounded(.up))
        let natural = max(Int((Double(m.height) * scale).rounded(.up)), ascender + descender)
        let lineHeight = max(1, Int((Double(natural) * spacing).rounded()))
        // Extra leading is split above and below the glyphs.
        let baseline = (lineHeight - (ascender + descender)) / 2 + ascender
        metrics[key] = (lineHeight, baseline)
        return (lineHeight, baseline)
    }

    /// Greedy line filling of one shaped paragraph: the scalar ranges of its lines (at most
    /// `limit`), white space at a break left out of both lines.
    func breakLines(_ p: ShapedParagraph, width26: Int, limit: Int) -> [Range<Int>] {
        guard p.count > 0 else { return limit > 0 ? [0..<0] : [] }
        var lines: [Range<Int>] = []
        var start = 0
        var next = 1  // the first break opportunity to try
        while start < p.count && lines.count < limit {
            var end: Int? = nil
            next = max(next, start + 1)
            while next <= p.count {
                if p.breaks[next] != 0 {
                    if end != nil && p.width(p.trimmed(start..<next)) > width26 { break }
                    end = next
                    if p.breaks[next] == UInt8(MOSAIC_BREAK_MANDATORY) {
                        next += 1
                        break
                    }
                }
                next += 1
            }
            if let found = end, p.width(p.trimmed(start..<found)) > width26 {
                end = emergencyBreak(p, from: start, before: found, width26: width26)
            }
            let stop = end ?? p.count
            lines.append(start..<stop)
            start = stop
            // Spaces at a break belong to the line before.
            while start < p.count && ShapedParagraph.isWhiteSpace(p.scalars[start]) { start += 1 }
            next = start + 1
        }
        return lines
    }

    /// Where a word too long for a line breaks: after the most glyph clusters that fit
    /// (at least one), keeping closing punctuation with what precedes it and opening
    /// punctuation with what follows.
    func emergencyBreak(_ p: ShapedParagraph, from start: Int, before limit: Int, width26: Int) -> Int {
        var end = start + 1
        while end < limit && !p.clusterStart[end] { end += 1 }
        var q = end + 1
        while q <= limit {
            if p.clusterStart[q] {
                if p.width(start..<q) > width26 { break }
                end = q
            }
            q += 1
        }
        var kept = end
        while kept - 1 > start, kept < p.count, LineBreaking.isClosing(p.scalars[kept]) || LineBreaking.isOpening(p.scalars[kept - 1]) {
            kept -= 1
        }
        return kept > start && p.clusterStart[kept] ? kept : end
    }

    /// One line of `p`: its runs cut to `range`, reordered for display (rule L2 on the
    /// runs' levels), placed and aligned; with `ellipsis`, cut further so that an ellipsis
    /// fits at the line's logical end.
    func makeLine(
        _ p: ShapedParagraph, _ range: Range<Int>, primary: Int32, bold: Bool, size26: Int32, width: Int, alignment: TextAlignment,
        ellipsis: Bool
    ) -> TextLine {
        var range = p.trimmed(range)
        var mark: (glyphs: [ShapedGlyph], text: String)? = nil
        if ellipsis {
            let shaped = ellipsisGlyphs(primary: primary, bold: bold, size26: size26)
            let markWidth = shaped.glyphs.reduce(0) { $0 + Int($1.advance) }
            var end = range.upperBound
            while end > range.lowerBound && p.width(p.trimmed(range.lowerBound..<end)) + markWidth > width * 64 {
                end -= 1
                while end > range.lowerBound && !p.clusterStart[end] { end -= 1 }
            }
            range = p.trimmed(range.lowerBound..<end)
            mark = shaped
        }
        // Each piece's glyphs, and what turns their clusters into indices of the line's text.
        var pieces: [(level: UInt8, glyphs: (ArraySlice<ShapedGlyph>, shift: Int32))] = []
        let shift = Int32(clamping: -range.lowerBound)
        for run in p.runs where run.start < range.upperBound && run.end > range.lowerBound {
            if run.start >= range.lowerBound && run.end <= range.upperBound {
                pieces.append((run.level, (run.glyphs[...], shift)))
            } else {
                let kept = run.glyphs.filter { range.contains(Int($0.cluster)) }
                if !kept.isEmpty { pieces.append((run.level, (kept[...], shift))) }
            }
        }
        // The ellipsis stands at the paragraph's level at the logical end.
        if let mark { pieces.append((p.baseLevel, (mark.glyphs[...], Int32(clamping: range.count)))) }
        Self.reorder(&pieces)
        var pen: Int32 = 0
        var placed: [PlacedGlyph] = []
        placed.reserveCapacity(pieces.reduce(0) { $0 + $1.glyphs.0.count })
        for piece in pieces {
            for g in piece.glyphs.0 {
                placed.append(
                    PlacedGlyph(
                        face: g.face, glyph: g.glyph, x: pen + g.xOffset, y: -g.yOffset, cluster: g.cluster + piece.glyphs.shift,
                        isRightToLeft: piece.level & 1 == 1))
                pen += g.advance
            }
        }
        let lineWidth = (Int(pen) + 63) / 64
        let rtl = p.baseLevel & 1 == 1
        let offset: Int
        switch alignment {
        case .left: offset = 0
        case .center: offset = max(0, (width - lineWidth) / 2)
        case .right: offset = max(0, width - lineWidth)
        case .start: offset = rtl ? max(0, width - lineWidth) : 0
        case .end: offset = rtl ? 0 : max(0, width - lineWidth)
        }
        var text = String(String.UnicodeScalarView(p.scalars[range].compactMap(Unicode.Scalar.init)))
        if let mark { text += mark.text }
        return TextLine(glyphs: placed, width: lineWidth, offset: offset, text: text, isRightToLeft: rtl)
    }

    /// Rule L2 of the bidirectional algorithm on a line's runs: from the highest level down
    /// to the lowest odd one, each maximal sequence of runs at that level or above is
    /// reversed (a right-to-left run's glyphs are already in visual order).
    static func reorder<T>(_ pieces: inout [(level: UInt8, glyphs: T)]) {
        guard let highest = pieces.map(\.level).max(), highest > 0 else { return }
        let lowestOdd = (pieces.map(\.level).min() ?? 0) | 1
        var level = highest
        while level >= lowestOdd {
            var i = 0
            while i < pieces.count {
                if pieces[i].level >= level {
                    var j = i
                    while j < pieces.count && pieces[j].level >= level { j += 1 }
                    pieces[i..<j].reverse()
                    i = j
                } else {
                    i += 1
                }
            }
            level -= 1
        }
    }

    /// "…" shaped in the primary face ("..." when it has no ellipsis).
    func ellipsisGlyphs(primary: Int32, bold: Bool, size26: Int32) -> (glyphs: [ShapedGlyph], text: String) {
        let key = MetricsKey(face: primary, size26: size26, spacing: bold ? 1 : 0)
        if let known = ellipses[key] { return known }
        let face = faceTable[Int(primary)]
        let text: [UInt32] = face.glyphIndex("\u{2026}") != 0 ? [0x2026] : [0x2E, 0x2E, 0x2E]
        let glyphs = text.withUnsafeBufferPointer { buffer in
            shapeRun(buffer, 0..<text.count, face: primary, rtl: false, script: HB_SCRIPT_COMMON, bold: bold, size26: size26)
        }
        let result = (glyphs, String(String.UnicodeScalarView(text.compactMap(Unicode.Scalar.init))))
        ellipses[key] = result
        return result
    }
}
