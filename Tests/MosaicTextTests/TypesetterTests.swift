import MosaicTestSupport
import Foundation
import MosaicLayout
import MosaicSync
import MosaicText
import Testing

@Suite struct LineBreakTests {
    let t = TestFonts.typesetter

    func lines(_ text: String, width: Int, style: TextStyle = TestFonts.style()) throws -> [String] {
        try t.layout(text, style: style, width: width).lines.map(\.text)
    }

    @Test func englishBreaksAtSpaces() throws {
        #expect(try lines("The quick brown fox jumps over the lazy dog", width: 120) == ["The quick brown", "fox jumps over", "the lazy dog"])
        // Wide enough: one line, no trailing space counted.
        let one = try t.layout("The quick brown fox ", style: TestFonts.style(), width: 400)
        #expect(one.lines.map(\.text) == ["The quick brown fox"])
    }

    @Test func chineseBreaksBetweenCharactersButNotBeforeClosingPunctuation() throws {
        let result = try lines("身穿橙色发射服的艾琳·柯林斯，身后是航天飞机模型。", width: 100)
        #expect(result == ["身穿橙色发射服", "的艾琳·柯林斯，", "身后是航天飞机", "模型。"])
        // Every width that holds three characters (narrower, a line of one character may
        // have to start with punctuation rather than overflow): no line starts with
        // closing punctuation, none ends with opening punctuation.
        let text = "他说：「你好，世界！」（这是测试。）然后【继续】《书名》结束。"
        for width in stride(from: 40, through: 200, by: 3) {
            for line in try lines(text, width: width) {
                #expect(!"，。、！？；：）」』】》".contains(line.first!), "width \(width): \(line)")
                #expect(!"（「『【《".contains(line.last!), "width \(width): \(line)")
            }
        }
    }

    @Test func asciiPunctuationStaysWithItsWord() throws {
        for width in stride(from: 44, through: 160, by: 2) {
            for line in try lines("Hello, world! (A test) [of breaks]; done: yes.", width: width) {
                #expect(!",.;:!?)]".contains(line.first!), "width \(width): \(line)")
                #expect(!"([".contains(line.last!), "width \(width): \(line)")
            }
        }
    }

