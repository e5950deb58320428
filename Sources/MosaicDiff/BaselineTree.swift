import CMosaicShims
import Foundation
import MosaicImage

/// The baseline folder as approving changes it: held open, and each folder below it reached
/// from it one name at a time without following a link (`openat` with `O_NOFOLLOW`), so
/// that a folder swapped for a link while the approval runs is refused, never written
/// through. Files are staged beside their destination (`.NAME.mosaic-PID-N.tmp`, synced)
/// and renamed over it only once every file is staged and every deletion checked.
struct BaselineTree {
    /// The baseline folder's descriptor, and its path (for messages and the interrupt-time
    /// cleanup).
    let root: Int32
    let path: String
    /// The folders files were staged in, held open: a staged file is found again in its
    /// folder wherever that went (moved, or swapped for a link) while the approval ran.
    let held = HeldFolders()

    /// The path of the folder `components` below the root.
    func folderPath(_ components: [String]) -> String {
        components.isEmpty ? path : path + "/" + components.joined(separator: "/")
    }

    /// Opens the folder `components` below the root, making the missing ones when `make`
    /// (mode 0755 less the umask; each removed on an interrupt while still empty); nil when
    /// one is missing and `make` is false. The caller closes the descriptor.
    ///
    /// - Throws: `.throughLink` for a link on the way, `.inTheWay` for a file,
    ///   `.cannotWrite` for a system call that failed (naming `destination`).
    func open(_ components: [String], make: Bool, for destination: String) throws(ApprovalError) -> (fd: Int32, made: [[String]])? {
        var fd = dup(root)
        guard fd >= 0 else { throw .cannotWrite(path: destination, reason: String(cString: strerror(errno))) }
        var made: [[String]] = []
        for (depth, component) in components.enumerated() {
            let flags = O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC
            var next = FileNames.withSystemPath(component) { openat(fd, $0, flags) }
            if next < 0 && errno == ENOENT {
                guard make else {
                    close(fd)
                    return nil
                }
                if FileNames.withSystemPath(component, { mkdirat(fd, $0, 0o755) }) == 0 {
                    made.append(Array(components.prefix(depth + 1)))
                    TemporaryFiles.register(emptyFolder: folderPath(made[made.count - 1]))
                }
                next = FileNames.withSystemPath(component) { openat(fd, $0, flags) }
            }
            if next < 0 {
                let reason = String(cString: strerror(errno))
                let folder = folderPath(Array(components.prefix(depth + 1)))
                var status = stat()
                let found = FileNames.withSystemPath(component) { fstatat(fd, $0, &status, AT_SYMLINK_NOFOLLOW) } == 0
                close(fd)
                undo(made)
                guard found else { throw .cannotWrite(path: destination, reason: reason) }
                switch status.st_mode & S_IFMT {
                case S_IFLNK: throw .throughLink(path: destination, link: folder)
                case S_IFDIR: throw .cannotWrite(path: destination, reason: reason)
                case S_IFREG: throw .inTheWay(path: folder, kind: "a file")
                default: throw .inTheWay(path: folder, kind: FileNames.specialKind(status.st_mode) ?? "a special file")
                }
            }
            close(fd)
            fd = next
        }
        return (fd, made)
    }

    /// Removes the folders in `made` (made for a file that was then not written), deepest
    /// first, when they are still empty.
    func undo(_ made: [[String]]) {
        for folder in made.reversed() {
            _ = removeIfEmpty(folder)
            TemporaryFiles.unregister(folderPath(folder))
        }
    }

    /// Deletes the file (or link) `name` of `folder`; one already gone is no error.
    func delete(_ name: String, in folder: [String], destination: String) throws(ApprovalError) {
        guard let (fd, _) = try open(folder, make: false, for: destination) else { return }
        defer { close(fd) }
        guard FileNames.withSystemPath(name, { unlinkat(fd, $0, 0) }) == 0 || errno == ENOENT else {
            if errno == EISDIR { throw .inTheWay(path: destination, kind: "a folder") }
            throw .cannotWrite(path: destination, reason: String(cString: strerror(errno)))
        }
    }

    /// Removes the folder `components` (never the root) when it is empty; true when it did.
    func removeIfEmpty(_ components: [String]) -> Bool {
        guard let name = components.last, let (fd, _) = try? open(Array(components.dropLast()), make: false, for: "") else { return false }
        defer { close(fd) }
        return FileNames.withSystemPath(name) { unlinkat(fd, $0, AT_REMOVEDIR) } == 0
    }

    /// Flushes the folder's entries (the renames' and unlinks') to the disk.
    func sync(_ components: [String]) {
        guard let (fd, _) = try? open(components, make: false, for: "") else { return }
        _ = fsync(fd)
        close(fd)
    }

    /// A new baseline written beside its destination, not yet renamed into place.
    struct Staged {
        /// The folder (components below the root), the temporary file's name in it, and the
        /// name it takes.
        var folder: [String]
        var temporary: String
        var name: String
        /// The folders made for it (removed again when it is discarded, if empty).
        var made: [[String]]
        var destination: String
        /// The path registered for the interrupt-time cleanup.
        var registered: String
    }

