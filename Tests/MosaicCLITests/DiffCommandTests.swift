import Foundation
#if canImport(FoundationXML)
import FoundationXML
#endif
import Mosaic
import Testing

@Suite struct DiffCommandTests {
    static let fixtures = CLI.repository.appendingPathComponent("Tests/MosaicDiffTests/Fixtures").path

    /// baseline/ and current/: one pair unchanged, one changed, one added, one removed.
    static func folders() throws -> (String, String) {
        let dir = CLI.temporaryDirectory()
        let fm = FileManager.default
        for side in ["baseline", "current"] { try fm.createDirectory(atPath: dir + "/\(side)/ui", withIntermediateDirectories: true) }
        try fm.copyItem(atPath: fixtures + "/identical-a.png", toPath: dir + "/baseline/same.png")
        try fm.copyItem(atPath: fixtures + "/identical-b.png", toPath: dir + "/current/same.png")
        try fm.copyItem(atPath: fixtures + "/text-changed-a.png", toPath: dir + "/baseline/ui/button.png")
        try fm.copyItem(atPath: fixtures + "/text-changed-b.png", toPath: dir + "/current/ui/button.png")
        try fm.copyItem(atPath: fixtures + "/alpha-a.png", toPath: dir + "/baseline/old.png")
        try fm.copyItem(atPath: fixtures + "/noise-a.png", toPath: dir + "/current/new.png")
        try "notes".write(toFile: dir + "/current/README.txt", atomically: true, encoding: .utf8)
        return (dir + "/baseline", dir + "/current")
    }

    @Test func identicalFilesPass() throws {
        let result = try CLI.run(["diff", Self.fixtures + "/identical-a.png", Self.fixtures + "/identical-b.png"])
        #expect(result.status == 0)
        #expect(result.stdout == "0 changed, 0 added, 0 removed, 1 unchanged\n")
    }

    @Test func changedFilesFailWithTheirFigures() throws {
        let result = try CLI.run(["diff", Self.fixtures + "/text-changed-a.png", Self.fixtures + "/text-changed-b.png"])
        #expect(result.status == 1)
        // 41 pixels: the count pixelmatch gives for this pair at 0.1.
        #expect(result.stdout.hasPrefix("changed    text-changed-b.png: 41 px (0.667%) in "))
        // Within a tolerance it passes.
        #expect(try CLI.run(["diff", Self.fixtures + "/text-changed-a.png", Self.fixtures + "/text-changed-b.png", "--max-diff-pixels", "41"]).status == 0)
        #expect(try CLI.run(["diff", Self.fixtures + "/text-changed-a.png", Self.fixtures + "/text-changed-b.png", "--max-diff-ratio", "0.01"]).status == 0)
        #expect(try CLI.run(["diff", Self.fixtures + "/text-changed-a.png", Self.fixtures + "/text-changed-b.png", "--include-aa", "--max-diff-pixels", "41"]).status == 1)
        #expect(try CLI.run(["diff", Self.fixtures + "/text-changed-a.png", Self.fixtures + "/text-changed-b.png", "--ignore", "0,0,96,64"]).status == 0)
    }

    @Test func foldersWithReports() throws {
        let (baseline, current) = try Self.folders()
        let dir = (baseline as NSString).deletingLastPathComponent
        let result = try CLI.run(["diff", baseline, current, "-o", dir + "/board.png", "--json", dir + "/report.json", "--junit", dir + "/junit.xml"])
        #expect(result.status == 1, "\(result.stderr)")
        let lines = result.stdout.split(separator: "\n").map(String.init)
        #expect(lines.count == 4)
        #expect(lines[0].hasPrefix("changed    ui/button.png: 41 px"))
        #expect(lines[1] == "added      new.png")
        #expect(lines[2] == "removed    old.png")
        #expect(lines[3] == "1 changed, 1 added, 1 removed, 1 unchanged")
        let report = try JSONSerialization.jsonObject(with: FileManager.default.contents(atPath: dir + "/report.json")!) as! [String: Any]
        #expect(report["passes"] as? Bool == false)
        #expect(report["counts"] as? [String: Int] == ["changed": 1, "added": 1, "removed": 1, "unchanged": 1, "withinTolerance": 0, "failed": 0])
        let junit = try String(contentsOfFile: dir + "/junit.xml", encoding: .utf8)
        #expect(junit.contains("<testsuite name=\"mosaic diff\" tests=\"4\" failures=\"3\" errors=\"0\">"))
        #expect(junit.contains("<testcase classname=\"mosaic.diff\" name=\"same.png\"/>"))
        let board = try ImageDecoder().probe(dir + "/board.png")
        #expect(board.width == 1500 && board.height > 300)
    }

    /// One truncated PNG in a folder diff is a failed pair: every other pair is compared,
    /// every report written, and the run exits 1 (before: exit 2, no JSON, no JUnit).
    /// A pair that differs within the tolerance is its own status (before: "unchanged").
    @Test func withinToleranceIsItsOwnStatus() throws {
        let dir = CLI.temporaryDirectory()
        let result = try CLI.run([
            "diff", Self.fixtures + "/text-changed-a.png", Self.fixtures + "/text-changed-b.png", "--max-diff-pixels", "41",
            "--json", dir + "/r.json", "--junit", dir + "/j.xml",
        ])
        #expect(result.status == 0)
        #expect(result.stdout.contains("tolerated  text-changed-b.png: 41 px"))
        #expect(result.stdout.hasSuffix("0 changed, 0 added, 0 removed, 0 unchanged, 1 within tolerance\n"))
        let json = try String(contentsOfFile: dir + "/r.json", encoding: .utf8)
        #expect(json.contains("\"status\" : \"withinTolerance\"") && json.contains("\"withinTolerance\" : 1"))
        let junit = try String(contentsOfFile: dir + "/j.xml", encoding: .utf8)
        #expect(junit.contains("failures=\"0\"") && junit.contains("<system-out>within tolerance: 41 px"))
    }

