import Foundation
import Testing

@testable import MosaicText

/// Shaping, bidirectional order, line breaking by UAX #14 and colour emoji (issue 28).
/// Before: glyphs in memory order from each font's character map, breaks at spaces and
/// between CJK characters only, emoji as boxes.
@Suite struct ScriptTests {
    let t = TestFonts.world

    /// The glyph a face's character map gives `scalar` (the unshaped, isolated form).
    func cmapGlyph(_ scalar: Unicode.Scalar, in file: String) throws -> UInt32 {
        try t.lock.withLock { _ in try t.fonts.openFace(path: file, index: 0).glyphIndex(scalar) }
    }

    @Test func hebrewReadsRightToLeft() throws {
        let layout = try t.layout("עברית", style: TestFonts.style(size: 16, alignment: .start), width: 300)
        let line = try #require(layout.lines.first)
        #expect(line.isRightToLeft && line.text == "עברית")
        // ע, the first letter read, is drawn last from the left: rightmost.
        let ayin = try cmapGlyph("ע", in: TestFonts.regular)
        #expect(line.glyphs.last?.glyph == ayin && line.glyphs.first?.glyph != ayin)
        // The default alignment, start, is the right edge of a right-to-left paragraph.
        #expect(line.offset == 300 - line.width)
        let left = try t.layout("עברית", style: TestFonts.style(size: 16, alignment: .left), width: 300)
        #expect(left.lines[0].offset == 0)
    }

    @Test func mixedHebrewAndEnglishFollowTheAlgorithm() throws {
        // Paragraph right to left (its first strong letter is Hebrew): visually "English-ו עברית".
        let line = try #require(try t.layout("עברית ו-English", style: TestFonts.style(size: 16), width: 400).lines.first)
        let e = try cmapGlyph("E", in: TestFonts.regular), ayin = try cmapGlyph("ע", in: TestFonts.regular)
        let vav = try cmapGlyph("ו", in: TestFonts.regular)
        let x = { (glyph: UInt32) in line.glyphs.first { $0.glyph == glyph }?.x ?? -1 }
        #expect(x(e) >= 0 && x(e) < x(vav) && x(vav) < x(ayin), "E \(x(e)), vav \(x(vav)), ayin \(x(ayin))")
        #expect(line.text == "עברית ו-English")  // the map keeps logical order
        // Forced left to right, the same text starts with Hebrew at the left.
        let ltr = try #require(try t.layout("עברית ו-English", style: TestFonts.style(size: 16, alignment: .start, direction: .ltr), width: 400).lines.first)
        #expect(!ltr.isRightToLeft && ltr.offset == 0)
        let xl = { (glyph: UInt32) in ltr.glyphs.first { $0.glyph == glyph }?.x ?? -1 }
        #expect(xl(ayin) < xl(e))
        // Forced right to left, Latin text aligns right.
        let rtl = try #require(try t.layout("abc", style: TestFonts.style(size: 16, alignment: .start, direction: .rtl), width: 400).lines.first)
        #expect(rtl.isRightToLeft && rtl.offset == 400 - rtl.width)
    }

    @Test func arabicLettersJoin() throws {
        // Three behs: initial, medial and final forms, none the isolated one.
        let line = try #require(try t.layout("ببب", style: TestFonts.style(size: 20), width: 300).lines.first)
        let isolated = try cmapGlyph("ب", in: TestFonts.regular)
        #expect(line.glyphs.count == 3 && line.glyphs.allSatisfy { $0.glyph != isolated }, "\(line.glyphs.map(\.glyph)) vs isolated \(isolated)")
    }

    /// DejaVu Sans has keheh (ک) but not heh goal (ہ) nor yeh barree (ے): before, the Urdu
    /// word took its letters from two faces and they did not join.
    @Test func aWordThePrimaryFaceCannotSetWholeTakesOneFace() throws {
        let line = try #require(try t.layout("کہے", style: TestFonts.style(size: 20), width: 300).lines.first)
        #expect(Set(line.glyphs.map(\.face)).count == 1, "faces \(line.glyphs.map(\.face))")
        // A word the primary face has stays in it.
        let arabic = try #require(try t.layout("ببب کہے", style: TestFonts.style(size: 20), width: 300).lines.first)
        #expect(Set(arabic.glyphs.map(\.face)).count == 2)
    }

