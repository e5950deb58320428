import Foundation
import MosaicImage

/// Why baselines could not be approved. The first four are usage errors (exit 64), found
/// before anything is written; the others stop the approval at the file named.
public enum ApprovalError: Error, Equatable, Sendable, CustomStringConvertible {
    /// A name given is not a pair of this run.
    case notAPair(name: String)
    /// A name given is absolute, empty or holds a `.`, `..` or empty component.
    case unsafeName(name: String)
    /// A removed pair was named without `--accept-removed`.
    case removedNeedsFlag(name: String)
    /// An `--accept-from` list that cannot be read.
    case cannotReadList(path: String, reason: String)
    /// The file to write or delete lies outside the baseline (a symbolic link that resolves
    /// elsewhere, or a baseline that is itself a link).
    case outsideBaseline(path: String)
    /// A folder on the way to the file is a symbolic link (`link`), though one that stays
    /// inside the baseline: approving never writes through a link.
    case throughLink(path: String, link: String)
    /// Something that is not a regular file stands where a baseline goes (a folder, a FIFO,
    /// a file the comparison did not take for an image).
    case inTheWay(path: String, kind: String)
    /// The current image `source` no longer holds the bytes the comparison read (replaced,
    /// truncated, or now a link to another file): `path`, its baseline, is left as it was.
    case changedSinceCompared(path: String, source: String)
    /// A pair to approve whose current image's bytes the comparison did not keep (a result
    /// made by hand, or read back from a report): nothing is written.
    case notCompared(name: String)
    /// A system call failed before the approval changed anything: every baseline is as it
    /// was (the files staged for it removed).
    case cannotWrite(path: String, reason: String)
    /// A folder or file the approval must change cannot be changed (`blocker`: a read-only
    /// mount, a folder or file made immutable or append-only; `reason`, the system's
    /// message): found before anything was changed, every baseline as it was.
    case cannotChange(path: String, blocker: String, reason: String)
    /// A rename or deletion failed after every file was staged and checked (the file
    /// system changed under the approval): `done` of `total` baselines are new or deleted,
    /// the others as they were, no temporary file left.
    case partlyApplied(path: String, reason: String, done: Int, total: Int)

    /// True for the errors of what was asked (exit 64), found before anything is written.
    public var isUsage: Bool {
        switch self {
        case .notAPair, .unsafeName, .removedNeedsFlag, .cannotReadList: return true
        default: return false
        }
    }

    public var description: String {
        let show = FileNames.display
        switch self {
        case .notAPair(let name): return "\(show(name)): not a pair of this comparison (name it as the report does, relative to the baseline)"
        case .unsafeName(let name): return "\(show(name)): not a relative path inside the baseline (no leading /, no . or .. components)"
        case .removedNeedsFlag(let name): return "\(show(name)) was removed: add --accept-removed to delete its baseline"
        case .cannotReadList(let path, let reason): return "\(show(path)): cannot read the list of pairs: \(reason)"
        case .outsideBaseline(let path): return "\(show(path)): resolves outside the baseline; not written"
        case .throughLink(let path, let link): return "\(show(path)): \(show(link)) is a symbolic link; approving never writes through one"
        case .inTheWay(let path, let kind): return "\(show(path)): \(kind) stands where the baseline goes; not replaced"
        case .changedSinceCompared(let path, let source):
            return "\(show(path)): not approved: \(show(source)) changed since it was compared (compare again, then approve); no baseline was changed"
        case .notCompared(let name): return "\(show(name)): its current image was not read by this comparison; not approved"
        case .cannotWrite(let path, let reason): return "\(show(path)): cannot approve: \(reason); no baseline was changed"
        case .cannotChange(let path, let blocker, let reason):
            let what = blocker == path ? "it" : show(blocker)
            return "\(show(path)): cannot approve: \(what) cannot be changed: \(reason); no baseline was changed"
        case .partlyApplied(let path, let reason, let done, let total):
            return "\(show(path)): cannot approve: \(reason); \(done) of \(total) baselines were changed before it, the others are as they were"
        }
    }
}

