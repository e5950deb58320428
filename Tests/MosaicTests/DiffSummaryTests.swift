import Foundation
import Testing

@testable import Mosaic
@testable import MosaicDiff

/// The diff's summaries for pull requests and CI: the Markdown table, GitHub's workflow
/// commands, and the shell words of the approving command.
@Suite struct DiffSummaryTests {
    /// A changed pair named `name` with `pixels` differing of 100.
    static func changed(_ name: String, pixels: Int = 7) -> PairResult {
        let difference = ImageDifference(
            differingPixels: pixels, antialiasedPixels: 0, comparedPixels: 100, bounds: Rect(x: 1, y: 2, width: 3, height: 4),
            largestDelta: 0.5, size: Size(width: 10, height: 10), diffImage: nil, sizeMismatch: nil)
        return PairResult(relativePath: name, status: .changed, baselinePath: "b/" + name, currentPath: "c/" + name, difference: difference)
    }

    static func report(_ results: [PairResult]) -> DiffReport {
        DiffReport(comparison: FolderComparison(results: results), options: ComparisonOptions(), tolerance: DiffTolerance())
    }

    /// The cells of a GFM table row as a GFM parser splits it: at each `|` not escaped by an
    /// odd run of backslashes, the outer pipes dropped.
    static func cells(_ line: String) -> [String] {
        var cells: [String] = [], current = "", backslashes = 0
        for character in line {
            if character == "|" && backslashes % 2 == 0 {
                cells.append(current)
                current = ""
            } else {
                current.append(character)
            }
            backslashes = character == "\\" ? backslashes + 1 : 0
        }
        cells.append(current)
        return Array(cells.dropFirst().dropLast())
    }

    static let hostileNames = [
        "pipe|in|name.png", "back`tick`.png", "<script>alert(1)</script>.png", "line\nbreak.png", "cr\rhere.png", "tab\there.png",
        "esc\u{1B}[31mred.png", "caf" + FileNames.string(fromBytes: [0xE9]) + ".png", "back\\slash\\|.png", "**bold** _x_ [l](u).png",
        "rtl\u{202E}gnp.exe", "amp&lt;.png",
    ]

