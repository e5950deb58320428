import Foundation
import Mosaic
import Testing

#if canImport(Glibc)
import Glibc
#endif

/// `mosaic diff --accept`: approving baselines writes into BASELINE, only there, only what
/// was asked, one file at a time, each either old or new; and the page that ticks pairs
/// offers the command that does it.
@Suite struct BaselineApprovalTests {
    /// Every file under `root` (hidden ones too) and its bytes.
    static func snapshot(_ root: String) -> [String: Data] {
        var files: [String: Data] = [:]
        let enumerator = FileManager.default.enumerator(atPath: root)
        while let name = enumerator?.nextObject() as? String {
            if let data = FileManager.default.contents(atPath: root + "/" + name) { files[name] = data }
        }
        return files
    }

    @Test func acceptOnlyApprovesTheNamedPairsAndTheOthersStillFail() throws {
        let (baseline, current) = try DiffCommandTests.folders()
        let first = try CLI.run(["diff", baseline, current, "--accept-only", "ui/button.png"])
        #expect(first.status == 1, "\(first.stderr)")
        #expect(first.stdout.contains("replaced   \(baseline)/ui/button.png\n"))
        #expect(FileManager.default.contents(atPath: baseline + "/ui/button.png") == FileManager.default.contents(atPath: current + "/ui/button.png"))
        // A second run: the accepted pair unchanged, the added and removed ones still fail.
        let second = try CLI.run(["diff", baseline, current])
        #expect(second.status == 1)
        #expect(second.stdout.hasSuffix("0 changed, 1 added, 1 removed, 2 unchanged\n"), "\(second.stdout)")
        // Removed pairs need their own flag; then everything passes, and so does a third run.
        let all = try CLI.run(["diff", baseline, current, "--accept", "--accept-removed"])
        #expect(all.status == 0, "\(all.stdout)\(all.stderr)")
        #expect(all.stdout.contains("created    \(baseline)/new.png\n") && all.stdout.contains("deleted    \(baseline)/old.png\n"))
        let third = try CLI.run(["diff", baseline, current])
        #expect(third.status == 0 && third.stdout == "0 changed, 0 added, 0 removed, 3 unchanged\n")
    }

    @Test func anAcceptedRunExitsZeroWhenTheRestPasses() throws {
        let (baseline, current) = try DiffCommandTests.folders()
        let run = try CLI.run(["diff", baseline, current, "--accept-only", "ui/button.png", "--accept-only", "new.png", "--accept-only", "old.png", "--accept-removed"])
        #expect(run.status == 0, "\(run.stdout)\(run.stderr)")
        // Created inside a folder made for it.
        try FileManager.default.createDirectory(atPath: current + "/deep/er", withIntermediateDirectories: true)
        try FileManager.default.copyItem(atPath: current + "/new.png", toPath: current + "/deep/er/x.png")
        #expect(try CLI.run(["diff", baseline, current, "--accept"]).status == 0)
        #expect(FileManager.default.contents(atPath: baseline + "/deep/er/x.png") != nil)
    }

    static let unsafe = "not a relative path inside the baseline (no leading /, no . or .. components)"

