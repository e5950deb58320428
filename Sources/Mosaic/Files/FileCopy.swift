import CMosaicShims
import Foundation

/// A file's bytes in a new file (the HTML report's copies of the images compared):
/// reflinked where the file system can (`ioctl FICLONE`: btrfs, XFS), else copied in the
/// kernel (`copy_file_range`), else read and written. Never a hard link, which would let a
/// tool that rewrites the report's files change a baseline through it; never a symbolic
/// link followed or copied, and only a regular file (a FIFO or a device is not read).
enum FileCopy {
    /// How the copy was made.
    enum Way: Equatable, Sendable {
        case cloned, kernel, readAndWrite
    }

    /// What came of a copy: made, or not made for a reason of the source's (a symbolic
    /// link, not a regular file, gone or unreadable), said for people.
    enum Outcome: Equatable, Sendable {
        case copied(Way)
        case notCopied(reason: String)
    }

    /// Copies `source` into a new file at `destination` (which must not exist).
    ///
    /// - Throws: `OutputError.write(.cannotCreate)` when the copy cannot be written (the
    ///   file begun is removed). A source that cannot be copied is an `Outcome`, not an error.
    static func copy(_ source: String, to destination: String) throws(OutputError) -> Outcome {
        let input = FileNames.withSystemPath(source) { open($0, O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC) }
        guard input >= 0 else {
            return .notCopied(reason: errno == ELOOP ? "a symbolic link" : String(cString: strerror(errno)))
        }
        defer { close(input) }
        var status = stat()
        guard fstat(input, &status) == 0 else { return .notCopied(reason: String(cString: strerror(errno))) }
        guard (status.st_mode & S_IFMT) == S_IFREG else { return .notCopied(reason: "not a regular file") }
        let output = FileNames.withSystemPath(destination) { open($0, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0o644) }
        guard output >= 0 else { throw .write(.cannotCreate(path: destination, reason: String(cString: strerror(errno)))) }
        let way = mosaic_copy_file(input, output, Int64(status.st_size))
        let closed = close(output) == 0 ? 0 : errno
        guard way > 0, closed == 0 else {
            _ = FileNames.withSystemPath(destination) { unlink($0) }
            throw .write(.cannotCreate(path: destination, reason: String(cString: strerror(way < 0 ? -way : closed))))
        }
        switch way {
        case Int32(MOSAIC_COPY_CLONED): return .copied(.cloned)
        case Int32(MOSAIC_COPY_KERNEL): return .copied(.kernel)
        default: return .copied(.readAndWrite)
        }
    }
}