    @Test func mixedEnglishAndChinese() throws {
        let result = try lines("Hubble 哈勃深空 deep field 一小片天空", width: 90)
        #expect(result.joined().replacingOccurrences(of: " ", with: "") == "Hubble哈勃深空deepfield一小片天空")
        for line in result { #expect(try t.layout(line, style: TestFonts.style(), width: 1000).lines[0].width <= 90) }
    }

    @Test func hyphensAndLongWords() throws {
        #expect(try lines("well-known words", width: 50).first == "well-")
        // A word longer than the line is broken between characters; nothing exceeds it.
        let layout = try t.layout("Supercalifragilisticexpialidocious", style: TestFonts.style(), width: 60)
        #expect(layout.lines.count == 4)
        #expect(layout.lines.allSatisfy { $0.width <= 60 })
        #expect(layout.lines.map(\.text).joined() == "Supercalifragilisticexpialidocious")
    }

    @Test func explicitNewlines() throws {
        #expect(try lines("one\ntwo\r\n\nfour\n", width: 300) == ["one", "two", "", "four"])
    }

    @Test func ellipsisThatFits() throws {
        let text = "Eileen Collins in her orange launch suit, with a model shuttle behind her."
        let layout = try t.layout(text, style: TestFonts.style(lines: 2), width: 150)
        #expect(layout.isTruncated)
        #expect(layout.lines.map(\.text) == ["Eileen Collins in her", "orange launch suit,…"])
        #expect(layout.lines.allSatisfy { $0.width <= 150 })
        // Text that fits is not cut.
        let short = try t.layout("Astronaut", style: TestFonts.style(lines: 1), width: 150)
        #expect(!short.isTruncated && short.lines.map(\.text) == ["Astronaut"])
        // Even a narrow line keeps the ellipsis.
        let narrow = try t.layout("Wonderful", style: TestFonts.style(lines: 1), width: 20)
        #expect(narrow.lines.count == 1 && narrow.lines[0].text.hasSuffix("…") && narrow.lines[0].width <= 20)
    }

    @Test func emptyAndWhitespace() throws {
        for text in ["", " ", "   \n  ", "\n"] {
            let layout = try t.layout(text, style: TestFonts.style(), width: 100)
            #expect(layout.lines.isEmpty && layout.height == 0, "\(text.debugDescription)")
        }
    }

    @Test func tenThousandCharacters() throws {
        var g = SeededGenerator(seed: 7)
        let words = ["photo", "sheet", "哈勃", "深空", "mosaic", "，", "masonry。", "waterfall", "瀑布流"]
        var text = ""
        while text.count < 10_000 { text += words.randomElement(using: &g)! + (Bool.random(using: &g) ? " " : "") }
        let all = try t.layout(text, style: TestFonts.style(), width: 240)
        #expect(all.lines.count > 200)
        #expect(all.lines.allSatisfy { $0.width <= 240 })
        let cut = try t.layout(text, style: TestFonts.style(lines: 3), width: 240)
        #expect(cut.lines.count == 3 && cut.isTruncated)
    }

    @Test func alignment() throws {
        let left = try t.layout("Coins", style: TestFonts.style(alignment: .left), width: 200)
        let center = try t.layout("Coins", style: TestFonts.style(alignment: .center), width: 200)
        let right = try t.layout("Coins", style: TestFonts.style(alignment: .right), width: 200)
        let w = left.lines[0].width
        #expect(left.lines[0].offset == 0)
        #expect(center.lines[0].offset == (200 - w) / 2)
        #expect(right.lines[0].offset == 200 - w)
    }

    @Test func kerningFromTheFont() throws {
        let pair = try t.layout("AV", style: TestFonts.style(size: 40), width: 1000).lines[0].width
        let a = try t.layout("A", style: TestFonts.style(size: 40), width: 1000).lines[0].width
        let v = try t.layout("V", style: TestFonts.style(size: 40), width: 1000).lines[0].width
        #expect(pair < a + v - 1)
    }

    @Test func lineHeightFollowsTheFontAndSpacing() throws {
        let normal = try t.layout("x", style: TestFonts.style(size: 13), width: 100).lineHeight
        var spaced = TestFonts.style(size: 13)
        spaced.lineSpacing = 1.5
        #expect(try t.layout("x", style: spaced, width: 100).lineHeight == Int((Double(normal) * 1.5).rounded()))
        #expect(normal == 17)  // DejaVu Sans at 13 px: FreeType's scaled line height
    }
}

@Suite struct MeasureAndDrawTests {
    let t = TestFonts.typesetter

    /// Measured height equals drawn height: for 1,000 random strings the ink stays within
    /// the measured box, and its last line reaches the box's last line.
    @Test func measuredIsDrawn() throws {
        var g = SeededGenerator(seed: 2026)
        let pieces = ["Astronaut", "the", "moon", "哈勃", "深空", "，", "。", "(", ")", "café", "Ångström", "Q", "y", "—", "一小片天空中的成千上万个星系", "fox", "\n"]
        for n in 0..<1000 {
            var text = ""
            for _ in 0..<Int.random(in: 1...12, using: &g) { text += pieces.randomElement(using: &g)! + (Bool.random(using: &g) ? " " : "") }
            let width = Int.random(in: 30...300, using: &g)
            let style = TestFonts.style(size: Double(Int.random(in: 9...24, using: &g)), bold: Bool.random(using: &g), lines: Bool.random(using: &g) ? Int.random(in: 1...4, using: &g) : nil)
            let layout = try t.layout(text, style: style, width: width)
            var mask = CoverageMask(width: width + 40, height: layout.height + 40)
            t.draw(layout, into: &mask, x: 20, y: 20)
            guard let ink = mask.inkBounds else {
                #expect(layout.lines.allSatisfy { $0.text.allSatisfy { $0.isWhitespace || $0 == "—" } }, "case \(n): no ink for \(text.debugDescription)")
                continue
            }
            #expect(ink.y >= 20 && ink.y + ink.height <= 20 + layout.height, "case \(n): ink \(ink) outside 0..<\(layout.height) for \(text.debugDescription)")
            #expect(ink.x >= 20 && ink.x + ink.width <= 20 + width + 1, "case \(n): ink \(ink) wider than \(width)")
            #expect(ink.y + ink.height > 20 + layout.height - layout.lineHeight || layout.lines.last!.text.allSatisfy(\.isWhitespace), "case \(n)")
        }
    }