    /// Whether the folder `folder` (opened at `fd`) and its entry `name` (nil: the folder
    /// alone) may be changed: nothing is changed yet, so a read-only mount, an immutable or
    /// append-only folder or file (which bind root too) is found before anything is.
    ///
    /// - Throws: `.cannotChange`, naming the folder or the file and the reason.
    func checkChangeable(_ fd: Int32, folder: [String], name: String?, destination: String) throws(ApprovalError) {
        let folderCode = mosaic_check_replaceable(fd, nil)
        guard folderCode == 0 else {
            throw .cannotChange(path: destination, blocker: folderPath(folder), reason: String(cString: strerror(folderCode)))
        }
        guard let name else { return }
        let code = FileNames.withSystemPath(name) { mosaic_check_replaceable(fd, $0) }
        guard code == 0 else { throw .cannotChange(path: destination, blocker: destination, reason: String(cString: strerror(code))) }
    }

    /// Checks, before anything is changed, that the file (or link) `name` of `folder` can
    /// be deleted and is still the one the comparison listed (`digest`, when it read it);
    /// one already gone is no obstacle.
    ///
    /// - Throws: `.cannotChange` (a folder or file that cannot be changed),
    ///   `.changedSinceCompared` (other bytes), `.inTheWay` (a folder now),
    ///   `.throughLink` for a folder on the way swapped for a link.
    func checkDeletion(_ name: String, in folder: [String], destination: String, digest: ContentDigest?) throws(ApprovalError) {
        guard let (fd, _) = try open(folder, make: false, for: destination) else { return }
        defer { close(fd) }
        var status = stat()
        guard FileNames.withSystemPath(name, { fstatat(fd, $0, &status, AT_SYMLINK_NOFOLLOW) }) == 0 else {
            if errno == ENOENT { return }
            throw .cannotWrite(path: destination, reason: String(cString: strerror(errno)))
        }
        switch status.st_mode & S_IFMT {
        case S_IFREG:
            if let digest, Self.digest(of: name, in: fd) != digest { throw .changedSinceCompared(path: destination, source: destination) }
        case S_IFLNK: break  // the link itself is deleted
        case S_IFDIR: throw .inTheWay(path: destination, kind: "a folder")
        default: throw .inTheWay(path: destination, kind: FileNames.specialKind(status.st_mode) ?? "a special file")
        }
        try checkChangeable(fd, folder: folder, name: name, destination: destination)
    }

    /// The digest of the regular file `name` of the folder `fd` (not through a link); nil
    /// when it cannot be read.
    static func digest(of name: String, in fd: Int32) -> ContentDigest? {
        let file = FileNames.withSystemPath(name) { openat(fd, $0, O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC) }
        guard file >= 0 else { return nil }
        defer { close(file) }
        return try? ContentDigest.of(descriptor: file, path: name)
    }

    /// Writes `bytes` beside the file `name` of `folder` (made as needed): a temporary file
    /// `.NAME.mosaic-PID-N.tmp`, registered for the interrupt-time cleanup, written and
    /// synced, not yet renamed (`commit`). What stands at `name` must be a regular file or
    /// a link (replaced itself), nothing, or a folder when `folderGoes` (the approval's
    /// deletions empty it); the folder and that file must be changeable.
    ///
    /// - Throws: `.cannotWrite` (a full disk: the temporary file and the folders made for
    ///   it removed), `.cannotChange`, `.inTheWay`, `.throughLink`.
    func stage(_ bytes: [UInt8], as name: String, in folder: [String], destination: String, folderGoes: Bool) throws(ApprovalError) -> Staged {
        guard let (fd, made) = try open(folder, make: true, for: destination) else {
            throw .cannotWrite(path: destination, reason: "its folder could not be made")
        }
        defer { if !held.keep(fd, for: folder) { close(fd) } }
        var temporary = "", registered = ""
        do throws(ApprovalError) {
            var mode: mode_t = 0o644
            var old = stat()
            if FileNames.withSystemPath(name, { fstatat(fd, $0, &old, AT_SYMLINK_NOFOLLOW) }) == 0 {
                switch old.st_mode & S_IFMT {
                case S_IFREG: mode = old.st_mode & 0o7777
                case S_IFLNK: break
                case S_IFDIR where folderGoes: break
                case S_IFDIR: throw .inTheWay(path: destination, kind: "a folder")
                default: throw .inTheWay(path: destination, kind: FileNames.specialKind(old.st_mode) ?? "a special file")
                }
            }
            try checkChangeable(fd, folder: folder, name: name, destination: destination)
            temporary = TemporaryFiles.temporaryName(for: name)
            registered = folderPath(folder) + "/" + temporary
            TemporaryFiles.register(registered)
            try Self.write(bytes, to: temporary, in: fd, mode: mode, destination: destination)
        } catch {
            if !registered.isEmpty {
                _ = FileNames.withSystemPath(temporary) { unlinkat(fd, $0, 0) }
                TemporaryFiles.unregister(registered)
            }
            undo(made)
            throw error
        }
        return Staged(folder: folder, temporary: temporary, name: name, made: made, destination: destination, registered: registered)
    }