    @Test(arguments: [
        (["--accept-only", "nope.png"], "nope.png: not a pair of this comparison (name it as the report does, relative to the baseline)"),
        (["--accept-only", "../current/new.png"], "../current/new.png: \(Self.unsafe)"),
        (["--accept-only", "/etc/passwd"], "/etc/passwd: \(Self.unsafe)"),
        (["--accept-only", "ui//button.png"], "ui//button.png: \(Self.unsafe)"),
        (["--accept-only", "./new.png"], "./new.png: \(Self.unsafe)"),
        (["--accept-only", "ui/button.png", "--accept-only", "old.png"], "old.png was removed: add --accept-removed to delete its baseline"),
        (["--accept-from", "/nonexistent/list.txt"], "/nonexistent/list.txt: cannot read the list of pairs: No such file or directory"),
        (["--accept-from", "/dev/zero"], "/dev/zero: cannot read the list of pairs: longer than 64 MiB"),
    ])
    func aBadNameIsAUsageErrorBeforeAnythingIsWritten(_ arguments: [String], _ message: String) throws {
        let (baseline, current) = try DiffCommandTests.folders()
        let dir = (baseline as NSString).deletingLastPathComponent
        let before = Self.snapshot(dir)
        let run = try CLI.run(["diff", baseline, current, "--json", dir + "/r.json", "--junit", dir + "/r.xml"] + arguments)
        #expect(run.status == 64, "\(run.stderr)")
        #expect(run.stderr == "error: \(message)\n")
        // Not a report, not a baseline.
        #expect(Self.snapshot(dir) == before)
    }

    @Test func aListFromStandardInputOrAFile() throws {
        let (baseline, current) = try DiffCommandTests.folders()
        let stdin = try CLI.run(["diff", baseline, current, "--accept-from", "-", "--accept-removed"], input: "ui/button.png\r\n\nold.png\n")
        #expect(stdin.status == 1 && stdin.stdout.contains("replaced   ") && stdin.stdout.contains("deleted    "), "\(stdin.stderr)")
        let list = (baseline as NSString).deletingLastPathComponent + "/list.txt"
        try "new.png\n".write(toFile: list, atomically: true, encoding: .utf8)
        let file = try CLI.run(["diff", baseline, current, "--accept-from", list])
        #expect(file.status == 0, "\(file.stdout)\(file.stderr)")
    }

    /// Names that are not UTF-8 are named by their bytes, on the command line and in a list.
    @Test func namesThatAreNotUTF8() throws {
        let (baseline, current) = try DiffCommandTests.folders()
        let dir = (baseline as NSString).deletingLastPathComponent
        let latin1 = FileNames.string(fromBytes: Array("caf".utf8) + [0xE9] + Array(".png".utf8))
        let other = FileNames.string(fromBytes: Array("na".utf8) + [0xEF] + Array("ve.png".utf8))
        // Written with the system's bytes: Foundation's URL would take the escapes as UTF-8.
        for name in [latin1, other] {
            for (side, fixture) in [(baseline, "text-changed-a.png"), (current, "text-changed-b.png")] {
                let data = try Data(contentsOf: URL(fileURLWithPath: DiffCommandTests.fixtures + "/" + fixture))
                let fd = FileNames.withSystemPath(side + "/" + name) { open($0, O_WRONLY | O_CREAT | O_TRUNC, 0o644) }
                #expect(fd >= 0)
                _ = data.withUnsafeBytes { write(fd, $0.baseAddress, $0.count) }
                close(fd)
            }
        }
        let one = try CLI.runInShell("\"$0\" diff \"$1\" \"$2\" --accept-only \"$(printf 'caf\\351.png')\"", arguments: [baseline, current])
        #expect(one.status == 1 && one.stdout.contains("replaced   \(baseline)/caf\u{FFFD}.png"), "\(one.stdout)\(one.stderr)")
        let list = dir + "/list.txt"
        try Data(Array("na".utf8) + [0xEF] + Array("ve.png\nui/button.png\nnew.png\nold.png\n".utf8)).write(to: URL(fileURLWithPath: list))
        let rest = try CLI.run(["diff", baseline, current, "--accept-from", list, "--accept-removed"])
        #expect(rest.status == 0, "\(rest.stdout)\(rest.stderr)")
        let again = try CLI.run(["diff", baseline, current])
        #expect(again.status == 0 && again.stdout == "0 changed, 0 added, 0 removed, 5 unchanged\n", "\(again.stdout)")
    }