    @Test func captionsMeasureAsTheyAreSet() throws {
        let style = CaptionStyle(title: TestFonts.style(size: 14, bold: true, lines: 1), description: TestFonts.style(size: 12, lines: 3), gap: 3)
        let captions = try CaptionTypesetter(typesetter: t, style: style)
        let caption = Caption(title: "Hubble Deep Field", description: "Thousands of galaxies in a tiny patch of sky. 一小片天空中的成千上万个星系。")
        let set = captions.layout(caption, width: 150)
        #expect(captions.height(of: caption, width: 150) == set.height)
        #expect(set.height == set.title!.height + 3 + set.description!.height)
        #expect(set.title!.lines.count == 1 && set.description!.lines.count == 3)
        #expect(captions.height(of: Caption(), width: 150) == 0)
        #expect(captions.height(of: Caption(title: "Only a title"), width: 150) == set.title!.height)
        // The horizontal block: every line the styles allow.
        #expect(captions.reservedHeight(of: caption) == set.title!.lineHeight + 3 + 3 * set.description!.lineHeight)
    }

    /// A bold style in a face without a bold style (WenQuanYi Micro Hei) is emboldened by
    /// FreeType, measured and drawn alike (before: Chinese in a bold title was regular, so
    /// "竖版照片（EXIF 6）" was half bold).
    @Test func chineseInABoldStyleIsEmboldened() throws {
        let regular = TextStyle(font: .file(TestFonts.regular), size: 20)
        var bold = regular
        bold.bold = true
        let r = try t.layout("竖版照片", style: regular, width: 1000), b = try t.layout("竖版照片", style: bold, width: 1000)
        #expect(b.lines[0].width > r.lines[0].width, "\(b.lines[0].width) vs \(r.lines[0].width)")
        func ink(_ layout: TextLayout) -> (sum: Int, bounds: (x: Int, y: Int, width: Int, height: Int)?) {
            var mask = CoverageMask(width: layout.lines[0].width + 40, height: layout.height + 40)
            t.draw(layout, into: &mask, x: 20, y: 20)
            return (mask.pixels.reduce(0) { $0 + Int($1) }, mask.inkBounds)
        }
        let (regularInk, _) = ink(r), (boldInk, bounds) = ink(b)
        #expect(Double(boldInk) > 1.15 * Double(regularInk), "\(boldInk) vs \(regularInk)")
        // Drawn within what was measured.
        let box = try #require(bounds)
        #expect(box.x >= 20 && box.x + box.width <= 20 + b.lines[0].width + 1)
        // Latin in the same bold style comes from DejaVu Sans Bold, not emboldened twice.
        let latin = try t.layout("EXIF", style: bold, width: 1000), real = try t.layout("EXIF", style: TestFonts.style(size: 20, bold: true), width: 1000)
        #expect(latin.lines[0].width == real.lines[0].width)
    }

    @Test func fallbackGivesChineseAFace() throws {
        let layout = try t.layout("中文", style: TestFonts.style(size: 20), width: 500)
        // Full-width ideographs from WenQuanYi: about one em each.
        #expect((38...42).contains(layout.lines[0].width))
        var mask = CoverageMask(width: 60, height: layout.height)
        t.draw(layout, into: &mask, x: 0, y: 0)
        #expect(mask.pixels.filter { $0 > 128 }.count > 60)
        #expect(t.fonts.missingCharacters.isEmpty)
    }

