import Foundation
#if canImport(FoundationXML)
import FoundationXML
#endif
import Mosaic
import Testing

/// File names as an adversary writes them: control characters, terminal escapes, bidi
/// overrides, bytes that are not UTF-8, placeholders. Each case here reached the terminal
/// raw, was reported wrongly, or was dropped, before.
@Suite struct HostileNameTests {
    static let fixed = InputTrustTests.fixed

    /// Writes a PNG under a name given as bytes (which may not be UTF-8).
    static func writePNG(_ bitmap: Bitmap, folder: String, name: [UInt8]) throws -> String {
        let plain = folder + "/plain-\(UUID().uuidString).png"
        try bitmap.writePNG(to: plain)
        let path = FileNames.string(fromBytes: Array((folder + "/").utf8) + name)
        let renamed = FileNames.withSystemPath(path) { target in rename(plain, target) }
        try #require(renamed == 0)
        return path
    }

    /// ESC (colours, OSC title), BEL, CR, a C1 CSI and U+202E in a name: shown escaped in
    /// the warning and the summary, never written raw. Before: the bytes went out as they
    /// were (the terminal's title changed, the line was overwritten, the text reversed).
    @Test func controlAndBidiCharactersInANameAreEscapedOnTheTerminal() throws {
        let dir = InputTrustTests.folder(samples: ["coins.png"])
        let name = "\u{1B}]0;pwned\u{07}\u{1B}[31mred\r\u{202E}x\u{9B}\n.jpg"
        try Data("junk".utf8).write(to: URL(fileURLWithPath: dir + "/" + name))
        let result = try CLI.run(["render", dir, "-o", dir + "/../hostile.png"] + Self.fixed)
        #expect(result.status == 0, "\(result.stderr)")
        let shown = "\(dir)/\\x1b]0;pwned\\x07\\x1b[31mred\\x0d\\u{202E}x\\u{9B}\\x0a.jpg"
        #expect(result.stderr.contains("warning: \(shown): not a RAW, JPEG, PNG, WebP, GIF, HEIF, AVIF, TIFF, JPEG XL or video file\n"))
        #expect(result.stderr.contains("rendered 1 image, 1 failed: \(shown) -> "))
        for raw in ["\u{1B}", "\u{07}", "\r", "\u{202E}", "\u{9B}"] { #expect(!result.stderr.contains(raw), "\(raw.unicodeScalars.first!.value)") }
        // One line per message: the newline in the name did not start one.
        #expect(result.stderr.split(separator: "\n").count == 2)
    }

    /// The escaping itself: every C0 control, DEL, the C1 range and each bidi control.
    @Test func terminalTextEscapesControlsAndBidiControls() {
        #expect(TerminalText.escaped("a\u{1B}[2Jb\u{7F}\t") == "a\\x1b[2Jb\\x7f\\x09")
        #expect(TerminalText.escaped("\u{80}\u{9F}\u{A0}é") == "\\u{80}\\u{9F}\u{A0}é")
        for bidi: UInt32 in [0x061C, 0x200E, 0x200F, 0x202A, 0x202B, 0x202C, 0x202D, 0x202E, 0x2066, 0x2067, 0x2068, 0x2069] {
            let text = String(Unicode.Scalar(bidi)!)
            #expect(TerminalText.escaped(text) == "\\u{" + String(bidi, radix: 16, uppercase: true) + "}")
        }
        // A name's bytes that are not UTF-8 show as U+FFFD; a backslash stays.
        #expect(TerminalText.escaped(FileNames.string(fromBytes: Array("caf".utf8) + [0xE9] + Array("\\.jpg".utf8))) == "caf\u{FFFD}\\.jpg")
        #expect(TerminalText.escaped("日本語 photo.jpg") == "日本語 photo.jpg")
    }

    /// `ReportedName`: the display string, and the exact bytes in base64 only when the name
    /// is not UTF-8 (the same base64 Foundation writes, for every length mod 3).
    @Test func reportedNamesCarryTheExactBytesOfNamesThatAreNotUTF8() {
        #expect(ReportedName("photos/café.jpg") == ReportedName("photos/café.jpg"))
        #expect(ReportedName("photos/café.jpg").sourceBytes == nil)
        for tail: [UInt8] in [[0xFF], [0xE9, 0xE9], [0x80, 0x81, 0x82], [0xC3]] {
            let bytes = Array("x/caf".utf8) + tail
            let name = ReportedName(FileNames.string(fromBytes: bytes))
            #expect(name.sourceBytes == Data(bytes).base64EncodedString())
            #expect(name.display == "x/caf" + String(repeating: "\u{FFFD}", count: tail.count))
        }
    }

    /// The image map: a name that is not UTF-8 is "source" for people (U+FFFD) and
    /// "sourceBytes" in base64. Before: `\U0010FFFF`-style private-use characters.
    @Test func theMapGivesTheExactBytesOfANameThatIsNotUTF8() throws {
        let dir = CLI.temporaryDirectory()
        let path = try Self.writePNG(Bitmap(width: 4, height: 3, fill: .black), folder: dir, name: Array("caf".utf8) + [0xE9] + Array(".png".utf8))
        let result = try CLI.run(["layout", dir] + InputTrustTests.font)
        #expect(result.status == 0, "\(result.stderr)")
        #expect(!result.stdout.unicodeScalars.contains { $0.value >= 0x10FF00 })
        let card = try #require(try InputTrustTests.map(result.stdout).first { $0["kind"] as? String == "card" })
        #expect(card["source"] as? String == dir + "/caf\u{FFFD}.png")
        let encoded = try #require(card["sourceBytes"] as? String)
        let bytes = try #require(Data(base64Encoded: encoded))
        #expect(Array(bytes) == FileNames.bytes(of: path))
        // probe --json: the same two fields, as "path" and "pathBytes".
        let probed = try CLI.runInShell("exec \"$0\" probe --json \"$(printf '%s/caf\\351.png' \"$1\")\"", arguments: [dir])
        #expect(probed.status == 0, "\(probed.stderr)")
        let entry = (try JSONSerialization.jsonObject(with: Data(probed.stdout.utf8)) as? [[String: Any]])?.first
        #expect(entry?["path"] as? String == dir + "/caf\u{FFFD}.png")
        #expect(entry?["pathBytes"] as? String == encoded)
    }

    /// `mosaic diff`: a pair named `bad\xff.png`, red against blue, is compared and reported
    /// everywhere. Before: silently dropped ("0 changed, 1 unchanged" with another pair,
    /// exit 0, missing from JSON, HTML and JUnit).
    @Test func diffReportsAPairWhoseNameIsNotUTF8() throws {
        let dir = CLI.temporaryDirectory()
        for side in ["baseline", "current"] { try FileManager.default.createDirectory(atPath: dir + "/" + side, withIntermediateDirectories: true) }
        let name = Array("bad".utf8) + [0xFF] + Array(".png".utf8)
        _ = try Self.writePNG(Bitmap(width: 8, height: 8, fill: RGBA(red: 255, green: 0, blue: 0)), folder: dir + "/baseline", name: name)
        _ = try Self.writePNG(Bitmap(width: 8, height: 8, fill: RGBA(red: 0, green: 0, blue: 255)), folder: dir + "/current", name: name)
        for side in ["baseline", "current"] { try Bitmap(width: 8, height: 8, fill: .black).writePNG(to: dir + "/\(side)/same.png") }
        let result = try CLI.run([
            "diff", dir + "/baseline", dir + "/current", "--json", dir + "/report.json", "--junit", dir + "/junit.xml", "--html", dir + "/report.html",
        ])
        #expect(result.status == 1, "\(result.stderr)")
        #expect(result.stdout.hasPrefix("changed    bad\u{FFFD}.png: 64 px (100.000%)"))
        #expect(result.stdout.hasSuffix("1 changed, 0 added, 0 removed, 1 unchanged\n"))
        let report = try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: dir + "/report.json"))) as? [String: Any])
        let pairs = try #require(report["pairs"] as? [[String: Any]])
        let pair = try #require(pairs.first { $0["status"] as? String == "changed" })
        #expect(pair["path"] as? String == "bad\u{FFFD}.png")
        #expect(pair["pathBytes"] as? String == Data(name).base64EncodedString())
        #expect(pair["currentBytes"] as? String == Data(Array((dir + "/current/").utf8) + name).base64EncodedString())
        let junit = try String(contentsOfFile: dir + "/junit.xml", encoding: .utf8)
        #expect(junit.contains("<testcase classname=\"mosaic.diff\" name=\"bad\u{FFFD}.png\">"))
        let html = try String(contentsOfFile: dir + "/report.html", encoding: .utf8)
        // The images copied into the report's folder (numbered); the text shows U+FFFD.
        #expect(html.contains("\"b\":\"report_files\\/baseline\\/00001.png\"") || html.contains("\"b\":\"report_files/baseline/00001.png\""), "\(html.suffix(800))")
        #expect(FileManager.default.contents(atPath: dir + "/report_files/baseline/00001.png") != nil)
        #expect(html.contains("\"p\":\"bad\u{FFFD}.png\""))
        // Linked where they are (--html-links): the link holds the name's own byte.
        #expect(try CLI.run(["diff", dir + "/baseline", dir + "/current", "--html", dir + "/links.html", "--html-links"]).status == 1)
        let links = try String(contentsOfFile: dir + "/links.html", encoding: .utf8)
        #expect(links.contains("baseline\\/bad%FF.png") || links.contains("baseline/bad%FF.png"))
    }

    /// A caption template is filled in once: placeholders inside a name stay text, and a
    /// newline inside a name does not split title from description. Before: "1361412.png"
    /// and a title "a" with a description "b.png".
    @Test func captionPlaceholdersInsideNamesStayLiteral() throws {
        let dir = InputTrustTests.folder(samples: [])
        try FileManager.default.copyItem(atPath: CLI.sampleImages + "/coins.png", toPath: dir + "/{width}{height}.png")
        try FileManager.default.copyItem(atPath: CLI.sampleImages + "/coins.png", toPath: dir + "/a\nb.png")
        let result = try CLI.run(["layout", dir, "--caption", "{name}"] + InputTrustTests.font)
        #expect(result.status == 0, "\(result.stderr)")
        let cards = try InputTrustTests.map(result.stdout).filter { $0["kind"] as? String == "card" }
        #expect(Set(cards.compactMap { $0["title"] as? String }) == ["{width}{height}.png", "a\nb.png"])
        #expect(cards.allSatisfy { $0["description"] == nil })
        // The template's own line break still separates them.
        let split = try CLI.run(["layout", dir + "/{width}{height}.png", "--caption", "{name}\\n{width}x{height} {ext}"] + InputTrustTests.font)
        let card = try #require(try InputTrustTests.map(split.stdout).first { $0["kind"] as? String == "card" })
        #expect(card["title"] as? String == "{width}{height}.png")
        #expect(card["description"] as? String == "384x303 png")
    }

    /// An output name that is not UTF-8 is refused, naming the option. Before: the sheet
    /// was written under another name (the bytes' private-use stand-ins, encoded).
    @Test func anOutputNameThatIsNotUTF8IsRefused() throws {
        let dir = CLI.temporaryDirectory()
        let image = CLI.sampleImages + "/coins.png"
        let result = try CLI.runInShell("exec \"$0\" render \"$2\" -o \"$(printf '%s/caf\\351.png' \"$1\")\" --no-progress", arguments: [dir, image])
        #expect(result.status == 64)
        #expect(result.stderr.hasPrefix("Error: --output: \"\(dir)/caf\u{FFFD}.png\" is not valid UTF-8; mosaic writes files under UTF-8 names only\n"))
        #expect(try FileManager.default.contentsOfDirectory(atPath: dir).isEmpty)
        let diff = try CLI.runInShell("exec \"$0\" diff \"$2\" \"$2\" --junit \"$(printf '%s/caf\\351.xml' \"$1\")\"", arguments: [dir, image])
        #expect(diff.status == 64)
        #expect(diff.stderr.hasPrefix("Error: --junit: \"\(dir)/caf\u{FFFD}.xml\" is not valid UTF-8"))
    }
}