    /// Any file name makes valid XML (before: a control character went into the JUnit file
    /// as it was, which no XML parser reads).
    @Test func junitIsValidXMLForAnyName() throws {
        let dir = CLI.temporaryDirectory()
        for side in ["a", "b"] { try FileManager.default.createDirectory(atPath: dir + "/" + side, withIntermediateDirectories: true) }
        let name = "bad\u{1B}[31m name & <tag> \"q\".png"
        try FileManager.default.copyItem(atPath: Self.fixtures + "/text-changed-a.png", toPath: dir + "/a/" + name)
        try FileManager.default.copyItem(atPath: Self.fixtures + "/text-changed-b.png", toPath: dir + "/b/" + name)
        let result = try CLI.run(["diff", dir + "/a", dir + "/b", "--junit", dir + "/j.xml"])
        #expect(result.status == 1)
        let data = try Data(contentsOf: URL(fileURLWithPath: dir + "/j.xml"))
        let parser = XMLParser(data: data)
        #expect(parser.parse(), "\(parser.parserError.map { "\($0)" } ?? "")")
        #expect(String(decoding: data, as: UTF8.self).contains("name=\"bad\\u{1B}[31m name &amp; &lt;tag&gt; &quot;q&quot;.png\""))
    }

    /// A run with nothing to show removes the board an earlier run wrote (before: the old
    /// board stayed, showing changes that are gone); a PNG mosaic did not write stays.
    @Test func noChangesLeaveNoStaleBoard() throws {
        let dir = CLI.temporaryDirectory()
        let changed = try CLI.run(["diff", Self.fixtures + "/text-changed-a.png", Self.fixtures + "/text-changed-b.png", "-o", dir + "/board.png"])
        #expect(changed.status == 1 && FileManager.default.fileExists(atPath: dir + "/board.png"))
        let same = try CLI.run(["diff", Self.fixtures + "/identical-a.png", Self.fixtures + "/identical-b.png", "-o", dir + "/board.png"])
        #expect(same.status == 0 && !FileManager.default.fileExists(atPath: dir + "/board.png"))
        #expect(same.stdout.contains("no board: nothing changed (removed the previous \(dir)/board.png)"))
        try FileManager.default.copyItem(atPath: Self.fixtures + "/identical-a.png", toPath: dir + "/mine.png")
        #expect(try CLI.run(["diff", Self.fixtures + "/identical-a.png", Self.fixtures + "/identical-b.png", "-o", dir + "/mine.png"]).status == 0)
        #expect(FileManager.default.fileExists(atPath: dir + "/mine.png"))
    }

    @Test func anUnreadableImageInAFolderIsAFailedPair() throws {
        let (baseline, current) = try Self.folders()
        let dir = (baseline as NSString).deletingLastPathComponent
        let good = try #require(FileManager.default.contents(atPath: Self.fixtures + "/noise-a.png"))
        try good.write(to: URL(fileURLWithPath: baseline + "/cut.png"))
        try good.prefix(good.count / 2).write(to: URL(fileURLWithPath: current + "/cut.png"))
        let result = try CLI.run(["diff", baseline, current, "-o", dir + "/board.png", "--json", dir + "/report.json", "--junit", dir + "/junit.xml"])
        #expect(result.status == 1, "\(result.stderr)")
        #expect(result.stdout.contains("failed     cut.png: \(current)/cut.png: invalid PNG: "))
        #expect(result.stdout.hasSuffix("1 changed, 1 added, 1 removed, 1 unchanged, 1 failed\n"))
        let report = try JSONSerialization.jsonObject(with: FileManager.default.contents(atPath: dir + "/report.json")!) as! [String: Any]
        #expect((report["counts"] as? [String: Int])?["failed"] == 1)
        let pairs = try #require(report["pairs"] as? [[String: Any]])
        let failed = try #require(pairs.first { $0["path"] as? String == "cut.png" })
        #expect(failed["status"] as? String == "failed")
        #expect((failed["error"] as? String)?.hasPrefix("\(current)/cut.png: invalid PNG: ") == true)
        let junit = try String(contentsOfFile: dir + "/junit.xml", encoding: .utf8)
        #expect(junit.contains("tests=\"5\" failures=\"3\" errors=\"1\""))
        #expect(junit.contains("<testcase classname=\"mosaic.diff\" name=\"cut.png\">\n      <error message=\"\(current)/cut.png: invalid PNG: "))
        #expect(try ImageDecoder().probe(dir + "/board.png").width == 1500)
    }

    @Test func errorsExitTwo() throws {
        let missing = try CLI.run(["diff", "/no/such/a.png", Self.fixtures + "/identical-a.png"])
        #expect(missing.status == 2)
        #expect(missing.stderr == "error: /no/such/a.png: no such file or folder\n")
        let dir = CLI.temporaryDirectory()
        try Data([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A, 1, 2]).write(to: URL(fileURLWithPath: dir + "/bad.png"))
        let unreadable = try CLI.run(["diff", dir + "/bad.png", Self.fixtures + "/identical-a.png"])
        #expect(unreadable.status == 2)
        #expect(unreadable.stderr == "error: \(dir)/bad.png: invalid PNG: the file ends early\n")
        let mixed = try CLI.run(["diff", dir, Self.fixtures + "/identical-a.png"])
        #expect(mixed.status == 2)
    }
}