    @Test func aCharacterNoFaceHasIsABoxAndReported() throws {
        let library = try FontLibrary(fallbacks: [], systemFallback: false)
        let typesetter = Typesetter(fonts: library)
        let layout = try typesetter.layout("a\u{E000}b", style: TestFonts.style(), width: 200)
        #expect(layout.lines[0].width > 10)
        #expect(library.missingCharacters == ["\u{E000}"])
    }
}

@Suite struct FontErrorTests {
    /// Before: a FIFO given as the font hung the run (FreeType waited for a writer), and a
    /// folder was "not a font FreeType can read (error 2)".
    @Test func aFontThatIsNotAFileIsRefused() throws {
        let fifo = FileManager.default.temporaryDirectory.appendingPathComponent("mosaic-font-\(UUID().uuidString).ttf").path
        try #require(mkfifo(fifo, 0o600) == 0)
        defer { unlink(fifo) }
        let t = Typesetter(fonts: try FontLibrary(systemFallback: false))
        for path in [fifo, FileManager.default.temporaryDirectory.path, "/dev/zero"] {
            #expect(throws: TextError.notARegularFile(path: path)) { try t.layout("x", style: TextStyle(font: .file(path)), width: 10) }
        }
        #expect(TextError.notARegularFile(path: fifo).description == "\(fifo): not a regular file, so not a font")
    }

    @Test func badFontsAndSizes() throws {
        let t = TestFonts.typesetter
        #expect(throws: TextError.fontNotFound(path: "/no/such/font.ttf")) {
            try t.layout("x", style: TextStyle(font: .file("/no/such/font.ttf")), width: 10)
        }
        let notAFont = FileManager.default.temporaryDirectory.appendingPathComponent("mosaic-not-a-font-\(getpid()).ttf").path
        _ = FileManager.default.createFile(atPath: notAFont, contents: Data("plain text".utf8))
        #expect(throws: TextError.notAFont(path: notAFont, code: 2)) {
            try t.layout("x", style: TextStyle(font: .file(notAFont)), width: 10)
        }
        for size in [0, -3, Double.infinity] {
            #expect(throws: TextError.invalidFontSize(size)) { try t.layout("x", style: TestFonts.style(size: size), width: 10) }
        }
        #expect {
            try t.layout("x", style: TestFonts.style(size: .nan), width: 10)
        } throws: { error in
            if case .invalidFontSize(let size) = error as? TextError { return size.isNaN }
            return false
        }
    }

    @Test func sourcesParse() {
        #expect(FontSource.parse("DejaVu Sans") == .family("DejaVu Sans"))
        #expect(FontSource.parse("fonts/x.ttf") == .file("fonts/x.ttf"))
        #expect(FontSource.parse("Inter.OTF") == .file("Inter.OTF"))
    }

    @Test func familiesResolveThroughFontconfig() throws {
        let library = try FontLibrary()
        let t = Typesetter(fonts: library)
        let layout = try t.layout("Hello 你好", style: TextStyle(font: .family("sans-serif"), size: 13), width: 300)
        #expect(layout.lines.count == 1 && layout.lines[0].width > 40)
    }
}

/// Typesetters that share a font library take its lock: laying out and drawing on several
/// threads at once is safe (the CI's ThreadSanitizer pass checks this test).
@Suite struct SharedLibraryTests {
    @Test func twoTypesettersShareOneLibrary() throws {
        let library = try FontLibrary(fallbacks: [.file(TestFonts.cjk)], systemFallback: false)
        let typesetters = [Typesetter(fonts: library), Typesetter(fonts: library)]
        let style = TextStyle(font: .file(TestFonts.regular), size: 13)
        let expected = try typesetters[0].layout("Shared 共享 library", style: style, width: 120)
        let results = Locked([TextLayout?](repeating: nil, count: 16))
        DispatchQueue.concurrentPerform(iterations: 16) { i in
            let layout = try? typesetters[i % 2].layout("Shared 共享 library", style: style, width: 120)
            if let layout {
                var mask = CoverageMask(width: 120, height: max(1, layout.height))
                typesetters[i % 2].draw(layout, into: &mask, x: 0, y: 0)
            }
            results.withLock { $0[i] = layout }
        }
        #expect(results.withLock { $0 }.allSatisfy { $0 == expected })
        _ = library.missingCharacters
    }
}

