import Foundation
import MosaicImage

/// What a file held when it was read: its length and the CRC-64 of its bytes. A pair's
/// result keeps its two files' digests, so that approving writes the very bytes that were
/// compared (the file read again must give the same digest) and a sharded run's parts can
/// say which bytes they compared (`DiffRunFingerprint`). It tells bytes apart (a swapped
/// file, a file of yesterday); it is no defence against someone who crafts a collision,
/// who could as well have written the file before the run.
public struct ContentDigest: Hashable, Sendable, CustomStringConvertible {
    /// Bytes.
    public var byteCount: Int
    public var crc64: UInt64

    public init(byteCount: Int, crc64: UInt64) {
        self.byteCount = byteCount
        self.crc64 = crc64
    }

    /// The digest of `bytes`.
    public init(of bytes: [UInt8]) {
        byteCount = bytes.count
        crc64 = bytes.withUnsafeBytes { CRC64.checksum($0) }
    }

    /// The digest of the regular file at `path`, read in pieces of 1 MiB (never whole in
    /// memory); a FIFO, socket or device is never opened (`FileBytes`' rules).
    ///
    /// - Throws: `ImageDecodingError.notAFile` or `.unreadable`.
    public static func ofFile(_ path: String) throws(ImageDecodingError) -> ContentDigest {
        if let status = FileNames.status(path), let kind = FileNames.specialKind(status.st_mode) {
            throw .notAFile(path: path, kind: kind)
        }
        let fd = FileNames.withSystemPath(path) { open($0, O_RDONLY | O_CLOEXEC | O_NONBLOCK) }
        guard fd >= 0 else { throw .unreadable(path: path, reason: String(cString: strerror(errno))) }
        defer { close(fd) }
        var status = stat()
        guard fstat(fd, &status) == 0 else { throw .unreadable(path: path, reason: String(cString: strerror(errno))) }
        if let kind = FileNames.specialKind(status.st_mode) { throw .notAFile(path: path, kind: kind) }
        guard (status.st_mode & S_IFMT) == S_IFREG else { throw .unreadable(path: path, reason: "it is not a regular file") }
        return try of(descriptor: fd, path: path)
    }

    /// The digest of what is left to read of the file open at `fd` (named `path` in an
    /// error), read in pieces of 1 MiB.
    ///
    /// - Throws: `ImageDecodingError.unreadable`.
    public static func of(descriptor fd: Int32, path: String) throws(ImageDecodingError) -> ContentDigest {
        var digest = ContentDigest(byteCount: 0, crc64: 0)
        var buffer = [UInt8](repeating: 0, count: 1 << 20)
        while true {
            let count = buffer.withUnsafeMutableBytes { read(fd, $0.baseAddress, $0.count) }
            if count == 0 { return digest }
            if count < 0 {
                if errno == EINTR { continue }
                throw .unreadable(path: path, reason: String(cString: strerror(errno)))
            }
            digest.crc64 = buffer.withUnsafeBytes { CRC64.checksum(UnsafeRawBufferPointer(rebasing: $0[..<count]), continuing: digest.crc64) }
            digest.byteCount += count
        }
    }

    /// "crc64 HEX, N bytes".
    public var description: String { "\(byteCount) bytes, CRC-64 \(CRC64.hex(crc64))" }
}