    /// A link in the baseline that resolves outside it: the file there is never written.
    @Test func nothingOutsideTheBaselineIsWritten() throws {
        let (baseline, current) = try DiffCommandTests.folders()
        let dir = (baseline as NSString).deletingLastPathComponent
        let fm = FileManager.default
        try fm.moveItem(atPath: baseline + "/ui", toPath: dir + "/elsewhere")
        try fm.createSymbolicLink(atPath: baseline + "/ui", withDestinationPath: dir + "/elsewhere")
        let before = try Data(contentsOf: URL(fileURLWithPath: dir + "/elsewhere/button.png"))
        let run = try CLI.run(["diff", baseline, current, "--accept"])
        #expect(run.status == 2)
        #expect(run.stderr == "error: \(baseline)/ui/button.png: resolves outside the baseline; not written\n")
        #expect(try Data(contentsOf: URL(fileURLWithPath: dir + "/elsewhere/button.png")) == before)
        // Nothing else was written either: the check comes before the first file.
        #expect(!fm.fileExists(atPath: baseline + "/new.png"))
        // A current image whose name a non-image file takes in the baseline: a pair that
        // failed, not an added one, so not approved and the file not replaced.
        try fm.removeItem(atPath: baseline + "/ui")
        try fm.moveItem(atPath: dir + "/elsewhere", toPath: baseline + "/ui")
        try "notes".write(toFile: baseline + "/new.png", atomically: true, encoding: .utf8)
        let taken = try CLI.run(["diff", baseline, current, "--accept"])
        #expect(taken.status == 1 && taken.stdout.contains("failed     new.png: \(baseline)/new.png: not a RAW, JPEG, PNG"), "\(taken.stdout)")
        #expect(!taken.stdout.contains("new.png\n") && taken.stderr.isEmpty, "\(taken.stdout)\(taken.stderr)")
        #expect(try String(contentsOfFile: baseline + "/new.png", encoding: .utf8) == "notes")
    }

    @Test func aSingleFilePairIsApprovedInPlace() throws {
        let dir = CLI.temporaryDirectory()
        try FileManager.default.copyItem(atPath: DiffCommandTests.fixtures + "/text-changed-a.png", toPath: dir + "/a.png")
        try FileManager.default.copyItem(atPath: DiffCommandTests.fixtures + "/text-changed-b.png", toPath: dir + "/b.png")
        let run = try CLI.run(["diff", dir + "/a.png", dir + "/b.png", "--accept"])
        #expect(run.status == 0 && run.stdout.hasSuffix("replaced   \(dir)/a.png\n"), "\(run.stdout)\(run.stderr)")
        #expect(try CLI.run(["diff", dir + "/a.png", dir + "/b.png"]).stdout == "0 changed, 0 added, 0 removed, 1 unchanged\n")
        #expect(try FileManager.default.contentsOfDirectory(atPath: dir).sorted() == ["a.png", "b.png"])
    }