/// `mosaic diff BASE CUR --accept`: the one place mosaic writes into an input, on request.
/// Each approved pair's baseline becomes a byte copy of its current image (replaced, or
/// created with the folders it needs), or is deleted (a removed pair, with
/// `--accept-removed`; a folder left empty by that is removed too).
///
/// What is written is what was compared: the current image is read again and must have
/// the digest the comparison took of it (`PairResult.currentDigest`), and the file is
/// written from those bytes. All or nothing as far as the file system allows: every file
/// is staged beside its destination and synced, and every deletion checked, before the
/// first baseline changes (`apply`), so a failed approval changes none and leaves no
/// temporary file, and a killed one leaves each baseline either old or new. Nothing is written outside the baseline folder,
/// nor through a link: names are checked, and each folder on the way is opened from the
/// baseline's without following links (`O_NOFOLLOW`), so a folder swapped for a link
/// during the approval is refused, not followed.
public struct BaselineApproval: Sendable {
    public enum Action: String, Sendable, Equatable {
        case replaced, created, deleted
    }

    /// One file to write or delete.
    public struct Step: Sendable, Equatable {
        /// The pair's name, relative to the baseline (as the reports name it).
        public var relativePath: String
        public var action: Action
        /// The baseline file written or deleted.
        public var destination: String
        /// The current image copied (nil when deleting).
        public var source: String?
        /// What `source` held when it was compared: what is written. For a deletion, what
        /// the baseline held when the comparison listed it (nil when it did not read it):
        /// a baseline of other bytes is not deleted.
        public var digest: ContentDigest?
    }

    /// What will be done, in path order (deletions are carried out first, see `apply`).
    public let steps: [Step]
    /// Pairs named that are not approved, and why ("unchanged", "could not be read").
    public let skipped: [(relativePath: String, reason: String)]
    /// The baseline as given: a folder, or a single file.
    let baseline: String
    let single: Bool
    /// Every pair's baseline file: beside them, the temporary files of an approval killed
    /// before are removed (whichever pairs this one approves).
    let leftoverSites: [String]

    /// Plans the approval of `comparison`'s pairs under `baseline` (a folder, or a single
    /// file compared with one other). Without `names`, every changed and added pair when
    /// `acceptChanged`, every removed one when `acceptRemoved`; with `names`, just those
    /// (each must be a pair of the run; a removed one needs `acceptRemoved`). A pair that
    /// failed (an image that could not be read, an empty file) is never approved.
    ///
    /// - Throws: `ApprovalError` (usage errors for names; `.outsideBaseline`,
    ///   `.throughLink` or `.inTheWay` for a destination) before anything is written.
    public init(
        comparison: FolderComparison, baseline: String, acceptChanged: Bool, acceptRemoved: Bool, names: [String]? = nil
    ) throws(ApprovalError) {
        (steps, skipped, single) = try Self.plan(comparison, baseline: baseline, acceptChanged: acceptChanged, acceptRemoved: acceptRemoved, names: names)
        self.baseline = baseline
        leftoverSites = single ? [baseline] : comparison.results.map { baseline + "/" + $0.relativePath }
    }

    /// `init`'s work: the steps, the pairs named but not approved, and whether the
    /// baseline is a single file.
    static func plan(
        _ comparison: FolderComparison, baseline: String, acceptChanged: Bool, acceptRemoved: Bool, names: [String]?
    ) throws(ApprovalError) -> ([Step], [(relativePath: String, reason: String)], Bool) {
        // By the names' bytes: café with é and with e + U+0301 are two pairs.
        let byName = Dictionary(comparison.results.map { (FileNames.bytes(of: $0.relativePath), $0) }, uniquingKeysWith: { a, _ in a })
        var chosen: [PairResult] = []
        var skipped: [(String, String)] = []
        if let names {
            var seen: Set<[UInt8]> = []
            for name in names where seen.insert(FileNames.bytes(of: name)).inserted {
                guard Self.isSafe(name) else { throw .unsafeName(name: name) }
                guard let result = byName[FileNames.bytes(of: name)] else { throw .notAPair(name: name) }
                switch result.status {
                case .changed, .added, .withinTolerance: chosen.append(result)
                case .removed:
                    guard acceptRemoved else { throw .removedNeedsFlag(name: name) }
                    chosen.append(result)
                case .unchanged: skipped.append((name, "unchanged, nothing to approve"))
                case .failed: skipped.append((name, "could not be read, not approved"))
                }
            }
            chosen.sort { FileNames.precedes($0.relativePath, $1.relativePath) }
        } else {
            chosen = comparison.results.filter {
                (acceptChanged && ($0.status == .changed || $0.status == .added)) || (acceptRemoved && $0.status == .removed)
            }
        }
        let single = !FileNames.isFolder(baseline)
        let root = FileNames.realPath(baseline) ?? baseline
        // What the deletions will take away: a folder holding only those is no obstacle.
        let deleted = Set(chosen.filter { $0.status == .removed }.map { FileNames.bytes(of: $0.relativePath) })
        var steps: [Step] = []
        for result in chosen {
            let destination = single ? baseline : baseline + "/" + result.relativePath
            let action: Action = result.status == .removed ? .deleted : (result.status == .added ? .created : .replaced)
            if action != .deleted && (result.currentDigest == nil || result.currentPath == nil) { throw .notCompared(name: result.relativePath) }
            if single {
                try Self.checkSingle(destination)
            } else {
                try Self.check(result.relativePath, in: baseline, root: root, action: action, deleted: deleted)
            }
            steps.append(Step(
                relativePath: result.relativePath, action: action, destination: destination,
                source: action == .deleted ? nil : result.currentPath, digest: action == .deleted ? result.baselineDigest : result.currentDigest))
        }
        return (steps, skipped.map { (relativePath: $0.0, reason: $0.1) }, single)
    }

