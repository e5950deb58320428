import Foundation
import MosaicImage

/// The baseline folder as approving changes it: held open, and each folder below it reached
/// from it one name at a time without following a link (`openat` with `O_NOFOLLOW`), so
/// that a folder swapped for a link while the approval runs is refused, never written
/// through. Files are written beside their destination (`.NAME.mosaic-PID-N.tmp`), synced
/// and renamed over it.
struct BaselineTree {
    /// The baseline folder's descriptor, and its path (for messages and the interrupt-time
    /// cleanup).
    let root: Int32
    let path: String

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

    /// Writes `bytes` as the file `name` of `folder` (made as needed): a temporary file
    /// beside it (registered for the interrupt-time cleanup), synced, renamed over it (a
    /// link there is replaced itself). On failure the temporary file and the folders made
    /// for it are removed, and what stood at `name` is as it was.
    func write(_ bytes: [UInt8], to name: String, in folder: [String], destination: String) throws(ApprovalError) {
        guard let (fd, made) = try open(folder, make: true, for: destination) else {
            throw .cannotWrite(path: destination, reason: "its folder could not be made")
        }
        defer { close(fd) }
        do throws(ApprovalError) {
            try replace(name, in: fd, folder: folderPath(folder), with: bytes, destination: destination)
            for folder in made { TemporaryFiles.unregister(folderPath(folder)) }
        } catch {
            undo(made)
            throw error
        }
    }

    /// `write`'s work in the open folder `fd`.
    func replace(_ name: String, in fd: Int32, folder: String, with bytes: [UInt8], destination: String) throws(ApprovalError) {
        var mode: mode_t = 0o644
        var old = stat()
        if FileNames.withSystemPath(name, { fstatat(fd, $0, &old, AT_SYMLINK_NOFOLLOW) }) == 0 {
            switch old.st_mode & S_IFMT {
            case S_IFREG: mode = old.st_mode & 0o7777
            case S_IFLNK: break
            case S_IFDIR: throw .inTheWay(path: destination, kind: "a folder")
            default: throw .inTheWay(path: destination, kind: FileNames.specialKind(old.st_mode) ?? "a special file")
            }
        }
        let temporary = TemporaryFiles.temporaryName(for: name)
        let registered = folder + "/" + temporary
        TemporaryFiles.register(registered)
        defer { TemporaryFiles.unregister(registered) }
        let out = FileNames.withSystemPath(temporary) { openat(fd, $0, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, mode) }
        guard out >= 0 else { throw .cannotWrite(path: destination, reason: String(cString: strerror(errno))) }
        func removeTemporary() { _ = FileNames.withSystemPath(temporary) { unlinkat(fd, $0, 0) } }
        func fail(_ reason: String) -> ApprovalError {
            close(out)
            removeTemporary()
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
            removeTemporary()
            throw .cannotWrite(path: destination, reason: reason)
        }
        let renamed = TemporaryFiles.withInterruptsDeferred {
            FileNames.withSystemPath(temporary) { from in FileNames.withSystemPath(name) { renameat(fd, from, fd, $0) } }
        }
        guard renamed == 0 else {
            let reason = String(cString: strerror(errno))
            removeTemporary()
            throw .cannotWrite(path: destination, reason: reason)
        }
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