    /// Killed at any moment (SIGKILL: no handler runs), every baseline is its old bytes or
    /// its new ones, never a part.
    @Test func anInterruptedApprovalLeavesEachBaselineOldOrNew() throws {
        let dir = CLI.temporaryDirectory()
        let fm = FileManager.default
        for side in ["baseline", "current"] { try fm.createDirectory(atPath: dir + "/" + side, withIntermediateDirectories: true) }
        var generator = SystemRandomNumberGenerator()
        var image = Bitmap(width: 384, height: 384, fill: .white)
        for y in 0..<384 { for x in 0..<384 { image[x, y] = RGBA(red: .random(in: 0...255, using: &generator), green: .random(in: 0...255, using: &generator), blue: 90) } }
        let count = 24
        for i in 0..<count {
            image[i, 0] = RGBA(red: 0, green: 0, blue: 0)
            try image.writePNG(to: dir + "/baseline/\(i).png")
            var changed = image
            for y in 100..<110 { for x in (10 * i)..<(10 * i + 10) { changed[x, y] = RGBA(red: 255, green: 0, blue: 255) } }
            try changed.writePNG(to: dir + "/current/\(i).png")
        }
        let old = Self.snapshot(dir + "/baseline"), new = Self.snapshot(dir + "/current")
        // How long a whole approval takes here (the machine may be loaded): the trials are
        // killed at 10% to 87% of it, so that most are cut, some while comparing, some
        // while writing.
        try fm.copyItem(atPath: dir + "/baseline", toPath: dir + "/work")
        let start = Date()
        #expect(try CLI.run(["diff", dir + "/work", dir + "/current", "--accept", "-q"]).status == 0)
        let approving = Date().timeIntervalSince(start)
        var interrupted = 0
        for trial in 0..<8 {
            try? fm.removeItem(atPath: dir + "/work")
            try fm.copyItem(atPath: dir + "/baseline", toPath: dir + "/work")
            let run = try CLI.run(["diff", dir + "/work", dir + "/current", "--accept", "-q"], timeout: approving * (0.1 + 0.11 * Double(trial)))
            if run.status == 9 { interrupted += 1 }
            let after = Self.snapshot(dir + "/work")
            for (name, data) in after where !name.hasPrefix(".") {
                #expect(data == old[name] || data == new[name], "trial \(trial): \(name) is neither")
            }
            #expect(after.keys.filter { !$0.hasPrefix(".") }.count == count)
        }
        // Some runs were cut (else the test proves nothing); a later approval completes.
        #expect(interrupted > 0)
        #expect(try CLI.run(["diff", dir + "/work", dir + "/current", "--accept", "-q"]).status == 0)
        // ... and removes what the killed runs left (hidden temporary files of dead processes).
        #expect(Self.snapshot(dir + "/work") == new)
    }

