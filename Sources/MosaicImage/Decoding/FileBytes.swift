#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Reads files with POSIX calls: whole, or only a prefix (for probing headers). Only
/// regular files are read: a FIFO, socket or device is never opened for reading (it could
/// block forever, or never end).
public enum FileBytes {
    /// The first `limit` bytes of the file (all of it when shorter), and whether that is
    /// the whole file.
    ///
    /// - Throws: `ImageDecodingError.notAFile` for a FIFO, socket or device (found by
    ///   `stat` before opening, and by `fstat` of what was opened, without blocking);
    ///   `.unreadable` when it cannot be opened or read, or is a directory.
    public static func read(_ path: String, limit: Int = Int.max) throws(ImageDecodingError) -> (bytes: [UInt8], isWhole: Bool) {
        var status = stat()
        return try read(path, limit: limit, status: &status)
    }

    /// `read(_:limit:)`, also giving the `fstat` of what was read (its size and times), so
    /// that a caller needs no second look at the path.
    public static func read(_ path: String, limit: Int = Int.max, status: inout stat) throws(ImageDecodingError) -> (bytes: [UInt8], isWhole: Bool) {
        let fd = try openRegular(path, status: &status)
        let size = Int(status.st_size)
        defer { close(fd) }
        let wanted = min(size, limit)
        // An empty file: no storage to read into (an array of capacity 0 is the shared
        // empty singleton, whose count the initializer would write from every thread).
        guard wanted > 0 else { return ([], size == 0) }
        var done = 0
        var failure: String? = nil
        // Read straight into uninitialized storage: no zero-fill of a file-sized buffer.
        let bytes = [UInt8](unsafeUninitializedCapacity: wanted) { buffer, initialized in
            while done < wanted {
                let got = Glibc_read(fd, buffer.baseAddress! + done, wanted - done)
                if got < 0 {
                    if errno == EINTR { continue }
                    failure = systemMessage()
                    break
                }
                if got == 0 { break }  // the file shrank
                done += got
            }
            initialized = done
        }
        if let failure { throw .unreadable(path: path, reason: failure) }
        return (bytes, done >= size)
    }

    /// Up to `count` bytes of the open file `descriptor` from byte `offset` (fewer where
    /// the file ends first); nil when it cannot be read.
    public static func read(descriptor: Int32, at offset: Int, count: Int) -> [UInt8]? {
        guard offset >= 0, count > 0 else { return [] }
        var done = 0
        var failed = false
        let bytes = [UInt8](unsafeUninitializedCapacity: count) { buffer, initialized in
            while done < count {
                let got = pread(descriptor, buffer.baseAddress! + done, count - done, off_t(offset + done))
                if got < 0 {
                    if errno == EINTR { continue }
                    failed = true
                    break
                }
                if got == 0 { break }
                done += got
            }
            initialized = done
        }
        return failed ? nil : bytes
    }

    /// Opens a regular file for reading (never a FIFO, socket, device or folder, checked
    /// as `read` does): its descriptor, which the caller closes, and its size then.
    public static func openRegular(_ path: String) throws(ImageDecodingError) -> (descriptor: Int32, size: Int) {
        var status = stat()
        let fd = try openRegular(path, status: &status)
        return (fd, Int(status.st_size))
    }

    /// `openRegular(_:)`, giving the `fstat` of the descriptor in `status`.
    static func openRegular(_ path: String, status: inout stat) throws(ImageDecodingError) -> Int32 {
        if let status = FileNames.status(path), let kind = FileNames.specialKind(status.st_mode) {
            throw .notAFile(path: path, kind: kind)
        }
        // O_NONBLOCK: should the path become a FIFO after the stat, opening it does not wait
        // for a writer; fstat then refuses it. It changes nothing for a regular file.
        let fd = FileNames.withSystemPath(path) { open($0, O_RDONLY | O_CLOEXEC | O_NONBLOCK) }
        guard fd >= 0 else { throw .unreadable(path: path, reason: systemMessage()) }
        guard fstat(fd, &status) == 0 else {
            let reason = systemMessage()
            close(fd)
            throw .unreadable(path: path, reason: reason)
        }
        if let kind = FileNames.specialKind(status.st_mode) {
            close(fd)
            throw .notAFile(path: path, kind: kind)
        }
        guard (status.st_mode & S_IFMT) == S_IFREG else {
            close(fd)
            throw .unreadable(path: path, reason: (status.st_mode & S_IFMT) == S_IFDIR ? "it is a directory" : "it is not a regular file")
        }
        return fd
    }

    static func systemMessage() -> String {
        String(cString: strerror(errno))
    }
}

@inline(__always)
private func Glibc_read(_ fd: Int32, _ buffer: UnsafeMutableRawPointer, _ count: Int) -> Int {
    #if canImport(Glibc)
    return Glibc.read(fd, buffer, count)
    #else
    return Darwin.read(fd, buffer, count)
    #endif
}