    @Test func devanagariConjunctsAndLatinLigatures() throws {
        let hindi = TextStyle(font: .file(TestFonts.noto("NotoSansDevanagari-Regular")), size: 20)
        // क्ष: ka, virama, ssa, one conjunct glyph.
        let conjunct = try #require(try t.layout("क्ष", style: hindi, width: 300).lines.first)
        #expect(conjunct.glyphs.count == 1, "\(conjunct.glyphs.map(\.glyph))")
        // The vowel sign i (ि) is written before the consonant it follows: placed left of it.
        let ki = try #require(try t.layout("कि", style: hindi, width: 300).lines.first)
        let ka = try cmapGlyph("क", in: TestFonts.noto("NotoSansDevanagari-Regular"))
        #expect(ki.glyphs.count == 2 && ki.glyphs[1].glyph == ka)
        // "ffi" is one glyph in Noto Sans.
        let latin = TextStyle(font: .file(TestFonts.noto("NotoSans-Regular")), size: 20)
        #expect(try t.layout("ffi", style: latin, width: 300).lines[0].glyphs.count == 1)
    }

    static let thaiWords = ["ภาพ", "เงา", "ของ", "ม้า", "ที่", "กำลัง", "วิ่ง", "บน", "พื้น", "หลัง"]

    @Test func thaiWrapsAtWordBoundaries() throws {
        let text = Self.thaiWords.joined()
        let layout = try t.layout(text, style: TestFonts.style(size: 16), width: 110)
        #expect(layout.lines.count > 1)
        #expect(layout.lines.map(\.text).joined() == text)
        #expect(layout.lines.allSatisfy { $0.width <= 110 })
        // Every line is whole words (ICU's Thai dictionary), never a word cut.
        var boundaries: Set<Int> = [0]
        var offset = 0
        for word in Self.thaiWords {
            offset += word.unicodeScalars.count
            boundaries.insert(offset)
        }
        var position = 0
        for line in layout.lines {
            position += line.text.unicodeScalars.count
            #expect(boundaries.contains(position), "a line ends inside a word: \(layout.lines.map(\.text))")
        }
    }

    @Test func anEmojiIsDrawnInColour() throws {
        let layout = try t.layout("🚀 go", style: TestFonts.style(size: 24), width: 300)
        var mask = CoverageMask(width: 300, height: layout.height)
        t.draw(layout, into: &mask, x: 0, y: 0)
        try #require(!mask.colors.isEmpty, "no colour glyph drawn")
        var coloured = 0
        for i in stride(from: 0, to: mask.colors.count, by: 4) where mask.colors[i + 3] > 128 {
            let r = Int(mask.colors[i]), g = Int(mask.colors[i + 1]), b = Int(mask.colors[i + 2])
            if max(r, g, b) - min(r, g, b) > 40 { coloured += 1 }
        }
        #expect(coloured > 50, "\(coloured) coloured pixels")
        // The rocket is scaled to the caption: no wider than about an em and a half.
        let bounds = try #require(mask.inkBounds)
        #expect(bounds.height <= layout.height + 1)
        #expect(t.fonts.missingCharacters.isEmpty)
    }

    /// Before: the emoji font given as the font had its 109 px strike's line height (136 px
    /// lines for 14 px text).
    @Test func anEmojiFontAsTheFontHasLinesOfItsSize() throws {
        let style = TextStyle(font: .file(TestFonts.noto("NotoColorEmoji")), size: 14)
        let layout = try t.layout("🚀🌍", style: style, width: 300)
        #expect((14...22).contains(layout.lineHeight), "line height \(layout.lineHeight)")
        var mask = CoverageMask(width: 300, height: layout.height)
        t.draw(layout, into: &mask, x: 0, y: 0)
        #expect(!mask.colors.isEmpty)
    }

    @Test func rightToLeftEllipsisAtTheLogicalEnd() throws {
        let text = "השדה העמוק של האבל ועוד הרבה מילים"
        let layout = try t.layout(text, style: TestFonts.style(size: 14, lines: 1), width: 120)
        let line = try #require(layout.lines.first)
        #expect(layout.isTruncated && line.text.hasSuffix("…") && text.hasPrefix(String(line.text.dropLast())))
        // The logical end of a right-to-left line is its left: the ellipsis is drawn first.
        let ellipsis = try cmapGlyph("…", in: TestFonts.regular)
        #expect(line.glyphs.first?.glyph == ellipsis && line.width <= 120)
    }

