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
