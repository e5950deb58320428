import Foundation
import Mosaic
import Testing

/// `mosaic diff --jobs N`: pairs compared at once, the reports the same whatever N is.
@Suite struct DiffJobsTests {
    /// The diff command's folders, with each fixture pair copied under several names
    /// (changed, unchanged, anti-aliased, alpha) and an unreadable one, 29 pairs in all.
    static func manyPairs() throws -> (dir: String, baseline: String, current: String) {
        let (baseline, current) = try DiffCommandTests.folders()
        let dir = (baseline as NSString).deletingLastPathComponent
        let fixtures = DiffCommandTests.fixtures
        try Data([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A] + Array("broken".utf8)).write(to: URL(fileURLWithPath: baseline + "/broken.png"))
        try FileManager.default.copyItem(atPath: fixtures + "/identical-a.png", toPath: current + "/broken.png")
        for name in ["text-shifted", "shape-colour", "alpha", "noise", "identical", "text-changed"] {
            for k in 0..<4 {
                try FileManager.default.copyItem(atPath: fixtures + "/\(name)-a.png", toPath: baseline + "/\(k)-\(name).png")
                try FileManager.default.copyItem(atPath: fixtures + "/\(name)-b.png", toPath: current + "/\(k)-\(name).png")
            }
        }
        return (dir, baseline, current)
    }

    /// Every file under `folder` (relative path: bytes).
    static func contents(_ folder: String) throws -> [String: Data] {
        var files: [String: Data] = [:]
        for name in try FileManager.default.subpathsOfDirectory(atPath: folder).sorted() {
            var isFolder: ObjCBool = false
            if FileManager.default.fileExists(atPath: folder + "/" + name, isDirectory: &isFolder), !isFolder.boolValue {
                files[name] = FileManager.default.contents(atPath: folder + "/" + name)
            }
        }
        return files
    }

    /// The board, JSON, JUnit, the HTML page and its diff images, and the summary are
    /// byte for byte the same with 1, 3 and 8 pairs at once.
    @Test func theReportsAreTheSameForAnyJobs() throws {
        let (dir, baseline, current) = try Self.manyPairs()
        var first: (files: [String: Data], stdout: String)?
        for jobs in [1, 3, 8] {
            let out = dir + "/out-\(jobs)"
            try FileManager.default.createDirectory(atPath: out + "/r", withIntermediateDirectories: true)
            let result = try CLI.run([
                "diff", baseline, current, "--jobs", String(jobs), "-o", "r/board.png", "--json", "r/report.json",
                "--junit", "r/junit.xml", "--html", "r/report.html",
            ], in: out)
            #expect(result.status == 1, "\(result.stderr)")
            let files = try Self.contents(out + "/r")
            #expect(files.keys.contains("report_files/00010.png") && files.count > 12, "\(files.keys.sorted())")
            if let first {
                #expect(files == first.files, "--jobs \(jobs)")
                #expect(result.stdout == first.stdout)
            } else {
                first = (files, result.stdout)
            }
        }
    }

    @Test func jobsAreChecked() throws {
        let result = try CLI.run(["diff", "a", "b", "--jobs", "0"])
        #expect(result.status == 64)
        #expect(result.stderr.contains("--jobs must be between 1 and 256, got 0"))
    }
}

/// The diff board cut into pages (`--max-height`), listed in the JSON; a board too tall
/// for viewers as one PNG is said before it is drawn.
@Suite struct DiffBoardPagesTests {
    /// `count` changed pairs (the 41-pixel text change) in baseline/ and current/.
    static func changedPairs(_ count: Int, _ name: String = #function) throws -> (dir: String, baseline: String, current: String) {
        let dir = CLI.temporaryDirectory(name)
        for side in ["baseline", "current"] { try FileManager.default.createDirectory(atPath: dir + "/" + side, withIntermediateDirectories: true) }
        for k in 0..<count {
            let name = String(format: "%03d.png", k)
            try FileManager.default.copyItem(atPath: DiffCommandTests.fixtures + "/text-changed-a.png", toPath: dir + "/baseline/" + name)
            try FileManager.default.copyItem(atPath: DiffCommandTests.fixtures + "/text-changed-b.png", toPath: dir + "/current/" + name)
        }
        return (dir, dir + "/baseline", dir + "/current")
    }

