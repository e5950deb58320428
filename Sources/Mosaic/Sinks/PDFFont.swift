import CMosaicShims
import Foundation

/// A face whose glyphs a PDF's text uses: a Type 0 font of Identity-H codes (a code is the
/// glyph's index, as HarfBuzz shaped it), its CIDFont (CIDFontType2 over TrueType outlines,
/// CIDFontType0 over CFF, CIDToGIDMap Identity), its descriptor, the font program cut to
/// the glyphs used (HarfBuzz's subsetter, indices kept) and a ToUnicode map from each
/// glyph to what it reads as, so that copying and searching find the caption's text.
struct PDFFont {
    struct Key: Hashable {
        var typesetter: ObjectIdentifier
        var face: Int32
    }

    /// Objects a font takes: the Type 0 font, the CIDFont, the descriptor, the font program,
    /// the ToUnicode CMap.
    static let objectCount = 5

    let typesetter: Typesetter
    let face: Int32
    /// What each glyph used reads as (the first text it stood for; "" for a glyph that is
    /// only ever part of another's cluster).
    var texts: [UInt32: String] = [:]
    /// Each glyph's advance in the font file, 1/1000 em (`/W`).
    var widths: [UInt32: Int] = [:]

    /// Takes `glyphs` (a line's run) into the font: their texts and widths. A right-to-left
    /// glyph's text is stored reversed: readers (poppler, pdf.js) take a line's glyphs in
    /// visual order and reverse right-to-left text to read it, a ligature's letters too.
    mutating func use(_ glyphs: ArraySlice<OutlineGlyph>) {
        let new = Set(glyphs.map(\.glyph)).subtracting(widths.keys)
        if !new.isEmpty { widths.merge(typesetter.advances(face: face, glyphs: new)) { $1 } }
        for glyph in glyphs where !glyph.text.isEmpty || texts[glyph.glyph] == nil {
            if texts[glyph.glyph]?.isEmpty ?? true {
                texts[glyph.glyph] = glyph.isRightToLeft ? String(String.UnicodeScalarView(glyph.text.unicodeScalars.reversed())) : glyph.text
            }
        }
    }

    /// Six capital letters naming the subset (PDF's `ABCDEF+Name`), from the glyphs it
    /// holds: the same glyphs give the same tag, so the same inputs give the same bytes.
    func subsetTag(index: Int) -> String {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325 &+ UInt64(index)
        for glyph in texts.keys.sorted() {
            hash = (hash ^ UInt64(glyph)) &* 0x100_0000_01b3
        }
        var tag = ""
        for _ in 0..<6 {
            tag.append(Character(Unicode.Scalar(UInt8(65 + hash % 26))))
            hash /= 26
        }
        return tag
    }

    /// The objects' dictionaries and streams, numbered from `first`: a stream's entry is the
    /// entries of its dictionary besides its length and filter (the stream is deflated).
    func objects(first: Int, index: Int, program: FontProgram) -> [(dictionary: String, stream: [UInt8]?)] {
        let name = subsetTag(index: index) + "+" + program.postScriptName
        let glyphs = texts.keys.sorted()
        // /W as runs of consecutive glyphs: c [w1 w2 ...].
        var w = ""
        var run: [UInt32] = []
        func flush() {
            guard let start = run.first else { return }
            w += "\(start) [" + run.map { String(widths[$0] ?? 1000) }.joined(separator: " ") + "] "
            run = []
        }
        for glyph in glyphs {
            if let last = run.last, glyph != last + 1 { flush() }
            run.append(glyph)
        }
        flush()
        var flags = 4  // symbolic: its glyphs are addressed by index, not by a standard encoding
        if program.isFixedPitch { flags |= 1 }
        if program.isSerif { flags |= 2 }
        if program.italicAngle != 0 { flags |= 64 }
        let bbox = program.boundingBox.map(String.init).joined(separator: " ")
        let fontFile = program.isCFF ? "/FontFile3 \(first + 3) 0 R" : "/FontFile2 \(first + 3) 0 R"
        let cidFont = program.isCFF ? "/CIDFontType0" : "/CIDFontType2 /CIDToGIDMap /Identity"
        let fileDictionary = program.isCFF ? "/Subtype /OpenType" : "/Length1 \(program.data.count)"
        let cmap = Array(toUnicode(glyphs).utf8)
        return [
            ("<< /Type /Font /Subtype /Type0 /BaseFont /\(name) /Encoding /Identity-H /DescendantFonts [\(first + 1) 0 R] /ToUnicode \(first + 4) 0 R >>", nil),
            ("<< /Type /Font /Subtype \(cidFont) /BaseFont /\(name) /CIDSystemInfo << /Registry (Adobe) /Ordering (Identity) /Supplement 0 >>"
                + " /FontDescriptor \(first + 2) 0 R /DW 1000 /W [\(w)] >>", nil),
            ("<< /Type /FontDescriptor /FontName /\(name) /Flags \(flags) /FontBBox [\(bbox)] /ItalicAngle \(PDFSink.number(program.italicAngle))"
                + " /Ascent \(program.ascent) /Descent \(program.descent) /CapHeight \(program.capHeight) /StemV 80 \(fontFile) >>", nil),
            (fileDictionary, program.data),
            ("", cmap),
        ]
    }

