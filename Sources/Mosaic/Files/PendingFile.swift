import Foundation

/// A file written beside its destination now and renamed into place later, together with
/// a run's other outputs (the image map with the pages it describes). Dropped or
/// discarded before `commit()`, it leaves nothing behind and the destination untouched.
public final class PendingFile {
    /// Where the file goes.
    public let path: String
    let temporaryPath: String
    var settled = false
    /// When set, `commit()` leaves the destination as it is (inode and time) if it is a
    /// regular file holding the same bytes, and drops the temporary file.
    public var keepsAnIdenticalFile = false

    /// Writes `data` to a temporary file beside `path`.
    ///
    /// - Throws: `OutputError.write(.cannotCreate)` with the system's reason (a missing
    ///   folder, no permission, a full disk).
    public convenience init(_ data: Data, at path: String) throws(OutputError) {
        try self.init(at: path) { stream throws(OutputError) in try stream.write(data: data) }
    }

    /// Streams a file beside `path`: `body` writes into the stream, which is flushed and
    /// closed before `commit()` can rename it into place.
    ///
    /// - Throws: `OutputError.write(.cannotCreate)` or `.cannotWrite` (a full disk) with the
    ///   system's reason, or what `body` throws (the temporary file is then removed).
    public init(at path: String, writing body: (JSONStream) throws(OutputError) -> Void) throws(OutputError) {
        self.path = path
        TemporaryFiles.removeLeftovers(besides: [path])
        temporaryPath = TemporaryFiles.path(for: path)
        TemporaryFiles.register(temporaryPath)
        let fd = open(temporaryPath, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o644)
        guard fd >= 0 else {
            let reason = String(cString: strerror(errno))
            TemporaryFiles.unregister(temporaryPath)
            throw .write(.cannotCreate(path: path, reason: reason))
        }
        do {
            let stream = JSONStream(descriptor: fd, name: path)
            try body(stream)
            try stream.flush()
        } catch {
            close(fd)
            discard()
            // The stream's failure is this file's: removed, the destination as it was.
            if case .write(.streamFailed(_, let reason)) = error { throw .write(.cannotWrite(path: path, reason: reason)) }
            throw error
        }
        if close(fd) != 0 {
            let reason = String(cString: strerror(errno))
            discard()
            throw .write(.cannotWrite(path: path, reason: reason))
        }
    }

    deinit { discard() }

    /// Renames the file into place.
    ///
    /// - Throws: `OutputError.write(.cannotRename)` with the system's reason.
    public func commit() throws(OutputError) {
        guard !settled else { return }
        if keepsAnIdenticalFile, FileComparison.sameBytes(temporaryPath, path) != nil {
            discard()
            return
        }
        guard rename(temporaryPath, path) == 0 else {
            let reason = String(cString: strerror(errno))
            discard()
            throw .write(.cannotRename(path: path, reason: reason))
        }
        settled = true
        TemporaryFiles.unregister(temporaryPath)
    }

    /// Removes the temporary file; the destination stays as it was.
    public func discard() {
        guard !settled else { return }
        settled = true
        unlink(temporaryPath)
        TemporaryFiles.unregister(temporaryPath)
    }
}
