#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A file written beside its destination (`.NAME.mosaic-PID-N.tmp`, registered so that an
/// interrupt removes it) through a C `FILE`, then closed and renamed into place. Dropped
/// or abandoned before `moveIntoPlace()`, it leaves nothing behind and the destination
/// untouched. The encoders of JPEG, WebP and AVIF sheets and the PDF writer write through
/// one. Use it from one thread at a time.
public final class OutputFile {
    /// Where the file goes.
    public let path: String
    let temporaryPath: String
    /// The open file; nil once closed or abandoned.
    public private(set) var file: UnsafeMutablePointer<FILE>?
    var closed = false
    var moved = false

    /// Creates the temporary file beside `path` (never an existing file: `O_EXCL`).
    ///
    /// - Throws: `.cannotCreate` with the system's reason (a missing folder, no permission).
    public init(path: String) throws(ImageEncodingError) {
        self.path = path
        temporaryPath = TemporaryFiles.path(for: path)
        TemporaryFiles.register(temporaryPath)
        guard let opened = fopen(temporaryPath, "wbxe") else {
            let reason = String(cString: strerror(errno))
            TemporaryFiles.unregister(temporaryPath)
            throw .cannotCreate(path: path, reason: reason)
        }
        file = opened
    }

    deinit { abandon() }

    /// The bytes written so far (the position in the file).
    public var offset: Int {
        guard let file else { return 0 }
        return Int(ftello(file))
    }

    /// Appends `bytes`.
    ///
    /// - Throws: `.cannotWrite` with the system's reason (a full disk).
    public func write(_ bytes: [UInt8]) throws(ImageEncodingError) {
        guard let file else { throw .cannotWrite(path: path, reason: "the file is already closed") }
        let written = bytes.withUnsafeBufferPointer { fwrite($0.baseAddress, 1, $0.count, file) }
        guard written == bytes.count else { throw failure() }
    }

    /// Appends `text` as UTF-8.
    public func write(_ text: String) throws(ImageEncodingError) { try write(Array(text.utf8)) }

    /// The system's reason for the last failed call, the temporary file removed.
    public func failure(reason: String? = nil) -> ImageEncodingError {
        let reason = reason ?? String(cString: strerror(errno))
        abandon()
        return .cannotWrite(path: path, reason: reason)
    }

    /// Flushes and closes the file (still beside its destination).
    ///
    /// - Throws: `.cannotWrite` with the system's reason (a full disk shows here at the
    ///   latest); the temporary file is then removed.
    public func close() throws(ImageEncodingError) {
        guard let file else { throw .cannotWrite(path: path, reason: "the file is already closed") }
        self.file = nil
        let flushed = fflush(file) == 0
        let reason = String(cString: strerror(errno))
        let closedCleanly = fclose(file) == 0
        guard flushed, closedCleanly else { throw failure(reason: flushed ? String(cString: strerror(errno)) : reason) }
        closed = true
    }

    /// Renames the closed file over the destination.
    ///
    /// - Throws: `.cannotRename` with the system's reason; the temporary file is removed.
    public func moveIntoPlace() throws(ImageEncodingError) {
        guard closed, !moved else { throw .rowMismatch(path: path, message: "the file is not finished") }
        guard rename(temporaryPath, path) == 0 else {
            let reason = String(cString: strerror(errno))
            abandon()
            throw .cannotRename(path: path, reason: reason)
        }
        moved = true
        TemporaryFiles.unregister(temporaryPath)
    }

    /// Gives up: the temporary file goes, the destination stays as it was.
    public func abandon() {
        if let file {
            fclose(file)
            self.file = nil
        }
        closed = false
        guard !moved else { return }
        unlink(temporaryPath)
        TemporaryFiles.unregister(temporaryPath)
    }
}