    /// True when every pair not approved passes: the exit status 0 of an approving run.
    public func remainingPass(_ comparison: FolderComparison) -> Bool {
        let approved = Set(steps.map(\.relativePath))
        return comparison.results.allSatisfy {
            approved.contains($0.relativePath) || $0.status == .unchanged || $0.status == .withinTolerance
        }
    }

    /// Carries out the steps, all or none as far as the file system allows: first every
    /// deletion is checked (its folder and file changeable, the file still the one listed)
    /// and every new baseline staged beside its destination (its current image read again
    /// and checked against the digest compared, written, synced); a failure there removes
    /// what was staged and leaves every baseline as it was. Then, with interrupts held
    /// back, the staged files are renamed into place, the removed baselines deleted, the
    /// folders that left empty removed, and last the files that take the name of such a
    /// folder renamed. `done` is called for each step carried out, the deletions first.
    ///
    /// - Throws: before anything is changed, `ApprovalError.cannotWrite` (a full disk),
    ///   `.cannotChange` (a read-only or immutable folder or file), `.changedSinceCompared`,
    ///   `.throughLink` or `.inTheWay`; after, `.partlyApplied` (a rename or deletion the
    ///   checks did not foresee failed).
    public func apply(_ done: (Step) -> Void = { _ in }) throws(ApprovalError) {
        // What an approval killed before left beside the baselines (its process gone).
        TemporaryFiles.removeLeftovers(besides: leftoverSites)
        let top = single ? ((baseline as NSString).deletingLastPathComponent) : baseline
        let root = FileNames.withSystemPath(top.isEmpty ? "." : top) { open($0, O_RDONLY | O_DIRECTORY | O_CLOEXEC) }
        guard root >= 0 else { throw .cannotWrite(path: steps.first?.destination ?? baseline, reason: String(cString: strerror(errno))) }
        defer { close(root) }
        let tree = BaselineTree(root: root, path: top.isEmpty ? "." : top)
        let deletions = steps.filter { $0.action == .deleted }, writes = steps.filter { $0.action != .deleted }
        // Folders the deletions empty, deepest first; not those a file is written into.
        var needed: Set<[String]> = []
        for step in writes {
            let folder = location(of: step).folder
            for depth in 0...folder.count { needed.insert(Array(folder.prefix(depth))) }
        }
        var emptied: Set<[String]> = []
        for step in deletions {
            let folder = location(of: step).folder
            for depth in stride(from: folder.count, to: 0, by: -1) where !needed.contains(Array(folder.prefix(depth))) {
                emptied.insert(Array(folder.prefix(depth)))
            }
        }
        // Nothing changed yet: every deletion checked, every new file staged.
        var staged: [(step: Step, file: BaselineTree.Staged)] = []
        do throws(ApprovalError) {
            for step in deletions {
                let (folder, name) = location(of: step)
                try tree.checkDeletion(name, in: folder, destination: step.destination, digest: step.digest)
            }
            for step in writes {
                guard let source = step.source, let digest = step.digest else { throw .notCompared(name: step.relativePath) }
                let bytes = try Self.verifiedBytes(of: source, digest: digest, for: step.destination)
                let (folder, name) = location(of: step)
                let file = try tree.stage(bytes, as: name, in: folder, destination: step.destination, folderGoes: emptied.contains(folder + [name]))
                staged.append((step, file))
            }
        } catch {
            tree.discard(staged.map(\.file))
            throw error
        }
        // The commit: renames first (a new baseline in place is no loss if what follows
        // fails), then deletions and the folders they empty, then the files that take the
        // name of such a folder.
        var touched: Set<[String]> = []
        defer { for folder in touched.sorted(by: { $0.count > $1.count }) { tree.sync(folder) } }
        var carried: Set<String> = []
        var failure: ApprovalError?
        TemporaryFiles.withInterruptsDeferred {
            func rename(_ pending: ArraySlice<(step: Step, file: BaselineTree.Staged)>) -> Bool {
                for (offset, (step, file)) in zip(pending.indices, pending) {
                    do throws(ApprovalError) {
                        try tree.commit(file)
                    } catch {
                        tree.discard(pending[(offset + 1)...].map(\.file))
                        failure = .partlyApplied(path: step.destination, reason: Self.reason(error), done: carried.count, total: steps.count)
                        return false
                    }
                    touched.insert(file.folder)
                    carried.insert(step.destination)
                }
                return true
            }
            let first = staged.filter { !emptied.contains($0.file.folder + [$0.file.name]) }
            let last = staged.filter { emptied.contains($0.file.folder + [$0.file.name]) }
            guard rename(first[...]) else {
                tree.discard(last.map(\.file))
                return
            }
            for step in deletions {
                let (folder, name) = location(of: step)
                do throws(ApprovalError) {
                    try tree.delete(name, in: folder, destination: step.destination)
                } catch {
                    tree.discard(last.map(\.file))
                    failure = .partlyApplied(path: step.destination, reason: Self.reason(error), done: carried.count, total: steps.count)
                    return
                }
                touched.insert(folder)
                carried.insert(step.destination)
            }
            for folder in emptied.sorted(by: { $0.count != $1.count ? $0.count > $1.count : $0.lexicographicallyPrecedes($1) }) {
                if tree.removeIfEmpty(folder) { touched.insert(Array(folder.dropLast())) }
            }
            _ = rename(last[...])
        }
        for step in deletions + writes where carried.contains(step.destination) { done(step) }
        if let failure { throw failure }
    }

