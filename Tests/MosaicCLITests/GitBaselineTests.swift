import Foundation
import Mosaic
import Testing

/// `mosaic diff BASELINE CURRENT --baseline-ref REF`: BASELINE read from a commit through
/// the machine's git, without a checkout; approving into the work tree only, never over an
/// uncommitted edit; LFS pointers and shallow clones named; names keep their bytes; the
/// commit in a sharded run's fingerprint. Small repositories built with `git` in a
/// temporary folder.
@Suite(.enabled(if: GitTool.path != nil, "needs git (apt-get install git)"))
struct GitBaselineTests {
    static var git: String? { GitTool.path }
    static let fixtures = DiffCommandTests.fixtures

    /// Runs git in `dir`; its standard output, trimmed.
    @discardableResult
    static func run(_ arguments: [String], in dir: String) throws -> String {
        let settings = ["-c", "user.name=t", "-c", "user.email=t@example.com", "-c", "init.defaultBranch=main", "-c", "protocol.file.allow=always"]
        let output = try VersionTests.git(["-C", dir] + settings + arguments)
        #expect(output != nil, "git \(arguments.joined(separator: " "))")
        return output ?? ""
    }

    static func copy(_ fixture: String, to path: String) throws {
        try FileManager.default.createDirectory(atPath: (path as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
        try? FileManager.default.removeItem(atPath: path)
        try FileManager.default.copyItem(atPath: fixtures + "/" + fixture, toPath: path)
    }

    /// A repository: `shots/` committed on main (a button, an unchanged page, a name that
    /// is not UTF-8), tagged `v1`; then the work tree's button edited (not committed), and
    /// `current/` (untracked) with the new button.
    static func repository() throws -> (dir: String, shots: String, current: String) {
        let dir = CLI.temporaryDirectory()
        try run(["init", "-q"], in: dir)
        try copy("text-changed-a.png", to: dir + "/shots/ui/button.png")
        try copy("identical-a.png", to: dir + "/shots/same.png")
        // "caf\xE9.png": Latin-1, not UTF-8.
        try copy("noise-a.png", to: dir + "/noise.png")
        #expect(try CLI.runInShell("mv \"$1/noise.png\" \"$1/shots/caf$(printf '\\351').png\"", arguments: [dir]).status == 0)
        try run(["add", "."], in: dir)
        try run(["commit", "-qm", "baselines"], in: dir)
        try run(["tag", "v1"], in: dir)
        try copy("text-changed-b.png", to: dir + "/shots/ui/button.png")
        try copy("text-changed-b.png", to: dir + "/current/ui/button.png")
        try copy("identical-a.png", to: dir + "/current/same.png")
        return (dir, dir + "/shots", dir + "/current")
    }

    @Test func theBaselineIsReadFromTheCommitNotTheWorkTree() throws {
        let (dir, shots, current) = try Self.repository()
        // The work tree's button is the current one: unchanged there; the committed one
        // differs.
        #expect(try CLI.run(["diff", shots, current]).stdout.hasSuffix("0 changed, 0 added, 1 removed, 2 unchanged\n"))
        let head = try Self.run(["rev-parse", "HEAD"], in: dir)
        for ref in ["main", "v1", "HEAD", String(head.prefix(10))] {
            let result = try CLI.run(["diff", shots, current, "--baseline-ref", ref, "--json", dir + "/r.json"])
            #expect(result.status == 1, "\(ref): \(result.stderr)")
            #expect(result.stdout.hasPrefix("changed    ui/button.png: 41 px"), "\(result.stdout)")
            let report = try DiffConfigTests.json(dir + "/r.json")
            #expect(report["baselineCommit"] as? String == head)
            let pairs = try #require(report["pairs"] as? [[String: Any]])
            // Named as BASELINE's files; the name that is not UTF-8 by its bytes.
            #expect(pairs.first { $0["path"] as? String == "ui/button.png" }?["baseline"] as? String == shots + "/ui/button.png")
            let latin = try #require(pairs.first { ($0["path"] as? String)?.hasPrefix("caf") == true })
            #expect(latin["pathBytes"] as? String == Data(Array("caf".utf8) + [0xE9] + Array(".png".utf8)).base64EncodedString())
            #expect(latin["status"] as? String == "removed")
        }
        // The private copy (in the git folder) removed; the work tree and the index as
        // they were.
        let left = try FileManager.default.contentsOfDirectory(atPath: dir + "/.git").filter { $0.hasPrefix("mosaic-baseline-") }
        #expect(left.isEmpty, "\(left)")
        #expect(try Self.run(["status", "--porcelain", "--", "shots"], in: dir) == "M shots/ui/button.png")
    }

    /// Files the work tree holds as committed are copied from it; the others are read
    /// from git (one cat-file process for so few).
    @Test func unchangedFilesComeFromTheWorkTree() throws {
        let (dir, shots, _) = try Self.repository()
        let baseline = try GitBaseline(baseline: shots, ref: "main")
        defer { baseline.remove() }
        #expect(baseline.blobCount == 1 && baseline.workTreeCopies == 2)
        // Linked from the work tree (the same file system: the git folder), not copied.
        var (linked, original) = (stat(), stat())
        #expect(stat(baseline.path + "/same.png", &linked) == 0 && stat(shots + "/same.png", &original) == 0 && linked.st_ino == original.st_ino)
        #expect(try Data(contentsOf: URL(fileURLWithPath: baseline.path + "/ui/button.png")) == Data(contentsOf: URL(fileURLWithPath: Self.fixtures + "/text-changed-a.png")))
        // A single file too.
        let file = try GitBaseline(baseline: dir + "/shots/same.png", ref: "main")
        defer { file.remove() }
        #expect(file.path.hasSuffix("/same.png") && file.workTreeCopies == 1 && file.blobCount == 0)
    }

    /// Many blobs, none in the work tree: read through several cat-file processes at once
    /// (one per core), each with its share; every file its committed bytes, under its name.
    @Test func manyBlobsStreamThroughSeveralProcesses() throws {
        let dir = CLI.temporaryDirectory()
        try Self.run(["init", "-q"], in: dir)
        let fixtures = ["identical-a.png", "text-changed-a.png", "noise-a.png"]
        for n in 0..<130 { try Self.copy(fixtures[n % 3], to: dir + "/shots/f\(n % 4)/\(n).png") }
        // A blob of its own each: a byte appended after the PNG's end.
        for n in 0..<130 {
            let handle = try FileHandle(forWritingTo: URL(fileURLWithPath: dir + "/shots/f\(n % 4)/\(n).png"))
            try handle.seekToEnd()
            try handle.write(contentsOf: Data([UInt8(n)]))
            try handle.close()
        }
        try Self.run(["add", "."], in: dir)
        try Self.run(["commit", "-qm", "many"], in: dir)
        try FileManager.default.moveItem(atPath: dir + "/shots", toPath: dir + "/away")
        let baseline = try GitBaseline(baseline: dir + "/shots", ref: "HEAD")
        defer { baseline.remove() }
        #expect(baseline.blobCount == 130 && baseline.workTreeCopies == 0)
        for n in 0..<130 {
            let name = "f\(n % 4)/\(n).png"
            #expect(FileManager.default.contents(atPath: baseline.path + "/" + name) == FileManager.default.contents(atPath: dir + "/away/" + name), "\(name)")
        }
    }

    @Test func aMergeBaseIsAReference() throws {
        let (dir, shots, current) = try Self.repository()
        try Self.run(["checkout", "-q", "-b", "feature"], in: dir)
        try Self.run(["commit", "-qam", "new button"], in: dir)
        try Self.run(["checkout", "-q", "main"], in: dir)
        try Self.copy("alpha-a.png", to: shots + "/ui/button.png")
        try Self.run(["commit", "-qam", "another button on main"], in: dir)
        try Self.run(["checkout", "-q", "feature"], in: dir)
        // From feature: the merge base with main is the first commit (the old button).
        let result = try CLI.run(["diff", shots, current, "--baseline-ref", "merge-base:main", "--json", dir + "/r.json"])
        #expect(result.stdout.hasPrefix("changed    ui/button.png: 41 px"), "\(result.stdout) \(result.stderr)")
        #expect(try DiffConfigTests.json(dir + "/r.json")["baselineCommit"] as? String == (try Self.run(["rev-parse", "v1"], in: dir)))
    }

    @Test func refsThatNameNothingAreRefusedWithWhatToDo() throws {
        let (dir, shots, current) = try Self.repository()
        func refused(_ baseline: String, _ ref: String) -> GitBaselineError? {
            do {
                _ = try DiffJob(request: {
                    var request = DiffRequest(baseline: baseline, current: current)
                    request.baselineRef = ref
                    return request
                }()).run()
                return nil
            } catch let error as GitBaselineError {
                return error
            } catch {
                Issue.record("\(error)")
                return nil
            }
        }
        #expect(refused(shots, "nope") == .unknownRef(ref: "nope", shallow: false))
        #expect(refused(shots, "merge-base:nope") == .unknownRef(ref: "nope", shallow: false))
        #expect(refused(shots, "--output=x") == .unknownRef(ref: "--output=x", shallow: false))
        let head = try Self.run(["rev-parse", "HEAD"], in: dir)
        #expect(refused(dir + "/elsewhere", "main") == .notInCommit(path: dir + "/elsewhere", ref: "main", commit: head))
        let outside = CLI.temporaryDirectory()
        try Self.copy("identical-a.png", to: outside + "/b/same.png")
        #expect(refused(outside + "/b", "main") == .notARepository(path: outside + "/b"))
        let result = try CLI.run(["diff", shots, current, "--baseline-ref", "nope"])
        #expect(result.status == 2 && result.stderr.hasPrefix("error: --baseline-ref nope: no such commit here"), "\(result.stderr)")
        // The HTML report says which commit, and holds the committed image.
        #expect(try CLI.run(["diff", shots, current, "--baseline-ref", "main", "--html", dir + "/page.html"]).status == 1)
        let settings = try #require(DiffHTMLReportTests.pageData(dir + "/page.html")["settings"] as? String)
        #expect(settings.contains("baseline read from commit \(head.prefix(12))"), "\(settings)")
        #expect(FileManager.default.contents(atPath: dir + "/page_files/baseline/00001.png") == FileManager.default.contents(atPath: Self.fixtures + "/text-changed-a.png"))
        let links = try CLI.run(["diff", shots, current, "--baseline-ref", "main", "--html", dir + "/r.html", "--html-links"])
        #expect(links.status == 64 && links.stderr.contains("drop --html-links"), "\(links.stderr)")
    }

    @Test func aShallowCloneSaysHowToFetchTheRef() throws {
        let (dir, shots, _) = try Self.repository()
        try Self.run(["commit", "-qam", "second"], in: dir)
        let clone = CLI.temporaryDirectory() + "/clone"
        try Self.run(["clone", "-q", "--depth", "1", "file://" + dir, clone], in: dir)
        _ = shots
        try Self.copy("text-changed-b.png", to: clone + "/current/ui/button.png")
        let result = try CLI.run(["diff", clone + "/shots", clone + "/current", "--baseline-ref", "v1"])
        #expect(result.status == 2)
        #expect(result.stderr == "error: --baseline-ref v1: no such commit here: this clone is shallow; fetch it (git fetch --depth=1 origin v1, or git fetch --unshallow; actions/checkout: fetch-depth: 0)\n", "\(result.stderr)")
        // Fetched as it says, it is read.
        try Self.run(["fetch", "-q", "--depth=1", "origin", "tag", "v1"], in: clone)
        #expect(try CLI.run(["diff", clone + "/shots", clone + "/current", "--baseline-ref", "v1"]).stdout.hasPrefix("changed    ui/button.png"))
    }

    @Test func anLFSPointerIsNamedAndItsObjectUsedWhenPresent() throws {
        let (dir, shots, current) = try Self.repository()
        let image = try Data(contentsOf: URL(fileURLWithPath: Self.fixtures + "/text-changed-a.png"))
        let oid = Self.sha256(image)
        try Data("version https://git-lfs.github.com/spec/v1\noid sha256:\(oid)\nsize \(image.count)\n".utf8).write(to: URL(fileURLWithPath: shots + "/ui/button.png"))
        try Self.run(["commit", "-qam", "as LFS"], in: dir)
        let result = try CLI.run(["diff", shots, current, "--baseline-ref", "HEAD"])
        #expect(result.status == 2)
        #expect(result.stderr == "error: ui/button.png: an LFS pointer, not the image: run git lfs pull (or git lfs fetch origin <ref>)\n", "\(result.stderr)")
        // The work tree holding the image (as git-lfs's smudge leaves it) differs from the
        // pointer: the blob is read from git, and is still a pointer.
        try image.write(to: URL(fileURLWithPath: shots + "/ui/button.png"))
        #expect(try CLI.run(["diff", shots, current, "--baseline-ref", "HEAD"]).stderr == result.stderr)
        // Once git lfs pull brought the object, it is read from .git/lfs/objects.
        let folder = dir + "/.git/lfs/objects/" + oid.prefix(2) + "/" + oid.dropFirst(2).prefix(2)
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        try image.write(to: URL(fileURLWithPath: folder + "/" + oid))
        let pulled = try CLI.run(["diff", shots, current, "--baseline-ref", "HEAD"])
        #expect(pulled.stdout.hasPrefix("changed    ui/button.png: 41 px"), "\(pulled.stdout) \(pulled.stderr)")
    }

    @Test func approvingWritesTheWorkTreeNeverOverAnUncommittedEdit() throws {
        let (dir, shots, current) = try Self.repository()
        let head = try Self.run(["rev-parse", "HEAD"], in: dir)
        // The work tree's button was edited: refused, nothing written.
        let refused = try CLI.run(["diff", shots, current, "--baseline-ref", "main", "--accept", "--json", dir + "/r.json"])
        #expect(refused.status == 2)
        #expect(refused.stderr.hasSuffix("shots/ui/button.png differs from its committed bytes in main: an uncommitted edit is never overwritten (commit or restore it, then approve)\n"), "\(refused.stderr)")
        #expect(!FileManager.default.fileExists(atPath: dir + "/r.json"))
        #expect(try Data(contentsOf: URL(fileURLWithPath: shots + "/ui/button.png")) == Data(contentsOf: URL(fileURLWithPath: current + "/ui/button.png")))
        // Restored: approved into the work tree; git's commits and index untouched.
        try Self.run(["checkout", "--", "shots"], in: dir)
        try Self.copy("alpha-a.png", to: current + "/new.png")
        let approved = try CLI.run(["diff", shots, current, "--baseline-ref", "main", "--accept"])
        // (The removed pair, not approved, still fails the run.)
        #expect(approved.status == 1, "\(approved.stderr)")
        #expect(approved.stdout.contains("replaced   \(shots)/ui/button.png") && approved.stdout.contains("created    \(shots)/new.png"), "\(approved.stdout)")
        #expect(try Self.run(["rev-parse", "HEAD"], in: dir) == head)
        #expect(try Self.run(["status", "--porcelain", "--", "shots"], in: dir) == "M shots/ui/button.png\n?? shots/new.png")
        // A committed baseline deleted in the work tree is not approved over either.
        try Self.run(["checkout", "--", "shots"], in: dir)
        try FileManager.default.removeItem(atPath: shots + "/same.png")
        try Self.copy("noise-a.png", to: current + "/same.png")
        let deleted = try CLI.run(["diff", shots, current, "--baseline-ref", "main", "--accept-only", "same.png"])
        #expect(deleted.status == 2 && deleted.stderr.contains("same.png is in main but not in the work tree"), "\(deleted.stderr)")
        #expect(!FileManager.default.fileExists(atPath: shots + "/same.png"))
    }

    @Test func theCommitJoinsTheShardsFingerprint() throws {
        let (dir, shots, current) = try Self.repository()
        try Self.run(["checkout", "-q", "--", "shots"], in: dir)
        try Self.run(["tag", "v0"], in: dir)
        try Self.run(["commit", "-q", "--allow-empty", "-m", "same files"], in: dir)
        let parts = [dir + "/p0.json", dir + "/p1.json"]
        _ = try CLI.run(["diff", shots, current, "--baseline-ref", "v0", "--shard", "0/2", "--json", parts[0]])
        _ = try CLI.run(["diff", shots, current, "--baseline-ref", "HEAD", "--shard", "1/2", "--json", parts[1]])
        let refused = try CLI.run(["diff", "--merge"] + parts + ["--json", dir + "/m.json"])
        #expect(refused.status == 2 && refused.stderr.contains("the baseline commits"), "\(refused.stderr)")
        _ = try CLI.run(["diff", shots, current, "--baseline-ref", "v0", "--shard", "1/2", "--json", parts[1]])
        let merged = try CLI.run(["diff", "--merge"] + parts + ["--json", dir + "/m.json"])
        #expect(merged.status == 1, "\(merged.stderr)")
        #expect(try DiffConfigTests.json(dir + "/m.json")["baselineCommit"] as? String == (try Self.run(["rev-parse", "v0"], in: dir)))
    }

    static func sha256(_ data: Data) -> String {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/sha256sum")
        let (input, output) = (Pipe(), Pipe())
        (process.standardInput, process.standardOutput) = (input, output)
        try? process.run()
        input.fileHandleForWriting.write(data)
        try? input.fileHandleForWriting.close()
        let text = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        return String(text.prefix(64))
    }
}

/// The machine's git, when it has one.
enum GitTool {
    static let path: String? = ["/usr/bin/git", "/usr/local/bin/git", "/bin/git"].first { FileManager.default.isExecutableFile(atPath: $0) }
}
