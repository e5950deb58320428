import MosaicText
import Testing

/// The glyphs a vector output (a PDF) draws as text: where the raster draws them, and
/// what each reads as (a ToUnicode map is made of these).
@Suite struct OutlineGlyphTests {
    /// The glyphs' texts, in logical order: a left-to-right line's in visual order, a
    /// right-to-left run's reversed.
    static func readBack(_ line: OutlineLine) -> String {
        line.glyphs.map(\.text).joined()
    }

    /// "office" in DejaVu Sans is set with the "ffi" ligature: one glyph for three letters,
    /// which reads as all three; every letter comes back once.
    @Test func aLigatureReadsAsItsLetters() throws {
        let layout = try TestFonts.typesetter.layout("office IMG_0412", style: TestFonts.style(size: 40), width: 2000)
        let lines = TestFonts.typesetter.outlines(layout)
        #expect(lines.count == 1)
        let line = try #require(lines.first)
        #expect(line.glyphs.count < "office IMG_0412".unicodeScalars.count)
        #expect(line.glyphs.contains { $0.text == "ffi" })
        #expect(Self.readBack(line) == "office IMG_0412")
        #expect(line.text == "office IMG_0412")
        // Placed as the raster places them: left to right on one baseline.
        #expect(zip(line.glyphs, line.glyphs.dropFirst()).allSatisfy { $0.x < $1.x && $0.y == $1.y })
        #expect(line.glyphs.allSatisfy { !$0.isRightToLeft && !$0.isEmboldened })
    }

    /// A right-to-left line: its glyphs in visual order, each flagged, their texts read back
    /// (reversed, as a PDF reader reverses right-to-left text) in logical order; a lam-alef
    /// ligature reads as its two letters.
    @Test(arguments: ["שלום עולם", "مرحبا بالعالم", "لا سلام"])
    func rightToLeftReadsBackInLogicalOrder(_ text: String) throws {
        let style = TextStyle(font: .file(TestFonts.regular), size: 30)
        let layout = try TestFonts.world.layout(text, style: style, width: 2000)
        let line = try #require(TestFonts.world.outlines(layout).first)
        #expect(line.isRightToLeft)
        #expect(line.glyphs.filter { !$0.text.trimmingSpaces.isEmpty }.allSatisfy { $0.isRightToLeft })
        let visual = line.glyphs.map { String(String.UnicodeScalarView($0.text.unicodeScalars.reversed())) }.joined()
        #expect(String(String.UnicodeScalarView(visual.unicodeScalars.reversed())) == text)
    }

    /// A colour emoji stays pixels: it is not among the outline glyphs, and the raster with
    /// `outlines: false` draws it (and nothing else).
    @Test func colourEmojiStayPixels() throws {
        let style = TextStyle(font: .file(TestFonts.regular), size: 30)
        let layout = try TestFonts.world.layout("A\u{1F600}\u{FE0F}B", style: style, width: 2000)
        let line = try #require(TestFonts.world.outlines(layout).first)
        #expect(line.glyphs.map(\.text) == ["A", "B"])
        #expect(line.text == "A\u{1F600}\u{FE0F}B")
        var colourOnly = CoverageMask(width: 200, height: layout.height)
        TestFonts.world.draw(layout, into: &colourOnly, x: 0, y: 0, outlines: false)
        #expect(colourOnly.pixels.allSatisfy { $0 == 0 })
        #expect(colourOnly.colors.contains { $0 != 0 })
        var all = CoverageMask(width: 200, height: layout.height)
        TestFonts.world.draw(layout, into: &all, x: 0, y: 0)
        #expect(all.pixels.contains { $0 != 0 })
    }

    /// The subset keeps the glyphs' indices and reads as a font again.
    @Test func aSubsetKeepsTheGlyphIndices() throws {
        let layout = try TestFonts.typesetter.layout("IMG_0412 東京", style: TestFonts.style(size: 20), width: 2000)
        let line = try #require(TestFonts.typesetter.outlines(layout).first)
        for face in Set(line.glyphs.map(\.face)) {
            let glyphs = line.glyphs.filter { $0.face == face }.map(\.glyph)
            let program = try TestFonts.typesetter.fontProgram(face: face, glyphs: glyphs)
            #expect(!program.isCFF)
            #expect(program.data.starts(with: [0, 1, 0, 0]) || program.data.starts(with: Array("true".utf8)))
            #expect(glyphs.allSatisfy { (program.widths[$0] ?? 0) > 0 })
            #expect(!program.postScriptName.isEmpty && program.ascent > 0 && program.descent < 0)
            // Smaller than the font file (WenQuanYi's collection is 5 MB).
            #expect(program.data.count < 1_000_000)
        }
    }
}

extension String {
    fileprivate var trimmingSpaces: String { String(unicodeScalars.filter { $0 != " " }.map(Character.init)) }
}