    static func json(_ path: String) throws -> [String: Any] {
        let data = try #require(FileManager.default.contents(atPath: path))
        return try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
    }

    @Test func theBoardIsCutIntoPagesListedInTheJSON() throws {
        let (dir, baseline, current) = try Self.changedPairs(6)
        let result = try CLI.run(["diff", baseline, current, "-o", dir + "/board.png", "--max-height", "1000", "--json", dir + "/r.json", "-q"])
        #expect(result.status == 1, "\(result.stderr)")
        let report = try Self.json(dir + "/r.json")
        let pages = try #require(report["board"] as? [String])
        #expect(pages.count >= 2 && pages == (1...pages.count).map { dir + "/board-\($0).png" })
        for page in pages { #expect(try ImageDecoder().probe(page).height <= 1000) }
        #expect(!FileManager.default.fileExists(atPath: dir + "/board.png"))
        // One page without it, listed too.
        #expect(try CLI.run(["diff", baseline, current, "-o", dir + "/one.png", "--json", dir + "/r.json", "-q"]).status == 1)
        let again = try Self.json(dir + "/r.json")
        #expect(again["board"] as? [String] == [dir + "/one.png"])
    }

    /// 45 changed pairs make a board over 16,000 px tall: said before drawing, with the
    /// advice (before: written without a word).
    @Test func aBoardTooTallForViewersIsSaid() throws {
        let (dir, baseline, current) = try Self.changedPairs(45)
        let result = try CLI.run(["diff", baseline, current, "-o", dir + "/board.png"])
        #expect(result.status == 1)
        #expect(result.stderr.contains("warning: \(dir)/board.png would be 1500x"), "\(result.stderr)")
        #expect(result.stderr.contains("split it into pages with --max-height 16000"))
    }

    /// A run with nothing to show removes the pages an earlier run wrote (before: only
    /// NAME.png, so board-1.png, board-2.png ... stayed and told of changes gone).
    @Test func aRunWithNothingToShowRemovesTheEarlierPages() throws {
        let (dir, baseline, current) = try Self.changedPairs(6)
        #expect(try CLI.run(["diff", baseline, current, "-o", dir + "/board.png", "--max-height", "1000", "-q"]).status == 1)
        let pages = try FileManager.default.contentsOfDirectory(atPath: dir).filter { $0.hasPrefix("board-") }.sorted()
        #expect(pages.count >= 2)
        try Data("mine".utf8).write(to: URL(fileURLWithPath: dir + "/board-99.png"))
        let result = try CLI.run(["diff", baseline, baseline, "-o", dir + "/board.png"])
        #expect(result.status == 0)
        #expect(result.stdout.hasSuffix("no board: nothing changed (removed the previous \(pages.map { dir + "/" + $0 }.joined(separator: ", ")))\n"), "\(result.stdout)")
        #expect(try FileManager.default.contentsOfDirectory(atPath: dir).filter { $0.hasPrefix("board") } == ["board-99.png"])
    }

    @Test func maxHeightIsChecked() throws {
        #expect(try CLI.run(["diff", "a", "b", "--max-height", "50", "-o", "b.png"]).stderr.contains("--max-height must be between 100 and 100000, got 50"))
        #expect(try CLI.run(["diff", "a", "b", "--max-height", "500"]).stderr.contains("--max-height cuts the board into pages: give the board with -o"))
    }
}

/// A report named on a device, FIFO or socket is refused before any work (before: the
/// report was written beside it and renamed over it: `--json /dev/full` as root left
/// /dev/full a regular file).
@Suite struct DiffSpecialOutputTests {
    @Test func aFIFOIsNotReplacedByAReport() throws {
        let dir = CLI.temporaryDirectory()
        try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
        let fifo = dir + "/report.json"
        #expect(mkfifo(fifo, 0o644) == 0)
        for flag in ["--json", "--junit"] {
            let result = try CLI.run(["diff", DiffCommandTests.fixtures + "/text-changed-a.png", DiffCommandTests.fixtures + "/text-changed-b.png", flag, fifo])
            #expect(result.status == 2)
            #expect(result.stderr == "error: \(fifo): \(flag) names a device, FIFO or socket, not a file (mosaic writes a file beside it and renames it into place; for standard output give -)\n")
            var status = stat()
            #expect(stat(fifo, &status) == 0 && (status.st_mode & S_IFMT) == S_IFIFO)
        }
    }
}