    /// The ToUnicode CMap: each glyph with a text to its UTF-16 (big-endian) code units.
    func toUnicode(_ glyphs: [UInt32]) -> String {
        let mapped = glyphs.filter { !(texts[$0] ?? "").isEmpty }
        var text = """
            /CIDInit /ProcSet findresource begin
            12 dict begin
            begincmap
            /CIDSystemInfo << /Registry (Adobe) /Ordering (UCS) /Supplement 0 >> def
            /CMapName /Adobe-Identity-UCS def
            /CMapType 2 def
            1 begincodespacerange
            <0000> <FFFF>
            endcodespacerange

            """
        // At most 100 entries a block, as the CMap format wants.
        var start = 0
        while start < mapped.count {
            let block = mapped[start..<min(mapped.count, start + 100)]
            text += "\(block.count) beginbfchar\n"
            for glyph in block { text += "<" + Self.hex(UInt16(clamping: glyph)) + "> <" + (texts[glyph] ?? "").utf16.map(Self.hex).joined() + ">\n" }
            text += "endbfchar\n"
            start += 100
        }
        text += "endcmap\nCMapName currentdict /CMap defineresource pop\nend\nend\n"
        return text
    }

    /// Four hexadecimal digits, capitals.
    static func hex(_ value: UInt16) -> String {
        let digits = Array("0123456789ABCDEF")
        return String([digits[Int(value >> 12)], digits[Int(value >> 8 & 15)], digits[Int(value >> 4 & 15)], digits[Int(value & 15)]])
    }
}

extension PDFSink {
    /// Draws `texts` on the current page as PDF text over its image: each line's runs of one
    /// face as `TJ` arrays of glyph indices, each glyph where HarfBuzz placed it (the array's
    /// adjustments are the differences from the font's own advances). A line of left-to-right
    /// runs only is marked with its text (`/ActualText`: its exact characters, colour emoji
    /// drawn as pixels included); a line with right-to-left runs is left to the glyphs'
    /// ToUnicode map, since readers take any text with right-to-left letters to be in
    /// visual order and reverse it (an `/ActualText` in reading order came out backwards in
    /// pdftotext). Synthetic bold is filled and stroked.
    public func place(_ texts: [PageText]) throws(ImageEncodingError) {
        var content = ""
        for text in texts {
            let size = text.typesetter.fontSize(of: text.layout)
            guard size > 0 else { continue }
            let points = size * pageScale
            let color = text.color
            let alpha = Double(color.alpha) / 255
            let rgb = [color.red, color.green, color.blue].map { Self.number((Double($0) * alpha + 255 * (1 - alpha)) / 255) }.joined(separator: " ")
            for line in text.typesetter.outlines(text.layout) where !line.glyphs.isEmpty {
                let marked = !line.glyphs.contains(where: \.isRightToLeft) && !line.text.unicodeScalars.contains(where: Self.isRightToLeft)
                if marked { content += "/Span << /ActualText <FEFF" + line.text.utf16.map(PDFFont.hex).joined() + "> >> BDC\n" }
                content += "BT\n\(rgb) rg\n"
                var current = (font: -1, bold: false)
                var i = line.glyphs.startIndex
                while i < line.glyphs.endIndex {
                    let first = line.glyphs[i]
                    var end = i + 1
                    while end < line.glyphs.endIndex, line.glyphs[end].face == first.face, line.glyphs[end].y == first.y,
                        line.glyphs[end].isEmboldened == first.isEmboldened
                    {
                        end += 1
                    }
                    let run = line.glyphs[i..<end]
                    let index = font(text.typesetter, face: first.face)
                    fonts[index].use(run)
                    pageFonts.insert(index)
                    if current.font != index { content += "/F\(index) \(Self.number(points)) Tf\n" }
                    if current.bold != first.isEmboldened || current.font == -1 {
                        content += first.isEmboldened
                            ? "2 Tr \(Self.number(Typesetter.emboldening(size: size) * pageScale)) w \(rgb) RG\n" : "0 Tr\n"
                    }
                    current = (index, first.isEmboldened)
                    let x = pageLeft + (Double(text.origin.x) + first.x) * pageScale
                    let y = pageSize.height - (Double(text.origin.y) + first.y) * pageScale
                    content += "1 0 0 1 \(Self.number(x)) \(Self.number(y)) Tm\n["
                    for k in run.indices {
                        content += "<" + PDFFont.hex(UInt16(clamping: run[k].glyph)) + ">"
                        guard k + 1 < end else { continue }
                        // Where the font's advance would put the next glyph, less where it goes.
                        let advance = Double(fonts[index].widths[run[k].glyph] ?? 1000)
                        let adjustment = advance - (run[k + 1].x - run[k].x) * 1000 / size
                        if abs(adjustment) >= 0.005 { content += " \(Self.number(adjustment)) " }
                    }
                    content += "] TJ\n"
                    i = end
                }
                content += marked ? "ET\nEMC\n" : "ET\n"
            }
        }
        pageText += content
    }

