import MosaicTestSupport
import ArgumentParser
import Foundation
import Mosaic
import Testing

@testable import MosaicCLI

/// No option value can crash the tool: random strings (ASCII, fullwidth and other CJK
/// characters, control characters, combining marks, emoji) fed to every option of
/// `mosaic render` and `mosaic diff` either parse or are refused as usage errors.
@Suite struct ParserFuzzTests {
    static let alphabet: [Character] = Array("#0123456789abcdefABCDEFxyz,.-+{}\\n ") + Array("０１２３４５６７８９ＡＢＣＦ＃，") + ["\u{0}", "\u{7}", "\u{1B}", "\u{301}", "\u{FEFF}", "🙂", "鬱", "\u{202E}"]

    typealias Generator = SeededGenerator

    static func randomString(_ g: inout Generator) -> String {
        String((0..<Int.random(in: 0...12, using: &g)).map { _ in alphabet.randomElement(using: &g)! })
    }

    @Test func colourParsingNeverTraps() {
        #expect(Color(parsing: "#１２３") == nil)  // fullwidth digits: once a trap (SIGILL)
        #expect(Color(parsing: "#ＡＢＣＤＥＦ") == nil)
        #expect(Color(parsing: "#abc") == Color(red: 0xAA, green: 0xBB, blue: 0xCC))
        #expect(Color(parsing: "#12345678") == Color(red: 0x12, green: 0x34, blue: 0x56, alpha: 0x78))
        var g = Generator(seed: 1)
        for _ in 0..<5_000 { _ = Color(parsing: "#" + Self.randomString(&g)) }
    }

    @Test func everyRenderOptionTakesAnyString() {
        let options = [
            "--sort", "--caption", "--caption-lines", "--width", "--columns", "--column-width", "--spacing", "--column-spacing",
            "--row-spacing", "--inset", "--padding", "--order", "--direction", "--rows", "--height", "--title", "--max-height",
            "--max-aspect", "--layout", "--cell-aspect", "--theme", "--background", "--card-background", "--corner-radius",
            "--border-width", "--border-color", "--shadow", "--font-size", "--title-color", "--caption-color", "--caption-align",
            "--header-size", "--header-color", "--footer-color", "--section-background", "--section-radius", "--section-padding",
            "--compression-level", "--filter", "--jobs", "-o", "--json", "--max-width", "--font",
        ]
        var g = Generator(seed: 2)
        var accepted = 0, refused = 0
        for option in options {
            for _ in 0..<8 {
                let value = Self.randomString(&g)
                // Parsing runs validate(); the options are then built as the command would.
                do {
                    let command = try RenderCommand.parse(["in", option, value])
                    _ = command.options
                    accepted += 1
                } catch {
                    // Every refusal is a usage error (exit 64) with a message naming the option.
                    refused += 1
                    #expect(RenderCommand.exitCode(for: error).rawValue == 64, "\(option) \(value.debugDescription): \(error)")
                    #expect(!RenderCommand.message(for: error).isEmpty, "\(option) \(value.debugDescription)")
                }
            }
        }
        // Both paths were taken (random strings are mostly refused; free text is taken).
        #expect(accepted > 0 && refused > 0)
        var h = Generator(seed: 3)
        for _ in 0..<100 {
            let arguments = ["a", "b", "--threshold", Self.randomString(&h), "--ignore", Self.randomString(&h), "--max-diff-ratio", Self.randomString(&h)]
            do {
                let command = try DiffCommand.parse(arguments)
                do {
                    _ = try command.comparison.regions()
                } catch {
                    #expect(DiffCommand.exitCode(for: error).rawValue == 64, "\(arguments): \(error)")
                }
            } catch {
                #expect(DiffCommand.exitCode(for: error).rawValue == 64, "\(arguments): \(error)")
            }
        }
    }

    @Test func aMisspeltCaptionModeIsAUsageError() throws {
        #expect(throws: CaptionModeError.notAModeOrTemplate("titel", suggestion: "title")) { try CaptionMode(validating: "titel") }
        #expect(throws: CaptionModeError.unknownPlaceholder("titel", suggestion: "title")) { try CaptionMode(validating: "{titel} {width}") }
        #expect(try CaptionMode(validating: "{stem}\\n{width}x{height}") == .template("{stem}\n{width}x{height}"))
        let dir = CLI.temporaryDirectory()
        let result = try CLI.run(["render", CLI.sampleImages, "-o", dir + "/s.png", "--caption", "titel"])
        #expect(result.status == 64)
        #expect(result.stderr.contains("--caption: \"titel\" is neither a mode (none, name, stem, title) nor a template with {placeholders} (did you mean \"title\"?)"))
        let colour = try CLI.run(["render", CLI.sampleImages, "-o", dir + "/s.png", "--background", "#１２３"])
        #expect(colour.status == 64)
        #expect(colour.stderr.contains("--background: \"#１２３\" is not a colour"))
        #expect(try FileManager.default.contentsOfDirectory(atPath: dir).isEmpty)
    }

    /// Manifests made of random pieces of JSON and CSV (quotes, BOMs, control characters,
    /// deep nesting, wrong types) never crash the parser: they load or are refused with a
    /// message naming the file.
    @Test func manifestsOfRandomPiecesNeverCrash() throws {
        let dir = CLI.temporaryDirectory()
        let jsonPieces = ["{", "}", "[", "]", ",", ":", "\"items\"", "\"sections\"", "\"path\"", "\"title\"", "\"columns\"", "\"a.png\"",
                          "1", "-1", "1e999", "null", "true", "\"\u{FEFF}\"", "\"\\u0000\"", "\"鬱\"", " ", "\n", "\"", "\\"]
        let csvPieces = ["path", "title", "section", ",", "\"", "\"\"", "\n", "\r\n", "a.png", "\u{FEFF}", "鬱", " ", "\u{0}", "x,y,z"]
        var g = Generator(seed: 4)
        for n in 0..<400 {
            let json = n % 2 == 0
            let pieces = json ? jsonPieces : csvPieces
            let text = (0..<Int.random(in: 0...40, using: &g)).map { _ in pieces.randomElement(using: &g)! }.joined()
            let path = dir + "/m\(n)." + (json ? "json" : "csv")
            try Data(text.utf8).write(to: URL(fileURLWithPath: path))
            do {
                _ = try Catalog.manifest(path, jobs: 1)
            } catch {
                #expect(error.description.hasPrefix(path) || error.description.contains("no such file"), "\(error)")
            }
        }
    }
}
