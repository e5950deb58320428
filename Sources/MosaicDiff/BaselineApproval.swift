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
    /// Something that is not a regular file stands where a baseline goes (a folder, a FIFO,
    /// a file the comparison did not take for an image).
    case inTheWay(path: String, kind: String)
    /// A system call failed; the file named is as it was before.
    case cannotWrite(path: String, reason: String)

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
        case .inTheWay(let path, let kind): return "\(show(path)): \(kind) stands where the baseline goes; not replaced"
        case .cannotWrite(let path, let reason): return "\(show(path)): cannot approve: \(reason)"
        }
    }
}

/// `mosaic diff BASE CUR --accept`: the one place mosaic writes into an input, on request.
/// Each approved pair's baseline becomes a byte copy of its current image (replaced, or
/// created with the folders it needs), or is deleted (a removed pair, with
/// `--accept-removed`). Every file is written beside its destination, synced and renamed
/// over it, so an interrupted approval leaves each baseline either old or new; nothing is
/// written outside the baseline folder (names are checked, links resolved).
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
    }

    /// What will be done, in path order.
    public let steps: [Step]
    /// Pairs named that are not approved, and why ("unchanged", "could not be read").
    public let skipped: [(relativePath: String, reason: String)]

    /// Plans the approval of `comparison`'s pairs under `baseline` (a folder, or a single
    /// file compared with one other). Without `names`, every changed and added pair when
    /// `acceptChanged`, every removed one when `acceptRemoved`; with `names`, just those
    /// (each must be a pair of the run; a removed one needs `acceptRemoved`).
    ///
    /// - Throws: `ApprovalError` (usage errors for names; `.outsideBaseline` or
    ///   `.inTheWay` for a destination) before anything is written.
    public init(
        comparison: FolderComparison, baseline: String, acceptChanged: Bool, acceptRemoved: Bool, names: [String]? = nil
    ) throws(ApprovalError) {
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
        var steps: [Step] = []
        for result in chosen {
            let destination = single ? baseline : baseline + "/" + result.relativePath
            let action: Action = result.status == .removed ? .deleted : (result.status == .added ? .created : .replaced)
            try Self.checkInside(destination, root: root, single: single, creating: action == .created)
            steps.append(Step(relativePath: result.relativePath, action: action, destination: destination, source: action == .deleted ? nil : result.currentPath))
        }
        self.steps = steps
        self.skipped = skipped
    }

    /// True when every pair not approved passes: the exit status 0 of an approving run.
    public func remainingPass(_ comparison: FolderComparison) -> Bool {
        let approved = Set(steps.map(\.relativePath))
        return comparison.results.allSatisfy {
            approved.contains($0.relativePath) || $0.status == .unchanged || $0.status == .withinTolerance
        }
    }

    /// Carries out the steps in order, calling `done` after each.
    ///
    /// - Throws: `ApprovalError.cannotWrite` (the file named left as it was; the steps
    ///   before it done).
    public func apply(_ done: (Step) -> Void = { _ in }) throws(ApprovalError) {
        // What an approval killed before left beside these baselines (its process gone).
        TemporaryFiles.removeLeftovers(besides: steps.map(\.destination))
        var folders: Set<String> = []
        defer { Self.sync(folders: folders) }
        for step in steps {
            folders.insert(step.destination.lastIndex(of: "/").map { String(step.destination[..<$0]) } ?? ".")
            if let source = step.source {
                try Self.copy(source, over: step.destination)
            } else if FileNames.withSystemPath(step.destination, { unlink($0) }) != 0 {
                throw .cannotWrite(path: step.destination, reason: String(cString: strerror(errno)))
            }
            done(step)
        }
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

    /// The deepest part of `destination` that exists must resolve inside `root`, and an
    /// existing destination must be a regular file (a link to one inside is replaced
    /// itself); a single-file baseline must not be a link.
    static func checkInside(_ destination: String, root: String, single: Bool, creating: Bool) throws(ApprovalError) {
        var link = stat()
        let exists = FileNames.withSystemPath(destination) { lstat($0, &link) } == 0
        if single {
            if exists && (link.st_mode & S_IFMT) == S_IFLNK { throw .outsideBaseline(path: destination) }
            return
        }
        var existing = destination
        while FileNames.withSystemPath(existing, { lstat($0, &link) }) != 0, let slash = existing.lastIndex(of: "/") {
            existing = String(existing[..<slash])
        }
        guard let resolved = FileNames.realPath(existing) else { throw .outsideBaseline(path: destination) }
        guard resolved == root || resolved.hasPrefix(root.hasSuffix("/") ? root : root + "/") else { throw .outsideBaseline(path: destination) }
        guard existing == destination else { return }
        guard let status = FileNames.status(destination) else { throw .outsideBaseline(path: destination) }
        if (status.st_mode & S_IFMT) != S_IFREG {
            let kind = (status.st_mode & S_IFMT) == S_IFDIR ? "a folder" : FileNames.specialKind(status.st_mode) ?? "a special file"
            throw .inTheWay(path: destination, kind: kind)
        }
        // An added pair's name taken by a file the comparison did not read as an image.
        if creating { throw .inTheWay(path: destination, kind: "a file that is not an image") }
    }

    /// Copies `source` over `destination`: a temporary file beside it (registered for the
    /// interrupt-time cleanup), synced, renamed; missing folders made.
    static func copy(_ source: String, over destination: String) throws(ApprovalError) {
        let bytes: [UInt8]
        do {
            bytes = try FileBytes.read(source).bytes
        } catch {
            throw .cannotWrite(path: destination, reason: error.description)
        }
        let folder = destination.lastIndex(of: "/").map { String(destination[..<$0]) } ?? "."
        try makeFolders(folder, for: destination)
        var mode: mode_t = 0o644
        if let old = FileNames.status(destination) { mode = old.st_mode & 0o7777 }
        let temporary = TemporaryFiles.path(for: destination)
        TemporaryFiles.register(temporary)
        defer { TemporaryFiles.unregister(temporary) }
        let fd = FileNames.withSystemPath(temporary) { open($0, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, mode) }
        guard fd >= 0 else { throw .cannotWrite(path: destination, reason: String(cString: strerror(errno))) }
        func fail(_ reason: String) -> ApprovalError {
            close(fd)
            _ = FileNames.withSystemPath(temporary) { unlink($0) }
            return .cannotWrite(path: destination, reason: reason)
        }
        var offset = 0
        while offset < bytes.count {
            let written = bytes.withUnsafeBytes { write(fd, $0.baseAddress! + offset, $0.count - offset) }
            if written < 0 {
                if errno == EINTR { continue }
                throw fail(String(cString: strerror(errno)))
            }
            offset += written
        }
        if fsync(fd) != 0 { throw fail(String(cString: strerror(errno))) }
        if close(fd) != 0 {
            _ = FileNames.withSystemPath(temporary) { unlink($0) }
            throw .cannotWrite(path: destination, reason: String(cString: strerror(errno)))
        }
        let renamed = TemporaryFiles.withInterruptsDeferred {
            FileNames.withSystemPath(temporary) { from in FileNames.withSystemPath(destination) { rename(from, $0) } }
        }
        guard renamed == 0 else {
            let reason = String(cString: strerror(errno))
            _ = FileNames.withSystemPath(temporary) { unlink($0) }
            throw .cannotWrite(path: destination, reason: reason)
        }
    }

    /// Syncs each folder once (the renames' and unlinks' entries): after the last file,
    /// since a crash before it leaves a baseline old, which is as good as new for the
    /// old-or-new promise.
    static func sync(folders: Set<String>) {
        for folder in folders.sorted() {
            let directory = FileNames.withSystemPath(folder) { open($0, O_RDONLY | O_DIRECTORY | O_CLOEXEC) }
            if directory >= 0 {
                _ = fsync(directory)
                close(directory)
            }
        }
    }

    /// Makes `folder` and its missing parents (inside the baseline, as checked).
    static func makeFolders(_ folder: String, for destination: String) throws(ApprovalError) {
        guard !folder.isEmpty, !FileNames.isFolder(folder) else { return }
        if let slash = folder.lastIndex(of: "/") { try makeFolders(String(folder[..<slash]), for: destination) }
        guard OutputFolders.makeFolder(folder, mode: 0o755) || errno == EEXIST else {
            throw .cannotWrite(path: destination, reason: "cannot make the folder \(FileNames.display(folder)): " + String(cString: strerror(errno)))
        }
        guard FileNames.isFolder(folder) else { throw .inTheWay(path: folder, kind: "a file") }
    }
}