    @Test func everyRowHasItsColumnsWhateverTheNames() throws {
        let results = Self.hostileNames.map { Self.changed($0) }
        let text = DiffMarkdown(report: Self.report(results)).text()
        let lines = text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        let header = try #require(lines.firstIndex { $0.hasPrefix("| Pair |") })
        #expect(lines[header + 1] == "|---|---|---|")
        let rows = lines[(header + 2)...].prefix { $0.hasPrefix("| ") }
        // One line a pair (no name breaks a line), three cells each (no name adds one).
        #expect(rows.count == Self.hostileNames.count)
        for row in rows { #expect(Self.cells(row).count == 3, "\(row)") }
        // Nothing in a name is markup: each is one code span (read as it is), its pipes
        // escaped for the table, and no control breaks it.
        for row in rows where !row.hasPrefix("| back\\\\slash") {
            let name = Self.cells(row)[0].trimmingCharacters(in: .whitespaces)
            let fence = String(name.prefix { $0 == "`" })
            #expect(!fence.isEmpty && name.hasSuffix(fence), "\(name)")
            let inside = name.dropFirst(fence.count).dropLast(fence.count)
            #expect(!inside.contains(fence), "\(name)")
            var previous: Character = " "
            for character in inside {
                if character == "|" { #expect(previous == "\\", "\(name)") }
                previous = character
            }
            #expect(!name.contains("\n") && !name.contains("\r") && !name.contains("\u{1B}") && !name.contains("\u{202E}"))
        }
        #expect(text.contains("| `line\\x0abreak.png` |"))
        #expect(text.contains("| `caf\u{FFFD}.png` |"))
        #expect(text.contains("| `pipe\\|in\\|name.png` |"))
        #expect(text.contains("| ``back`tick`.png`` |"))
        #expect(text.contains("| `**bold** _x_ [l](u).png` |"))
        // A backslash before a pipe: GFM would read an escaped backslash and a column, so
        // that name is escaped character by character instead.
        #expect(text.contains("| back\\\\slash\\\\\\|\\.png |"))
    }

    @Test func theTableIsCutAfterAHundredRows() {
        let results = (0..<250).map { Self.changed(String(format: "p%03d.png", $0), pixels: 1 + $0) }
        let text = DiffMarkdown(report: Self.report(results)).text()
        #expect(text.components(separatedBy: "\n| `p").count - 1 == 100)
        #expect(text.contains("\nand 150 more (see the full report)\n"))
        #expect(text.hasPrefix("## mosaic diff: ❌ failed\n\n250 changed, 0 added, 0 removed, 0 unchanged\n"))
        // No region figures in the results: no column for them.
        #expect(!text.contains("Regions"))
    }

    /// Pairs with regions: a "Regions" column, each pair's count (blank for a pair without).
    @Test func regionsHaveTheirColumn() throws {
        var withRegions = Self.changed("a.png")
        withRegions.difference?.regionCount = 3
        let text = DiffMarkdown(report: Self.report([withRegions, PairResult(relativePath: "n.png", status: .added, currentPath: "c/n.png")])).text()
        #expect(text.contains("| Pair | Status | Differing pixels | Regions |\n|---|---|---|---:|\n"))
        #expect(text.contains(" | 3 |\n"))
        #expect(text.contains("| `n.png` | added | no baseline |  |\n"))
    }

    @Test func aPassingRunHasNoTable() {
        let text = DiffMarkdown(report: Self.report([PairResult(relativePath: "a.png", status: .unchanged)])).text()
        #expect(text == "## mosaic diff: ✅ passed\n\n0 changed, 0 added, 0 removed, 1 unchanged\n")
    }

    @Test func diffImagesAreLinkedUnderTheLinkBase() {
        var pair = Self.changed("a b.png")
        pair.diffImagePath = "/tmp/x/.report_files.mosaic-staging/00001.png"
        let page = DiffHTMLReport(path: "out/report.html")
        let linked = DiffMarkdown(report: Self.report([pair]), page: page, linkBase: "https://ci.example/run (7)/", location: "out/summary.md").text()
        #expect(linked.contains("| [diff](https://ci.example/run%20%287%29/report_files/00001.png) |"))
        let relative = DiffMarkdown(report: Self.report([pair]), page: page, location: "out/summary.md").text()
        #expect(relative.contains("| [diff](report_files/00001.png) |"))
        // Without --html there is nothing to link.
        #expect(!DiffMarkdown(report: Self.report([pair])).text().contains("| Diff |"))
    }

    @Test func workflowCommandsAreEscapedAsTheRunnerReadsThem() {
        #expect(GitHubAnnotations.data("50% done\r\nnext: a,b") == "50%25 done%0D%0Anext: a,b")
        #expect(GitHubAnnotations.property("50% done\r\nnext: a,b") == "50%25 done%0D%0Anext%3A a%2Cb")
        let lines = GitHubAnnotations.lines(Self.report([Self.changed("a,b:c\nd%.png"), PairResult(relativePath: "ok.png", status: .unchanged)]))
        #expect(lines.count == 1)
        #expect(lines[0].hasPrefix("::error file=c/a%2Cb%3Ac%0Ad%25.png,title=mosaic diff%3A changed::a,b:c%0Ad%25.png changed: 7 px (7.000%25)"))
        #expect(!lines[0].contains("\n"))
        #expect(GitHubAnnotations.enabled(in: ["GITHUB_ACTIONS": "true"]) && !GitHubAnnotations.enabled(in: [:]))
    }

    /// Each word, given to /bin/sh, is the name's very bytes.
    @Test(arguments: [
        "plain.png", "it's.png", "'''", "a b\tc.png", "new\nline.png", "$(touch pwned).png", "`id`.png", "back\\slash.png", "'\u{301}.png",
        "caf" + FileNames.string(fromBytes: [0xE9]) + ".png", FileNames.string(fromBytes: [0xFF, 0xFE, 0x27, 0x0A, 0x80]), "-n", "%s%%.png",
    ])
    func shellWordsAreTheNamesBytes(_ name: String) throws {
        let word = ShellText.quoted(name)
        #expect(FileNames.isValidUTF8(word))
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/bin/sh")
        process.arguments = ["-c", "printf '%s' " + word]
        let out = Pipe()
        process.standardOutput = out
        try process.run()
        let data = out.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        #expect(process.terminationStatus == 0)
        #expect(Array(data) == FileNames.bytes(of: name), "\(word)")
    }
}
