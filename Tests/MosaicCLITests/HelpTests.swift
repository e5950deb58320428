import Foundation
import Mosaic
import MosaicSnapshotTesting
import Testing

/// `--help` as a user reads it: grouped by topic, every default shown, and each command
/// offering only the options it uses. The texts are compared with references in
/// `__Snapshots__/` (MOSAIC_RECORD=all writes them anew; a missing one is recorded unless
/// MOSAIC_RECORD=never, as on CI).
@Suite struct HelpTests {
    static let snapshots = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("__Snapshots__").path

    static func check(_ arguments: [String], against name: String) throws -> String {
        let result = try CLI.run(arguments, environment: ["COLUMNS": "80"])
        #expect(result.status == 0)
        let path = snapshots + "/" + name
        let record = try SnapshotRecordMode.fromEnvironment()
        let exists = FileManager.default.fileExists(atPath: path)
        if record == .never && !exists { throw SnapshotFailure.missingReference(reference: path) }
        if record == .all || !exists {
            try FileManager.default.createDirectory(atPath: snapshots, withIntermediateDirectories: true)
            try result.stdout.write(toFile: path, atomically: true, encoding: .utf8)
            Issue.record("recorded \(path); run again to compare")
            return result.stdout
        }
        let reference = try String(contentsOfFile: path, encoding: .utf8)
        #expect(result.stdout == reference, "mosaic \(arguments.joined(separator: " ")) differs from \(name) (MOSAIC_RECORD=all records it)")
        return result.stdout
    }

