import Foundation
import Mosaic
import Synchronization
import Testing

#if canImport(Glibc)
import Glibc
#endif

/// An approval changes every baseline it should or none (issue 35, the last stop): an
/// `--accept --accept-removed` whose baseline folder, or one folder or file in it, cannot be
/// written deleted the removed baselines (and replaced some others) before the write that
/// failed. Now every deletion is checked and every new file staged first; a failure there
/// leaves every baseline as it was, no temporary file, and names the folder or file and the
/// system's reason.
///
/// Run as root, which ignores permission bits: a read-only bind mount, `chattr +i` /
/// `chattr +a` and a small tmpfs are what stop root, each skipped visibly where the
/// machine does not allow it.
@Suite struct ApprovalAllOrNothingTests {
    /// Runs `script` with `sh -c` (`$1` the folder): status 0 or not.
    static func shell(_ script: String, _ dir: String) -> Bool {
        (try? CLI.runInShell(script, arguments: [dir]).status) == 0
    }

    /// Whether `chattr +i` and `+a` work on this file system (ext4, XFS, btrfs; not tmpfs or
    /// overlayfs), with CAP_LINUX_IMMUTABLE.
    static let canChattr: Bool = {
        let dir = CLI.temporaryDirectory()
        return shell("touch \"$1/f\" && chattr +i \"$1/f\" && chattr -i \"$1/f\" && chattr +a \"$1\" && chattr -a \"$1\"", dir)
    }()

    /// Whether this process may mount a tmpfs and remount a bind mount read-only.
    static let canMount: Bool = {
        let dir = CLI.temporaryDirectory()
        return shell("mkdir \"$1/m\" && mount --bind \"$1/m\" \"$1/m\" && mount -o remount,bind,ro \"$1/m\" && umount \"$1/m\" && mount -t tmpfs -o size=64k tmpfs \"$1/m\" && umount \"$1/m\"", dir)
    }()

    /// A baseline of four pairs: `a.png` changed, `gone/x.png` removed (earlier in path
    /// order than `lock/`), and in `lock/` one changed (`y.png`) and one removed
    /// (`z.png`); `new.png` added.
    static func folders(_ dir: String) throws -> (baseline: String, current: String) {
        let (baseline, current) = (dir + "/baseline", dir + "/current")
        for name in ["a.png", "gone/x.png", "lock/y.png", "lock/z.png"] { try ApprovalTrustTests.copy("text-changed-a.png", to: baseline + "/" + name) }
        for name in ["a.png", "lock/y.png"] { try ApprovalTrustTests.copy("text-changed-b.png", to: current + "/" + name) }
        try ApprovalTrustTests.copy("alpha-a.png", to: current + "/new.png")
        return (baseline, current)
    }

    /// Every file under `root`, temporary files too (a snapshot of the bytes).
    static func files(_ root: String) -> [String: Data] { BaselineApprovalTests.snapshot(root) }

    /// `lock/` bind-mounted read-only: the approval of every pair fails before changing
    /// anything: `gone/x.png` (deleted first before) is as it was.
    @Test(.enabled(if: canMount, "needs mount (root with CAP_SYS_ADMIN): skipped without it"))
    func aReadOnlyFolderChangesNothing() throws {
        try Self.approveLocked(
            "mount --bind \"$1\" \"$1\" && mount -o remount,bind,ro \"$1\"", unlock: "umount \"$1\"",
            refused: "lock/z.png", blocker: "lock", reason: "Read-only file system")
    }