    /// Creates the file `temporary` in the folder `fd` (never over anything) with `bytes`,
    /// synced; removed again when that fails.
    static func write(_ bytes: [UInt8], to temporary: String, in fd: Int32, mode: mode_t, destination: String) throws(ApprovalError) {
        let out = FileNames.withSystemPath(temporary) { openat(fd, $0, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, mode) }
        guard out >= 0 else { throw .cannotWrite(path: destination, reason: String(cString: strerror(errno))) }
        func fail(_ reason: String) -> ApprovalError {
            close(out)
            _ = FileNames.withSystemPath(temporary) { unlinkat(fd, $0, 0) }
            return .cannotWrite(path: destination, reason: reason)
        }
        var offset = 0
        while offset < bytes.count {
            let written = bytes.withUnsafeBytes { systemWrite(out, $0.baseAddress! + offset, $0.count - offset) }
            if written < 0 {
                if errno == EINTR { continue }
                throw fail(String(cString: strerror(errno)))
            }
            if written == 0 { throw fail("no byte could be written") }
            offset += written
        }
        if fsync(out) != 0 { throw fail(String(cString: strerror(errno))) }
        if close(out) != 0 {
            let reason = String(cString: strerror(errno))
            _ = FileNames.withSystemPath(temporary) { unlinkat(fd, $0, 0) }
            throw .cannotWrite(path: destination, reason: reason)
        }
    }

    /// Renames a staged file over its destination (a link there is replaced itself).
    ///
    /// - Throws: `.cannotWrite` (the temporary file then removed), `.throughLink` for a
    ///   folder on the way swapped for a link since it was staged.
    func commit(_ staged: Staged) throws(ApprovalError) {
        guard let (fd, _) = try open(staged.folder, make: false, for: staged.destination) else {
            throw .cannotWrite(path: staged.destination, reason: "its folder is gone")
        }
        defer { close(fd) }
        // The folder the file was staged in, not another moved to its name.
        guard held.isSame(fd, as: staged.folder) else {
            throw .cannotWrite(path: staged.destination, reason: "its folder was replaced while the approval ran")
        }
        let renamed = FileNames.withSystemPath(staged.temporary) { from in FileNames.withSystemPath(staged.name) { renameat(fd, from, fd, $0) } }
        guard renamed == 0 else {
            let reason = String(cString: strerror(errno))
            discard([staged])
            throw .cannotWrite(path: staged.destination, reason: reason)
        }
        TemporaryFiles.unregister(staged.registered)
        for folder in staged.made { TemporaryFiles.unregister(folderPath(folder)) }
    }

    /// Removes staged files that will not be renamed, and the folders made for them (when
    /// empty, deepest first).
    func discard(_ staged: [Staged]) {
        for file in staged {
            if let fd = held.descriptor(file.folder) {
                _ = FileNames.withSystemPath(file.temporary) { unlinkat(fd, $0, 0) }
            } else if let (fd, _) = try? open(file.folder, make: false, for: file.destination) {
                _ = FileNames.withSystemPath(file.temporary) { unlinkat(fd, $0, 0) }
                close(fd)
            }
            TemporaryFiles.unregister(file.registered)
        }
        undo(staged.flatMap(\.made).sorted { $0.count < $1.count })
    }
}

/// Folders held open by their components below the baseline (at most `limit`: a tree of
/// more folders has the others found again by their path), closed when the approval ends.
final class HeldFolders {
    private var folders: [[String]: Int32] = [:]
    let limit = 256

    deinit { for fd in folders.values { close(fd) } }

    /// Keeps `fd`, the folder `components`, when none is held for it and there is room:
    /// true when it is kept (the caller no longer closes it).
    func keep(_ fd: Int32, for components: [String]) -> Bool {
        guard folders[components] == nil, folders.count < limit else { return false }
        folders[components] = fd
        return true
    }

    /// The folder held for `components`, if one is.
    func descriptor(_ components: [String]) -> Int32? { folders[components] }

    /// True when `fd` is the folder held for `components` (same device and inode), or
    /// none is held.
    func isSame(_ fd: Int32, as components: [String]) -> Bool {
        guard let kept = folders[components] else { return true }
        var a = stat(), b = stat()
        return fstat(fd, &a) == 0 && fstat(kept, &b) == 0 && a.st_dev == b.st_dev && a.st_ino == b.st_ino
    }
}

@inline(__always)
private func systemWrite(_ fd: Int32, _ buffer: UnsafeRawPointer, _ count: Int) -> Int {
    #if canImport(Glibc)
    return Glibc.write(fd, buffer, count)
    #else
    return Darwin.write(fd, buffer, count)
    #endif
}