    @Test func renderHelpIsGroupedWithDefaults() throws {
        let help = try Self.check(["render", "--help"], against: "render-help.txt")
        for heading in ["INPUTS:", "LAYOUT:", "CAPTIONS AND TEXT:", "COLOURS AND CARDS:", "PIXELS AND WORK:", "OUTPUT FORMATS AND TILE PYRAMIDS:"] {
            #expect(help.contains(heading), "\(heading)")
        }
        // Every option with a value says its default.
        let options = help.components(separatedBy: "\n  --").dropFirst().filter { $0.contains("<") && !$0.hasPrefix("files-from") && !$0.hasPrefix("output") && !$0.hasPrefix("json") }
        for option in options { #expect(option.contains("default"), "--\(option.prefix(30))") }
    }

    /// Before: one list of 24 options whose help ran to 1,108 characters (a paragraph for
    /// --merge); now grouped by what they decide, each said in a line or two.
    @Test func diffHelpIsGroupedInShortLines() throws {
        let help = try Self.check(["diff", "--help"], against: "diff-help.txt")
        for heading in ["COMPARISON:", "TOLERANCE:", "REPORTS:", "APPROVAL:", "SHARDS:"] { #expect(help.contains(heading), "\(heading)") }
        // At 80 columns an option's entry (its name line and its help) takes at most 4 lines.
        let lines = help.split(separator: "\n", omittingEmptySubsequences: false)
        var entry: [Substring] = []
        for line in lines + ["  --end"] {
            if line.hasPrefix("  -") || !line.hasPrefix(" ") {
                #expect(entry.count <= 4, "\(entry.joined(separator: "\n"))")
                entry = line.hasPrefix("  -") ? [line] : []
            } else if !entry.isEmpty {
                entry.append(line)
            }
        }
    }

    /// Before: the top-level help said mosaic made sheets "as PNG" (it writes five sheet
    /// formats and two pyramids, and compares images).
    @Test func topLevelHelpIsTrue() throws {
        let help = try Self.check(["--help"], against: "mosaic-help.txt")
        #expect(!help.contains("as PNG"))
        for command in ["render", "layout", "diff", "probe", "assemble"] { #expect(help.contains("  \(command) "), "\(command)") }
    }

    @Test func probeAndAssembleHelp() throws {
        _ = try Self.check(["probe", "--help"], against: "probe-help.txt")
        _ = try Self.check(["assemble", "--help"], against: "assemble-help.txt")
    }

    /// Help is a line or two per option; the details are in the guide (before: `render
    /// --help` ran to 15,000 characters, one option's help to 590). `diff` is measured
    /// with its own options.
    @Test(arguments: ["render", "layout", "probe", "assemble"]) func everyHelpStringIsALineOrTwo(_ command: String) throws {
        let dump = try CLI.run([command, "--experimental-dump-help"])
        let tool = try JSONSerialization.jsonObject(with: Data(dump.stdout.utf8)) as? [String: Any]
        let info = try #require(tool?["command"] as? [String: Any])
        #expect((info["abstract"] as? String ?? "").count <= 80, "\(command)'s abstract")
        #expect((info["discussion"] as? String ?? "").count <= 130, "\(command)'s discussion")
        let arguments = info["arguments"] as? [[String: Any]] ?? []
        #expect(arguments.count >= 3)
        for argument in arguments {
            let abstract = argument["abstract"] as? String ?? ""
            let names = (argument["names"] as? [[String: Any]] ?? []).compactMap { $0["name"] as? String }
            #expect(abstract.count <= 110, "\(command) \(names): \(abstract.count) characters")
        }
    }

    /// Before: `mosaic layout --help` listed --compression-level, --filter, --jobs and the
    /// colours, which do nothing for a layout.
    @Test func layoutOffersOnlyWhatDecidesTheFrames() throws {
        let help = try Self.check(["layout", "--help"], against: "layout-help.txt")
        for flag in ["--compression-level", "--filter", "--jobs", "--background", "--shadow", "--theme", "--no-color-management"] {
            #expect(!help.contains(flag), "\(flag)")
        }
        for flag in ["--columns", "--max-height", "--caption", "--font-size", "--files-from", "--section-padding"] {
            #expect(help.contains(flag), "\(flag)")
        }
        // And refuses them.
        #expect(try CLI.run(["layout", "x", "--filter", "box"]).status == 64)
    }
}

/// The exit codes each command's help states are the ones it returns (before: `mosaic diff
/// --help` said errors exit 2, and a bad --threshold exited 64).
@Suite struct ExitCodeTests {
    static let fixtures = DiffCommandTests.fixtures

    @Test func diffExitsAsItsHelpSays() throws {
        let help = try CLI.run(["diff", "--help"]).stdout.replacingOccurrences(of: "\n", with: " ").replacingOccurrences(of: "  ", with: " ")
        for code in ["0 when", "1 when", "2 when", "64 for a usage error"] { #expect(help.contains(code), "\(code)") }
        #expect(try CLI.run(["diff", Self.fixtures + "/identical-a.png", Self.fixtures + "/identical-b.png"]).status == 0)
        #expect(try CLI.run(["diff", Self.fixtures + "/text-changed-a.png", Self.fixtures + "/text-changed-b.png"]).status == 1)
        #expect(try CLI.run(["diff", Self.fixtures + "/missing.png", Self.fixtures + "/identical-b.png"]).status == 2)
        #expect(try CLI.run(["diff", Self.fixtures + "/identical-a.png", Self.fixtures + "/identical-b.png", "--threshold", "2"]).status == 64)
    }

    @Test func renderLayoutAndProbeExitAsTheirHelpSays() throws {
        for command in ["render", "layout", "probe"] {
            let help = try CLI.run([command, "--help"]).stdout.replacingOccurrences(of: "\n", with: " ")
            #expect(help.contains("Exit status: 0") && help.contains("64 for a usage error"), "\(command)")
        }
        let dir = CLI.temporaryDirectory()
        #expect(try CLI.run(["render", CLI.sampleImages + "/rocket.jpg", "-o", dir + "/s.png", "--font", RenderCommandTests.font]).status == 0)
        #expect(try CLI.run(["render", dir + "/nothing-here", "-o", dir + "/t.png"]).status == 1)
        #expect(try CLI.run(["render", CLI.sampleImages, "--columns", "0"]).status == 64)
        #expect(try CLI.run(["layout", CLI.sampleImages + "/rocket.jpg"]).status == 0)
        #expect(try CLI.run(["layout", dir + "/nothing-here"]).status == 1)
        #expect(try CLI.run(["layout", "--width", "x"]).status == 64)
        #expect(try CLI.run(["probe", CLI.sampleImages + "/rocket.jpg"]).status == 0)
        #expect(try CLI.run(["probe", dir + "/nothing-here"]).status == 1)
        #expect(try CLI.run(["probe", "--bogus"]).status == 64)
    }
}