    /// `lock/` made immutable or append-only, or `lock/y.png` immutable (`chattr`, which
    /// binds root too): `gone/x.png` and `lock/z.png` were deleted and `a.png` replaced
    /// before the rename over `lock/y.png` failed (and, in an append-only folder, its
    /// temporary file could not be removed). Now nothing is changed.
    @Test(.enabled(if: canChattr, "needs chattr on this file system (ext4, XFS, btrfs): skipped without it"), arguments: ["+i", "+a", "+i y.png"])
    func anImmutableOrAppendOnlyFolderOrFileChangesNothing(_ flag: String) throws {
        let file = flag.hasSuffix("y.png")
        let attribute = String(flag.prefix(2)), target = file ? "\"$1/y.png\"" : "\"$1\""
        try Self.approveLocked(
            "chattr \(attribute) \(target)", unlock: "chattr -\(attribute.dropFirst()) \(target)",
            refused: file ? "lock/y.png" : "lock/z.png", blocker: file ? nil : "lock", reason: "Operation not permitted")
    }

    /// Locks `lock/` with the script `lock` (`$1` the folder), approves every pair and
    /// expects the error for `refused` (the first step that cannot be done: deletions are
    /// checked first), `blocker` (nil: the file itself) and `reason`, every file as it
    /// was; then unlocks it and approves whole.
    static func approveLocked(_ lock: String, unlock: String, refused: String, blocker: String?, reason: String) throws {
        let dir = CLI.temporaryDirectory()
        let (baseline, current) = try Self.folders(dir)
        let folder = baseline + "/lock"
        try #require(Self.shell(lock, folder), "could not lock \(folder)")
        var locked = true
        defer { if locked { _ = Self.shell(unlock, folder) } }
        let before = Self.files(baseline)
        let run = try CLI.run(["diff", baseline, current, "--accept", "--accept-removed"])
        #expect(run.status == 2, "\(run.stdout)\(run.stderr)")
        let what = blocker.map { baseline + "/" + $0 } ?? "it"
        #expect(run.stderr == "error: \(baseline)/\(refused): cannot approve: \(what) cannot be changed: \(reason); no baseline was changed\n", "\(run.stderr)")
        #expect(!run.stdout.contains("deleted") && !run.stdout.contains("replaced") && !run.stdout.contains("created"), "\(run.stdout)")
        #expect(Self.files(baseline) == before)
        // Unlocked, the same approval goes through whole.
        try #require(Self.shell(unlock, folder))
        locked = false
        let again = try CLI.run(["diff", baseline, current, "--accept", "--accept-removed"])
        #expect(again.status == 0, "\(again.stdout)\(again.stderr)")
        #expect(try FileManager.default.subpathsOfDirectory(atPath: baseline).sorted() == ["a.png", "lock", "lock/y.png", "new.png"])
    }

    /// A disk that fills midway (a tmpfs of 128 KiB, two pages left): the removed baseline
    /// was deleted and `a.png` replaced before `new.png` found no space. Now the new files
    /// are staged first: the one that does not fit ends the approval with every baseline as
    /// it was and no temporary file.
    @Test(.enabled(if: canMount, "needs mount -t tmpfs (root with CAP_SYS_ADMIN): skipped without it"))
    func aDiskThatFillsMidwayChangesNothing() throws {
        let dir = CLI.temporaryDirectory()
        let disk = dir + "/disk"
        try FileManager.default.createDirectory(atPath: disk, withIntermediateDirectories: true)
        try #require(Self.shell("mount -t tmpfs -o size=128k tmpfs \"$1\"", disk))
        defer { _ = Self.shell("umount \"$1\"", disk) }
        let (baseline, current) = (disk + "/baseline", dir + "/current")
        for name in ["a.png", "gone.png"] { try ApprovalTrustTests.copy("text-changed-a.png", to: baseline + "/" + name) }
        try ApprovalTrustTests.copy("text-changed-b.png", to: current + "/a.png")
        try ApprovalTrustTests.copy("noise-a.png", to: current + "/new.png")  // 13 kB: 4 pages
        // Filled, then two pages given back: a.png's new copy fits, new.png does not,
        // even with gone.png's page freed first.
        _ = Self.shell("dd if=/dev/zero of=\"$1/fill\" bs=4096 2>/dev/null", disk)
        try #require(Self.shell("truncate -s -8192 \"$1/fill\"", disk))
        let before = Self.files(baseline)
        let run = try CLI.run(["diff", baseline, current, "--accept", "--accept-removed"])
        #expect(run.status == 2, "\(run.stdout)\(run.stderr)")
        #expect(run.stderr == "error: \(baseline)/new.png: cannot approve: No space left on device; no baseline was changed\n", "\(run.stderr)")
        #expect(Self.files(baseline) == before)
        #expect(try FileManager.default.contentsOfDirectory(atPath: baseline).sorted() == ["a.png", "gone.png"])
    }
}