    /// Writes object `number`, a stream of `bytes` deflated (`/FlateDecode`), with `entries`
    /// in its dictionary besides its length and filter.
    func writeStream(_ number: Int, _ bytes: [UInt8], entries: String = "") throws(ImageEncodingError) {
        guard let output else { throw .rowMismatch(path: destination, message: "no PDF was started") }
        var compressed: UnsafeMutablePointer<UInt8>? = nil
        var size = 0
        let result = mosaic_flate_compress(bytes, bytes.count, 6, &compressed, &size)
        defer { free(compressed) }
        guard result.status == MOSAIC_OK, let compressed else {
            throw .font(path: destination, message: withUnsafeBytes(of: result.message) { String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self) })
        }
        try object(number) { () throws(ImageEncodingError) in
            try output.write("<< " + (entries.isEmpty ? "" : entries + " ") + "/Length \(size) /Filter /FlateDecode >>\nstream\n")
            try output.write(Array(UnsafeBufferPointer(start: compressed, count: size)))
            try output.write("\nendstream\n")
        }
    }

    /// A letter of a right-to-left script (Hebrew, Arabic, Syriac, Thaana, N'Ko...): bidi
    /// classes R and AL.
    static func isRightToLeft(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.value {
        case 0x0590...0x08FF, 0xFB1D...0xFDFF, 0xFE70...0xFEFF, 0x10800...0x10FFF, 0x1E800...0x1EFFF: return true
        default: return false
        }
    }

    /// The index of the font of `face` of `typesetter`, added on first use.
    func font(_ typesetter: Typesetter, face: Int32) -> Int {
        let key = PDFFont.Key(typesetter: ObjectIdentifier(typesetter), face: face)
        if let known = fontIndex[key] { return known }
        fonts.append(PDFFont(typesetter: typesetter, face: face))
        fontIndex[key] = fonts.count - 1
        return fonts.count - 1
    }

    /// Writes every font the pages used, after the last page's objects.
    func writeFonts() throws(ImageEncodingError) {
        guard let output, !fonts.isEmpty else { return }
        offsets += Array(repeating: 0, count: PDFFont.objectCount * fonts.count)
        for (index, font) in fonts.enumerated() {
            let program: FontProgram
            do {
                program = try font.typesetter.fontProgram(face: font.face, glyphs: font.texts.keys.sorted())
            } catch {
                throw .font(path: destination, message: error.description)
            }
            let first = Self.firstObject(ofFont: index, pages: pageCount)
            for (n, (dictionary, stream)) in font.objects(first: first, index: index, program: program).enumerated() {
                if let stream {
                    try writeStream(first + n, stream, entries: dictionary)
                } else {
                    try object(first + n) { () throws(ImageEncodingError) in try output.write(dictionary + "\n") }
                }
            }
        }
    }
}