    @Test func scriptsMeasureAsTheyAreDrawn() throws {
        let texts = [
            "رائدة الفضاء إيلين كولينز ببدلة الإطلاق البرتقالية", "השדה העמוק של האבל (Hubble, 1995)", "खिड़की के पास बैठी एक धारीदार बिल्ली",
            Self.thaiWords.joined(), "🚀 Launch 🌍 world ✨", "عربي English עברית 123",
        ]
        for text in texts {
            for width in stride(from: 40, through: 260, by: 55) {
                for bold in [false, true] {
                    let layout = try t.layout(text, style: TestFonts.style(size: 15, bold: bold, lines: 3), width: width)
                    var mask = CoverageMask(width: width + 40, height: layout.height + 40)
                    t.draw(layout, into: &mask, x: 20, y: 20)
                    let ink = try #require(mask.inkBounds)
                    #expect(layout.lines.allSatisfy { $0.width <= width }, "\(text) at \(width)")
                    #expect(ink.x >= 18 && ink.x + ink.width <= 20 + width + 2, "\(text) at \(width): ink \(ink)")
                    #expect(ink.y >= 14 && ink.y + ink.height <= 20 + layout.height + 6, "\(text) at \(width): ink \(ink)")
                }
            }
        }
    }

    /// Before: a caption of only a joiner or a direction mark had a line (a blank strip on
    /// the card).
    @Test func invisibleCharactersAloneHaveNoLines() throws {
        for text in ["\u{200D}", "\u{FE0F}\u{200E}", " \u{202E}\u{202C} ", "\u{2060}\n\u{FEFF}"] {
            #expect(try t.layout(text, style: TestFonts.style(), width: 100).lines.isEmpty, "\(text.unicodeScalars.map(\.value))")
        }
        #expect(try t.layout("\u{200D}a", style: TestFonts.style(), width: 100).lines.count == 1)
    }

    /// Before: U+2028 ended the line (ICU) and, in a face without it (Noto Sans Thai), was
    /// drawn as a missing-glyph box.
    @Test func aLineSeparatorEndsTheLineAndDrawsNothing() throws {
        let library = try FontLibrary(systemFallback: false)
        let typesetter = Typesetter(fonts: library)
        let style = TextStyle(font: .file(TestFonts.noto("NotoSansThai-Regular")), size: 13)
        let layout = try typesetter.layout("ไทย\u{2028}ลาว\u{2029}ไทย", style: style, width: 300)
        #expect(layout.lines.map(\.text) == ["ไทย\u{2028}", "ลาว\u{2029}", "ไทย"])
        #expect(library.missingCharacters.isEmpty)
    }

    @Test func aRepeatedCaptionIsSetOnce() throws {
        let typesetter = Typesetter(fonts: try FontLibrary(systemFallback: false))
        let style = TestFonts.style()
        let first = try typesetter.layout("IMG_0001.jpg", style: style, width: 120)
        let cached = typesetter.lock.withLock { _ in typesetter.layouts.count }
        for _ in 0..<100 { #expect(try typesetter.layout("IMG_0001.jpg", style: style, width: 120) == first) }
        #expect(typesetter.lock.withLock { _ in typesetter.layouts.count } == cached)
        _ = try typesetter.layout("IMG_0002.jpg", style: style, width: 120)
        #expect(typesetter.lock.withLock { _ in typesetter.layouts.count } == cached + 1)
    }
}

@Suite struct MissingScriptTests {
    /// Before: "no font has these characters (drawn as boxes): U+1200 U+1201 U+E000 U+1F600".
    @Test func missingCharactersNameTheirScriptAndPackage() {
        let groups = MissingScript.grouping(["\u{1200}", "\u{E000}", "\u{1F600}", "\u{1201}", "\u{4E2D}"])
        #expect(groups.map(\.description) == [
            "Ethiopic U+1200 U+1201 (Debian: fonts-noto-core)", "private use U+E000", "Emoji U+1F600 (Debian: fonts-noto-color-emoji)",
            "Han U+4E2D (Debian: fonts-noto-cjk)",
        ])
    }
}