extension ApprovalAllOrNothingTests {
    /// A removed baseline replaced by other bytes after the comparison listed it was
    /// deleted: the new file lost. Now a deletion is checked against the digest taken when
    /// listing, and the approval refused whole.
    @Test func aRemovedBaselineReplacedAfterTheComparisonIsNotDeleted() throws {
        let dir = CLI.temporaryDirectory()
        let (baseline, current) = try Self.folders(dir)
        let (_, approval) = try ApprovalTrustTests.plan(baseline, current)
        try ApprovalTrustTests.copy("noise-a.png", to: dir + "/other.png")
        _ = rename(dir + "/other.png", baseline + "/gone/x.png")
        let before = Self.files(baseline)
        var done: [String] = []
        #expect(throws: ApprovalError.changedSinceCompared(path: baseline + "/gone/x.png", source: baseline + "/gone/x.png")) {
            try approval.apply { done.append($0.relativePath) }
        }
        #expect(done.isEmpty)
        #expect(Self.files(baseline) == before)
    }
}

extension ApprovalAllOrNothingTests {
    /// Found by the hostile pass (`Fuzz/hostile-approval.py`): a baseline folder swapped for
    /// a link to a folder outside once files were staged in it. The approval refused the
    /// link (nothing written outside), but its staged files were left behind in the real
    /// folder, which it then looked for by its path. The folders staged in are held open
    /// now, and their files removed wherever the folder went.
    @Test func aFolderSwappedForALinkAfterStagingKeepsNoTemporaryFile() throws {
        let dir = CLI.temporaryDirectory()
        let (baseline, current) = (dir + "/baseline", dir + "/current")
        for i in 0..<300 {
            try ApprovalTrustTests.copy("text-changed-a.png", to: baseline + "/f\(i % 3)/p\(i).png")
            try ApprovalTrustTests.copy("text-changed-b.png", to: current + "/f\(i % 3)/p\(i).png")
        }
        try ApprovalTrustTests.copy("noise-a.png", to: dir + "/outside/p0.png")
        let (_, approval) = try ApprovalTrustTests.plan(baseline, current)
        let before = Self.files(baseline), outside = Self.files(dir + "/outside")
        // Once a file is staged in f0, f0 goes aside and a link to the folder outside
        // takes its name.
        let (folder, aside) = (baseline + "/f0", dir + "/f0-aside")
        let swapped = SwapFlag()
        let watcher = Thread {
            for _ in 0..<200_000 {
                let names = (try? FileManager.default.contentsOfDirectory(atPath: folder)) ?? []
                if names.contains(where: { $0.hasSuffix(".tmp") }) {
                    if rename(folder, aside) == 0, symlink(dir + "/outside", folder) == 0 { swapped.done.store(true, ordering: .sequentiallyConsistent) }
                    return
                }
            }
        }
        watcher.start()
        #expect(throws: ApprovalError.self) { try approval.apply() }
        while watcher.isExecuting { usleep(1000) }
        let didSwap = swapped.done.load(ordering: .sequentiallyConsistent)
        try #require(didSwap, "the approval staged every file before the folder could be swapped")
        #expect(unlink(folder) == 0 && rename(aside, folder) == 0)
        #expect(Self.files(baseline) == before, "\(Self.files(baseline).keys.filter { $0.hasSuffix(".tmp") }.prefix(3))")
        #expect(Self.files(dir + "/outside") == outside)
    }
}

/// Set by the thread that swapped the folder.
final class SwapFlag: Sendable {
    let done = Atomic<Bool>(false)
}
