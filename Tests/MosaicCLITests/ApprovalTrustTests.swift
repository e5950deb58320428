import Foundation
import Mosaic
import Testing

#if canImport(Glibc)
import Glibc
#endif

/// Approving never loses a screenshot (issue 35): folders that overlap are refused before
/// anything is read, a current file that is not an image is a failed pair (never a reason
/// to delete a baseline), what is written is what was compared, never through a link, and
/// a failed approval leaves neither a temporary file nor an empty folder it made.
@Suite struct ApprovalTrustTests {
    static let fixtures = DiffCommandTests.fixtures

    static func copy(_ fixture: String, to path: String) throws {
        try FileManager.default.createDirectory(atPath: (path as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
        try FileManager.default.copyItem(atPath: fixtures + "/" + fixture, toPath: path)
    }

    /// `mosaic diff R/b R/b/cur --accept --accept-removed` deleted R/b/cur/x.png (taken for
    /// a removed baseline), then failed: exit 2, the screenshot gone. Now every overlap,
    /// through links too, is refused before a file is read or written.
    @Test(arguments: [
        ("b", "b/cur", nil),
        ("b/cur", "b", nil),
        ("link", "b", nil),  // link -> b/cur
        ("b", "c", "b/into-c"),  // b/into-c -> ../c
        ("c", "b", "b/into-c"),
        ("b", "c", "b/up"),  // b/up -> .. (which holds c)
    ] as [(String, String, String?)])
    func overlappingFoldersAreRefusedBeforeAnything(_ baseline: String, _ current: String, _ link: String?) throws {
        let dir = CLI.temporaryDirectory()
        let fm = FileManager.default
        try Self.copy("text-changed-a.png", to: dir + "/b/x.png")
        try Self.copy("text-changed-a.png", to: dir + "/b/y.png")
        try Self.copy("text-changed-b.png", to: dir + "/b/cur/x.png")
        try Self.copy("text-changed-b.png", to: dir + "/c/x.png")
        try fm.createSymbolicLink(atPath: dir + "/link", withDestinationPath: "b/cur")
        if link == "b/into-c" { try fm.createSymbolicLink(atPath: dir + "/b/into-c", withDestinationPath: "../c") }
        if link == "b/up" { try fm.createSymbolicLink(atPath: dir + "/b/up", withDestinationPath: "..") }
        let before = BaselineApprovalTests.snapshot(dir)
        let run = try CLI.run(["diff", baseline, current, "--accept", "--accept-removed", "--json", "r.json"], in: dir)
        #expect(run.status == 2)
        let how = link.map { "\($0) is a link that leads into the other" } ?? "one is inside the other"
        #expect(run.stderr == "error: \(baseline) and \(current) overlap (\(how)): compare two separate folders\n", "\(run.stderr)")
        #expect(run.stdout.isEmpty)
        #expect(BaselineApprovalTests.snapshot(dir) == before)
        // One folder given twice is no overlap: every pair is unchanged.
        #expect(try CLI.run(["diff", "c", "c", "--accept", "--accept-removed"], in: dir).stdout == "0 changed, 0 added, 0 removed, 1 unchanged\n")
    }

    /// Whether this process may bind-mount a folder (root with CAP_SYS_ADMIN).
    static let canMount: Bool = {
        let dir = CLI.temporaryDirectory()
        try? FileManager.default.createDirectory(atPath: dir + "/a", withIntermediateDirectories: true)
        try? FileManager.default.createDirectory(atPath: dir + "/b", withIntermediateDirectories: true)
        guard (try? CLI.runInShell("mount --bind \"$1/a\" \"$1/b\" && umount \"$1/b\"", arguments: [dir]).status) == 0 else { return false }
        return true
    }()

    /// A folder mounted inside the baseline (`mount --bind`) that is the current folder, or
    /// one of its folders: no path shows the overlap. `--accept-removed` deleted the current
    /// screenshots through it as removed baselines (exit 0). Refused now, by device and
    /// inode, before anything is read or written.
    @Test(.enabled(if: canMount, "needs mount --bind (root with CAP_SYS_ADMIN): skipped without it"), arguments: ["c", "c/deep"])
    func aFolderMountedInsideTheOtherIsRefused(_ mounted: String) throws {
        let dir = CLI.temporaryDirectory()
        try Self.copy("text-changed-a.png", to: dir + "/b/x.png")
        try Self.copy("text-changed-b.png", to: dir + "/c/x.png")
        try Self.copy("text-changed-b.png", to: dir + "/c/deep/y.png")
        try FileManager.default.createDirectory(atPath: dir + "/b/cur", withIntermediateDirectories: true)
        #expect(try CLI.runInShell("mount --bind \"$1/\(mounted)\" \"$1/b/cur\"", arguments: [dir]).status == 0)
        defer { _ = try? CLI.runInShell("umount \"$1/b/cur\"", arguments: [dir]) }
        let before = BaselineApprovalTests.snapshot(dir + "/c")
        for (baseline, current) in [("b", "c"), ("c", "b")] {
            let run = try CLI.run(["diff", baseline, current, "--accept", "--accept-removed"], in: dir)
            #expect(run.status == 2)
            // The folder met second is named: the baseline is listed first.
            let folder = mounted == "c/deep" && baseline == "b" ? "c/deep" : "b/cur"
            #expect(run.stderr == "error: \(baseline) and \(current) overlap (\(folder) is the other folder, holds it or is one of its folders, mounted there): compare two separate folders\n", "\(run.stderr)")
            #expect(BaselineApprovalTests.snapshot(dir + "/c") == before)
        }
    }

    /// An empty current file was "removed", and `--accept --accept-removed` deleted its
    /// baseline with exit 0. It is a failed pair now (exit 1), as is a current file that is
    /// not an image, a FIFO, a link that leads nowhere, and an added PNG cut short; none is
    /// approved and no baseline is deleted.
    @Test func aCurrentFileThatIsNoImageIsAFailedPairNeverADeletion() throws {
        let dir = CLI.temporaryDirectory()
        let (baseline, current) = (dir + "/baseline", dir + "/current")
        for name in ["empty.png", "text.png", "fifo.png", "dangling.png", "ok.png"] { try Self.copy("text-changed-a.png", to: baseline + "/" + name) }
        try Self.copy("text-changed-b.png", to: current + "/ok.png")
        #expect(FileManager.default.createFile(atPath: current + "/empty.png", contents: Data()))
        try "notes".write(toFile: current + "/text.png", atomically: false, encoding: .utf8)
        #expect(mkfifo(current + "/fifo.png", 0o644) == 0)
        try FileManager.default.createSymbolicLink(atPath: current + "/dangling.png", withDestinationPath: "nowhere.png")
        let whole = try Data(contentsOf: URL(fileURLWithPath: Self.fixtures + "/noise-a.png"))
        try whole.prefix(200).write(to: URL(fileURLWithPath: current + "/cut.png"))
        let before = BaselineApprovalTests.snapshot(baseline)
        let run = try CLI.run(["diff", baseline, current, "--accept", "--accept-removed"])
        #expect(run.status == 1, "\(run.stdout)\(run.stderr)")
        #expect(run.stdout == """
            changed    ok.png: 41 px (0.667%) in 74,20 7x17, 1 region, largest delta 0.890, 50 anti-aliased
            failed     cut.png: \(current)/cut.png: invalid PNG: the file ends early
            failed     dangling.png: \(current)/dangling.png: cannot read: No such file or directory
            failed     empty.png: \(current)/empty.png: not an image: the file is empty
            failed     fifo.png: \(current)/fifo.png: not a file: it is a FIFO (named pipe) (not read)
            failed     text.png: \(current)/text.png: not a RAW, JPEG, PNG, WebP, GIF, HEIF, AVIF, TIFF, JPEG XL or video file
            skipped    fifo.png: a FIFO (named pipe), not read
            1 changed, 0 added, 0 removed, 0 unchanged, 5 failed
            replaced   \(baseline)/ok.png

            """, "\(run.stdout)")
        var after = before
        after["ok.png"] = try Data(contentsOf: URL(fileURLWithPath: current + "/ok.png"))
        #expect(BaselineApprovalTests.snapshot(baseline) == after)
        // Named one by one, they are not approved either.
        let named = try CLI.run(["diff", baseline, current, "--accept-only", "empty.png", "--accept-only", "cut.png", "--accept-removed"])
        #expect(named.status == 1, "\(named.stdout)\(named.stderr)")
        #expect(named.stdout.hasSuffix("not approved  empty.png: could not be read, not approved\nnot approved  cut.png: could not be read, not approved\n"), "\(named.stdout)")
        #expect(BaselineApprovalTests.snapshot(baseline) == after)
    }

    /// The comparison's pairs of `baseline` and `current`, and the approval of them all.
    static func plan(_ baseline: String, _ current: String) throws -> (FolderComparison, BaselineApproval) {
        let comparison = try FolderComparison.compare(baseline: baseline, current: current, jobs: 1)
        return (comparison, try BaselineApproval(comparison: comparison, baseline: baseline, acceptChanged: true, acceptRemoved: true))
    }

    /// A current file replaced between the comparison and the approval (by a file cut
    /// short, by another image, by a link to another file) became the baseline. Now the
    /// approval writes the bytes that were compared or nothing: the one changed is refused
    /// and, the approval being all or nothing, every baseline left as it was.
    @Test(arguments: ["cut short", "another image", "a link to another file", "a FIFO"])
    func aCurrentImageChangedAfterTheComparisonIsNotApproved(_ swap: String) throws {
        let dir = CLI.temporaryDirectory()
        let (baseline, current) = (dir + "/baseline", dir + "/current")
        try Self.copy("text-changed-a.png", to: baseline + "/a.png")
        try Self.copy("text-changed-a.png", to: baseline + "/b.png")
        try Self.copy("text-changed-b.png", to: current + "/a.png")
        try Self.copy("text-changed-b.png", to: current + "/b.png")
        try Self.copy("noise-a.png", to: dir + "/other.png")
        let (_, approval) = try Self.plan(baseline, current)
        let compared = try Data(contentsOf: URL(fileURLWithPath: current + "/a.png"))
        let old = try Data(contentsOf: URL(fileURLWithPath: baseline + "/b.png"))
        let fm = FileManager.default
        try fm.removeItem(atPath: current + "/b.png")
        switch swap {
        case "cut short": try compared.prefix(100).write(to: URL(fileURLWithPath: current + "/b.png"))
        case "another image": try fm.copyItem(atPath: dir + "/other.png", toPath: current + "/b.png")
        case "a link to another file": try fm.createSymbolicLink(atPath: current + "/b.png", withDestinationPath: dir + "/other.png")
        default: #expect(mkfifo(current + "/b.png", 0o644) == 0)
        }
        var done: [String] = []
        #expect(throws: ApprovalError.changedSinceCompared(path: baseline + "/b.png", source: current + "/b.png")) {
            try approval.apply { done.append($0.relativePath) }
        }
        // All or nothing: the pair before it is not approved either, the swapped one left
        // as it was, no file staged for them left behind.
        #expect(done.isEmpty)
        #expect(try Data(contentsOf: URL(fileURLWithPath: baseline + "/a.png")) == old)
        #expect(try Data(contentsOf: URL(fileURLWithPath: baseline + "/b.png")) == old)
        #expect(try fm.contentsOfDirectory(atPath: baseline).sorted() == ["a.png", "b.png"])
    }

    /// A baseline folder swapped for a link between the check and the write (here, after
    /// the plan): the approval opens each folder without following links, so the file at
    /// the link's end is never written.
    @Test func aFolderSwappedForALinkIsNeverWrittenThrough() throws {
        let dir = CLI.temporaryDirectory()
        let (baseline, current) = (dir + "/baseline", dir + "/current")
        try Self.copy("text-changed-a.png", to: baseline + "/ui/a.png")
        try Self.copy("text-changed-b.png", to: current + "/ui/a.png")
        try Self.copy("text-changed-a.png", to: dir + "/elsewhere/a.png")
        let (_, approval) = try Self.plan(baseline, current)
        let fm = FileManager.default
        try fm.moveItem(atPath: baseline + "/ui", toPath: dir + "/moved")
        try fm.createSymbolicLink(atPath: baseline + "/ui", withDestinationPath: dir + "/elsewhere")
        #expect(throws: ApprovalError.throughLink(path: baseline + "/ui/a.png", link: baseline + "/ui")) { try approval.apply() }
        #expect(try Data(contentsOf: URL(fileURLWithPath: dir + "/elsewhere/a.png")) == Data(contentsOf: URL(fileURLWithPath: Self.fixtures + "/text-changed-a.png")))
        #expect(try fm.contentsOfDirectory(atPath: dir + "/elsewhere") == ["a.png"])
        // A link on the way found when planning (one that stays inside the baseline) is
        // refused before anything is written.
        try fm.removeItem(atPath: baseline + "/ui")
        try fm.moveItem(atPath: dir + "/moved", toPath: baseline + "/real")
        try fm.createSymbolicLink(atPath: baseline + "/ui", withDestinationPath: "real")
        let comparison = try FolderComparison.compare(baseline: baseline, current: current, jobs: 1)
        #expect(throws: ApprovalError.throughLink(path: baseline + "/ui/a.png", link: baseline + "/ui")) {
            try BaselineApproval(comparison: comparison, baseline: baseline, acceptChanged: true, acceptRemoved: false)
        }
    }

    /// Folders emptied by `--accept-removed` were left behind, and then blocked an added
    /// file of their name. Now they are removed (not those that keep other files, nor the
    /// ones a file is written into), and the added file takes the name.
    @Test func foldersEmptiedByDeletionsAreRemoved() throws {
        let dir = CLI.temporaryDirectory()
        let (baseline, current) = (dir + "/baseline", dir + "/current")
        try Self.copy("alpha-a.png", to: baseline + "/gone/deep/x.png")
        try Self.copy("alpha-a.png", to: baseline + "/kept/x.png")
        try "notes".write(toFile: baseline + "/kept/notes.txt", atomically: false, encoding: .utf8)
        try Self.copy("alpha-a.png", to: baseline + "/refilled/x.png")
        try Self.copy("noise-a.png", to: current + "/refilled/y.png")
        try Self.copy("alpha-a.png", to: baseline + "/taken/in/x.png")
        try Self.copy("noise-a.png", to: current + "/taken")
        try FileManager.default.createDirectory(atPath: current + "/gone", withIntermediateDirectories: true)
        let run = try CLI.run(["diff", baseline, current, "--accept", "--accept-removed"])
        #expect(run.status == 0, "\(run.stdout)\(run.stderr)")
        #expect(run.stdout.hasSuffix("""
            deleted    \(baseline)/gone/deep/x.png
            deleted    \(baseline)/kept/x.png
            deleted    \(baseline)/refilled/x.png
            deleted    \(baseline)/taken/in/x.png
            created    \(baseline)/refilled/y.png
            created    \(baseline)/taken

            """), "\(run.stdout)")
        let files = try FileManager.default.subpathsOfDirectory(atPath: baseline).sorted()
        #expect(files == ["kept", "kept/notes.txt", "refilled", "refilled/y.png", "taken"])
        #expect(try CLI.run(["diff", baseline, current]).stdout == "0 changed, 0 added, 0 removed, 2 unchanged\n")
    }

    /// A write that fails (here over `ulimit -f`, which used to end the program with
    /// SIGXFSZ) leaves no `.NAME.mosaic-PID-N.tmp` and no folder it made, and, the
    /// approval being all or nothing, every baseline old.
    @Test func aFailedApprovalLeavesNoTemporaryFileNorFolder() throws {
        let dir = CLI.temporaryDirectory()
        let (baseline, current) = (dir + "/baseline", dir + "/current")
        try Self.copy("text-changed-a.png", to: baseline + "/a.png")
        try Self.copy("text-changed-b.png", to: current + "/a.png")
        // 13 kB, over the limit of 4 blocks; a.png, 1.9 kB, is under it.
        try Self.copy("noise-a.png", to: current + "/deep/er/big.png")
        let before = BaselineApprovalTests.snapshot(baseline)
        let run = try CLI.runInShell("ulimit -f 4 && exec \"$0\" diff \"$1\" \"$2\" --accept -q", arguments: [baseline, current])
        #expect(run.status == 2, "\(run.stdout)\(run.stderr)")
        #expect(run.stderr == "error: \(baseline)/deep/er/big.png: cannot approve: File too large; no baseline was changed\n", "\(run.stderr)")
        #expect(BaselineApprovalTests.snapshot(baseline) == before)
        #expect(try FileManager.default.subpathsOfDirectory(atPath: baseline) == ["a.png"])
    }

    /// The digest is xz's CRC-64 and the length.
    @Test func theDigestIsTheCRC64OfXZ() {
        #expect(ContentDigest(of: Array("123456789".utf8)) == ContentDigest(byteCount: 9, crc64: 0x995D_C9BB_DF19_39FA))
        #expect(ContentDigest(of: []) == ContentDigest(byteCount: 0, crc64: 0))
    }
}
