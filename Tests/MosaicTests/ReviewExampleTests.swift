import Foundation
import Mosaic
import MosaicTestSupport
import Testing

/// The review guide's example (`docs/guide/review-job.md`): a whole review run from Swift
/// through `DiffJob`, compiled and run here on two folders of the diff fixtures; a test
/// checks that the guide shows exactly this code.
@Suite struct ReviewExampleTests {
    static func example(baseline: String, current: String, reports: String) throws -> (DiffJob.Result, DiffJob.Result) {
        // DOC-BEGIN
        import_Mosaic()

        // Two folders of screenshots, matched by relative path, as
        // `mosaic diff baseline current --max-diff-pixels 20 --json ... --junit ... --html ... -o ...` compares them.
        var request = DiffRequest(baseline: baseline, current: current)
        request.tolerance = DiffTolerance(maximumPixels: 20)  // a pair differing in 20 px or fewer passes
        request.reports.json = reports + "/report.json"
        request.reports.junit = reports + "/junit.xml"
        request.reports.html = reports + "/index.html"
        request.reports.board = reports + "/board.png"  // baseline | current | diff for each changed pair

        // The reports are checked against the images before any work, and each is renamed
        // into place once written.
        let review = try DiffJob(request: request).run { event in
            if case .summary(let lines) = event { lines.forEach { print($0) } }
        }
        for pair in review.report.changedBySeverity {
            print(pair.relativePath, review.report.figures(pair))
        }
        print(review.passes ? "passed" : "failed")

        // Approve: each changed baseline replaced by its current image, the added ones created.
        request.approval = DiffRequest.Approval(changed: true)
        request.reports = DiffRequest.Reports()
        let approved = try DiffJob(request: request).run { event in
            if case .approved(let line) = event { print(line) }  // "replaced   baseline/ui/button.png"
        }
        print(approved.passes)  // true: every pair not approved passes
        // DOC-END
        return (review, approved)
    }

    @Test func theExampleRuns() throws {
        let dir = NSTemporaryDirectory() + "mosaic-review-example-\(getpid())"
        try? FileManager.default.removeItem(atPath: dir)
        let fm = FileManager.default
        for folder in ["baseline/ui", "current/ui", "reports"] { try fm.createDirectory(atPath: dir + "/" + folder, withIntermediateDirectories: true) }
        let fixtures = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().appendingPathComponent("MosaicDiffTests/Fixtures").path
        for (from, to) in [
            ("identical-a.png", "baseline/same.png"), ("identical-b.png", "current/same.png"),
            ("text-changed-a.png", "baseline/ui/button.png"), ("text-changed-b.png", "current/ui/button.png"),
            ("noise-a.png", "current/new.png"),
        ] {
            try fm.copyItem(atPath: fixtures + "/" + from, toPath: dir + "/" + to)
        }
        let (review, approved) = try Self.example(baseline: dir + "/baseline", current: dir + "/current", reports: dir + "/reports")
        #expect(!review.passes)
        #expect(review.report.comparison.count(of: .changed) == 1 && review.report.comparison.count(of: .added) == 1)
        #expect(review.board == [dir + "/reports/board.png"])
        for file in ["report.json", "junit.xml", "index.html", "board.png", "index_files"] { #expect(fm.fileExists(atPath: dir + "/reports/" + file), "\(file)") }
        #expect(approved.passes)
        #expect(approved.approval?.steps.map(\.action) == [.created, .replaced])
        #expect(fm.contentsEqual(atPath: dir + "/baseline/ui/button.png", andPath: fixtures + "/text-changed-b.png"))
        #expect(fm.contentsEqual(atPath: dir + "/baseline/new.png", andPath: fixtures + "/noise-a.png"))
    }
}