    /// The system's reason in an error met while committing.
    static func reason(_ error: ApprovalError) -> String {
        switch error {
        case .cannotWrite(_, let reason), .cannotChange(_, _, let reason): return reason
        default: return error.description
        }
    }

    /// A step's folder (components below the baseline's, or below a single file's folder)
    /// and file name.
    func location(of step: Step) -> (folder: [String], name: String) {
        if single { return ([], (step.destination as NSString).lastPathComponent) }
        let components = step.relativePath.split(separator: "/", omittingEmptySubsequences: true).map(String.init)
        return (Array(components.dropLast()), components.last ?? step.relativePath)
    }

    /// The bytes of `source` as the comparison read them: read again (no more than the
    /// digest's length and one byte), and refused when their digest is another.
    static func verifiedBytes(of source: String, digest: ContentDigest, for destination: String) throws(ApprovalError) -> [UInt8] {
        let bytes: [UInt8]
        do {
            bytes = try FileBytes.read(source, limit: digest.byteCount + 1).bytes
        } catch {
            if case .notAFile = error { throw .changedSinceCompared(path: destination, source: source) }
            throw .cannotWrite(path: destination, reason: error.description)
        }
        guard bytes.count == digest.byteCount, ContentDigest(of: bytes) == digest else {
            throw .changedSinceCompared(path: destination, source: source)
        }
        return bytes
    }

    /// The names of an `--accept-from` list: one a line (a final carriage return dropped),
    /// blank lines skipped; bytes that are not UTF-8 kept (`FileNames`).
    public static func names(fromList bytes: [UInt8]) -> [String] {
        bytes.split(separator: UInt8(ascii: "\n"), omittingEmptySubsequences: true).compactMap { line in
            let trimmed = line.last == UInt8(ascii: "\r") ? line.dropLast() : line[...]
            return trimmed.isEmpty ? nil : FileNames.string(fromBytes: trimmed)
        }
    }

    /// The longest `--accept-from` list read: 64 MiB (a million names of 60 bytes).
    public static let listLimit = 64 << 20

    /// Reads an `--accept-from` list: a file, or standard input for `-` (at most
    /// `listLimit` bytes).
    public static func names(fromFile path: String) throws(ApprovalError) -> [String] {
        var bytes: [UInt8] = []
        let fd = path == "-" ? 0 : FileNames.withSystemPath(path) { open($0, O_RDONLY | O_CLOEXEC) }
        guard fd >= 0 else { throw .cannotReadList(path: path, reason: String(cString: strerror(errno))) }
        defer { if fd != 0 { close(fd) } }
        var buffer = [UInt8](repeating: 0, count: 65536)
        while true {
            let count = buffer.withUnsafeMutableBytes { read(fd, $0.baseAddress, $0.count) }
            if count == 0 { break }
            if count < 0 {
                if errno == EINTR { continue }
                throw .cannotReadList(path: path, reason: String(cString: strerror(errno)))
            }
            bytes += buffer[0..<count]
            // `/dev/zero`, or a file that is not a list: refused before memory runs out.
            guard bytes.count <= listLimit else { throw .cannotReadList(path: path, reason: "longer than \(listLimit >> 20) MiB") }
        }
        return names(fromList: bytes)
    }