    /// The page: tick two pairs (mouse clicks), read the command it offers and the list it
    /// gives, run the command as a shell would: those two pairs pass, the others still fail.
    @Test(.enabled(if: Browser.available, "needs Chromium (apt-get install chromium); in CI it must be there"))
    func thePageOffersTheCommandThatApprovesTheTickedPairs() throws {
        let (dir, baseline, current) = try DiffHTMLReportTests.folders()
        let quoted = "it's $(echo no).png"
        try FileManager.default.copyItem(atPath: DiffCommandTests.fixtures + "/text-changed-a.png", toPath: baseline + "/" + quoted)
        try FileManager.default.copyItem(atPath: DiffCommandTests.fixtures + "/text-changed-b.png", toPath: current + "/" + quoted)
        // Run where the report is, with relative folders, as a CI job would.
        let made = try CLI.run(["diff", "baseline", "current", "--html", "report.html"], in: dir)
        #expect(made.status == 1, "\(made.stderr)")

        let browser = try Browser()
        try browser.open(URL(fileURLWithPath: dir + "/report.html").absoluteString)
        try browser.wait(until: "document.body && document.body.dataset.ready", "the page to start")
        #expect(try browser.evaluate("document.getElementById('approve').hidden") as? Bool == true)
        // Failing pairs have a box; the failed one (nothing to approve) has none.
        #expect(try browser.evaluate("document.querySelectorAll('input.approve').length") as? Int == 5)
        for name in ["ui/button.png", quoted] {
            let point = try #require(try browser.evaluate("""
                (() => { const box = [...document.querySelectorAll('input.approve')].find((b) => b.closest('h2').children[1].textContent === \(Self.javaScriptString(name)));
                  box.scrollIntoView({ block: "center" }); const r = box.getBoundingClientRect(); return [r.x + r.width / 2, r.y + r.height / 2]; })()
                """) as? [Double])
            try browser.click(x: point[0], y: point[1])
        }
        try browser.wait(until: "document.body.dataset.ticked === '2'", "two ticked pairs")
        let command = try #require(try browser.evaluate("document.getElementById('accept-command').textContent") as? String)
        #expect(command == "mosaic diff 'baseline' 'current' --accept-only 'it'\\''s $(echo no).png' --accept-only 'ui/button.png'")
        #expect(try browser.evaluate("document.getElementById('approve').hidden") as? Bool == false)
        let list = try browser.evaluate("fetch(document.getElementById('accept-list').href).then((r) => r.text())") as? String
        #expect(list == quoted + "\nui/button.png\n")
        try browser.screenshot().write(to: URL(fileURLWithPath: dir + "/ticked.png"))

        // The command, as offered, run by a shell in the report's folder.
        let run = try CLI.runInShell("cd \"$1\" && \"$0\"" + command.dropFirst("mosaic".count), arguments: [dir])
        #expect(run.status == 1, "\(run.stdout)\(run.stderr)")
        #expect(run.stdout.contains("replaced   baseline/ui/button.png\n") && run.stdout.contains("replaced   baseline/\(quoted)\n"))
        let again = try CLI.run(["diff", "baseline", "current"], in: dir)
        #expect(again.status == 1)
        #expect(again.stdout.hasPrefix("changed    screen.png") && again.stdout.hasSuffix("1 changed, 1 added, 1 removed, 3 unchanged, 1 failed\n"), "\(again.stdout)")
    }

    /// `text` as a JavaScript string literal.
    static func javaScriptString(_ text: String) -> String {
        String(decoding: (try? JSONSerialization.data(withJSONObject: [text])) ?? Data("[\"\"]".utf8), as: UTF8.self).dropFirst().dropLast().description
    }

    @Test func theMarkdownSummaryAndTheAnnotations() throws {
        let (baseline, current) = try DiffCommandTests.folders()
        let dir = (baseline as NSString).deletingLastPathComponent
        let run = try CLI.run(["diff", baseline, current, "--markdown", "-"], environment: ["GITHUB_ACTIONS": "true"])
        #expect(run.status == 1)
        // The summary alone on standard output; the people's lines and the workflow
        // commands on standard error.
        #expect(run.stdout.hasPrefix("## mosaic diff: ❌ failed\n\n1 changed, 1 added, 1 removed, 1 unchanged\n\n| Pair | Status | Differing pixels | Regions |\n"))
        #expect(run.stdout.contains("\n| `ui/button.png` | changed | 41 px"))
        #expect(run.stdout.contains("\\, 1 region\\, largest delta 0\\.890\\, 50 anti\\-aliased | 1 |\n"), "\(run.stdout)")
        #expect(run.stderr.contains("::error file=\(GitHubAnnotations.property(current + "/ui/button.png")),title=mosaic diff%3A changed::ui/button.png changed: 41 px (0.667%25)"))
        #expect(run.stderr.contains("::error file=\(GitHubAnnotations.property(baseline + "/old.png")),title=mosaic diff%3A removed::old.png removed (no current image)\n"))
        // Without the variable, no workflow commands.
        #expect(!(try CLI.run(["diff", baseline, current]).stdout.contains("::error")))
        // A file, with links to the HTML report's diff images.
        let files = try CLI.run(["diff", baseline, current, "--markdown", dir + "/summary.md", "--html", dir + "/report.html", "--link-base", "https://ci.example/42"])
        #expect(files.status == 1, "\(files.stderr)")
        let text = try String(contentsOfFile: dir + "/summary.md", encoding: .utf8)
        #expect(text.contains("| [diff](https://ci.example/42/report_files/00001.png) |"))
        #expect(FileManager.default.fileExists(atPath: dir + "/report_files/00001.png"))
    }

    @Test(arguments: [
        (["--markdown", "-", "--json", "-"], "--json and --markdown cannot both go to standard output"),
        (["--markdown", "s.md", "--link-base", "https://x"], "--link-base sets where --markdown links the diff images of --html: give both"),
    ])
    func markdownUsageErrors(_ arguments: [String], _ message: String) throws {
        let run = try CLI.run(["diff", "a", "b"] + arguments)
        #expect(run.status == 64 && run.stderr.contains(message), "\(run.stderr)")
    }
}