/// A named family fontconfig does not have is an error naming what it would have used,
/// not a silent substitute; generic families and installed ones (any of their names,
/// any case) resolve.
@Suite struct FamilyTests {
    @Test func anUnknownFamilyIsAnError() throws {
        let typesetter = Typesetter(fonts: try FontLibrary())
        do {
            try typesetter.validate(TextStyle(font: .family("Helvetica Neue Condensed Black"), size: 12))
            Issue.record("an unknown family was accepted")
        } catch {
            guard case .familyNotFound(let family, let substitute) = error else { Issue.record("\(error)"); return }
            #expect(family == "Helvetica Neue Condensed Black")
            #expect(substitute != nil)
        }
        try typesetter.validate(TextStyle(font: .family("sans-serif"), size: 12))
        try typesetter.validate(TextStyle(font: .family("dejavu sans"), size: 12))
        try typesetter.validate(TextStyle(font: .family("文泉驿微米黑"), size: 12))
    }
}

/// `TextLimits`: every text is set within 4,096 scalars and 30 combining marks on one
/// character (a letter with 75,000 marks aborted inside HarfBuzz; setting took time
/// quadratic in the marks on one letter).
@Suite struct TextLimitTests {
    let t = TestFonts.typesetter
    static let acute = "\u{301}"

    @Test func aLetterKeepsThirtyMarks() throws {
        let style = TestFonts.style()
        let capped = try t.layout("a" + String(repeating: Self.acute, count: 30), style: style, width: 400)
        for marks in [31, 5_000, 75_000] {
            let text = "a" + String(repeating: Self.acute, count: marks)
            let set = try t.layout(text, style: style, width: 400)
            #expect(set.lines.count == 1)
            #expect(set.lines.map(\.text) == capped.lines.map(\.text), "\(marks) marks")
            #expect(set.lines.map(\.width) == capped.lines.map(\.width))
            #expect(TextLimits.cut(of: text) == TextLimits.Cut(scalars: marks + 1, mostMarks: marks))
        }
        #expect(TextLimits.cut(of: "a" + String(repeating: Self.acute, count: 30)) == nil)
        #expect(capped.lines.first?.text.unicodeScalars.count == 31)
    }

    /// At the caps (4,096 scalars, every letter carrying 30 marks) a text is set whole; past
    /// them what is set is the text cut to them. (This runs in milliseconds: the figures
    /// are in docs/guide/trust-inputs.md, not asserted here.)
    @Test func aTextAtTheCapsIsSetAndALongerOneIsCut() throws {
        let style = TestFonts.style(lines: 400)
        let cluster = "a" + String(repeating: Self.acute, count: 30)
        let atCap = String(repeating: cluster + " ", count: TextLimits.maximumScalars / 32)
        #expect(atCap.unicodeScalars.count == TextLimits.maximumScalars)
        #expect(TextLimits.cut(of: atCap) == nil)
        let set = try t.layout(atCap, style: style, width: 300)
        #expect(set.lines.count > 1 && !set.isTruncated)
        #expect(set.lines.map(\.text).joined(separator: " ").unicodeScalars.filter { $0 == "a" }.count == TextLimits.maximumScalars / 32)
        let longer = atCap + String(repeating: "b" + String(repeating: Self.acute, count: 100), count: 50)
        #expect(TextLimits.cut(of: longer) == TextLimits.Cut(scalars: TextLimits.maximumScalars + 50 * 101, mostMarks: 100))
        let cut = try t.layout(longer, style: style, width: 300)
        #expect(cut.lines.map(\.text) == set.lines.map(\.text))
        let plain = String(repeating: "word ", count: 2_000)
        #expect(TextLimits.cut(of: plain) == TextLimits.Cut(scalars: 10_000, mostMarks: 0))
        #expect(try t.layout(plain, style: style, width: 2_000).lines.map(\.text) == t.layout(String(plain.prefix(TextLimits.maximumScalars)), style: style, width: 2_000).lines.map(\.text))
    }

    @Test func theCutIsSaid() {
        #expect(TextLimits.Cut(scalars: 75_001, mostMarks: 75_000).description
            == "it has 75,001 characters and 75,000 combining marks on one character: set with at most 4,096 characters and 30 marks on each")
        #expect(TextLimits.Cut(scalars: 40, mostMarks: 39).description
            == "it has 39 combining marks on one character: set with at most 4,096 characters and 30 marks on each")
    }
}