    /// A name relative to the baseline: not empty, not absolute, no `.`, `..` or empty
    /// component.
    static func isSafe(_ name: String) -> Bool {
        guard !name.isEmpty, !name.hasPrefix("/") else { return false }
        return !name.split(separator: "/", omittingEmptySubsequences: false).contains { $0.isEmpty || $0 == "." || $0 == ".." }
    }

    /// A single-file baseline must not be a link (it would be replaced by a file, or
    /// written through).
    static func checkSingle(_ destination: String) throws(ApprovalError) {
        var link = stat()
        if FileNames.withSystemPath(destination, { lstat($0, &link) }) == 0, (link.st_mode & S_IFMT) == S_IFLNK {
            throw .outsideBaseline(path: destination)
        }
    }

    /// Checks the way to `relative` under `baseline` (whose real path is `root`) before
    /// anything is written: no folder on the way may be a link (`.outsideBaseline` when it
    /// leads out, `.throughLink` when it stays inside) or a file that stays; what stands at
    /// the destination must be a regular file (a link to one inside the baseline is
    /// replaced itself), or nothing when creating, or a folder that the approval's
    /// deletions (`deleted`, by the names' bytes) empty.
    static func check(_ relative: String, in baseline: String, root: String, action: Action, deleted: Set<[UInt8]>) throws(ApprovalError) {
        let destination = baseline + "/" + relative
        let components = relative.split(separator: "/", omittingEmptySubsequences: true).map(String.init)
        var path = baseline, name = ""
        var status = stat()
        for (depth, component) in components.enumerated() {
            path += "/" + component
            name += (name.isEmpty ? "" : "/") + component
            guard FileNames.withSystemPath(path, { lstat($0, &status) }) == 0 else { return }  // made when written
            let last = depth == components.count - 1
            switch status.st_mode & S_IFMT {
            case S_IFLNK:
                guard let resolved = FileNames.realPath(path), inside(resolved, root) else { throw .outsideBaseline(path: destination) }
                guard last else { throw .throughLink(path: destination, link: path) }
                // A link to a regular file inside: the link itself is replaced or deleted.
                guard let target = FileNames.status(path), (target.st_mode & S_IFMT) == S_IFREG else {
                    throw .inTheWay(path: destination, kind: "a link to something that is not a file")
                }
            case S_IFDIR:
                guard last else { continue }
                if action == .created && willBeEmptied(path, relative: name, deleted: deleted) { return }
                throw .inTheWay(path: destination, kind: "a folder")
            case S_IFREG:
                if last {
                    // An added pair's name taken by a file the comparison did not read as an image.
                    if action == .created { throw .inTheWay(path: destination, kind: "a file that is not an image") }
                    return
                }
                // A file where a folder must be: nothing to delete below it, or fine when the
                // approval deletes it first; else in the way.
                if action == .deleted || deleted.contains(FileNames.bytes(of: name)) { return }
                throw .inTheWay(path: path, kind: "a file")
            default:
                throw .inTheWay(path: last ? destination : path, kind: FileNames.specialKind(status.st_mode) ?? "a special file")
            }
        }
    }

    /// True when real path `path` is `root` or inside it.
    static func inside(_ path: String, _ root: String) -> Bool {
        path == root || root == "/" || path.hasPrefix(root + "/")
    }

    /// True when everything in the folder at `path` (`relative` to the baseline) is a file
    /// the approval deletes, or a folder of such files: the folder will be removed.
    static func willBeEmptied(_ path: String, relative: String, deleted: Set<[UInt8]>) -> Bool {
        guard let names = FileNames.contentsOfDirectory(path) else { return false }
        var status = stat()
        for name in names {
            let (child, childRelative) = (path + "/" + name, relative + "/" + name)
            guard FileNames.withSystemPath(child, { lstat($0, &status) }) == 0 else { return false }
            switch status.st_mode & S_IFMT {
            case S_IFDIR: if !willBeEmptied(child, relative: childRelative, deleted: deleted) { return false }
            case S_IFREG, S_IFLNK: if !deleted.contains(FileNames.bytes(of: childRelative)) { return false }
            default: return false
            }
        }
        return true
    }
}
