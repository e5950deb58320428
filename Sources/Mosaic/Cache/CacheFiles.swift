import CMosaicShims
#if canImport(Glibc)
import Glibc
#endif
import Foundation
import MosaicImage
import MosaicSync

/// The cache's own file operations: whole small files read without following links, and
/// written atomically (a temporary name in the same folder, then `rename`, which is atomic
/// on local file systems and on NFS alike). No locks: two processes writing one entry each
/// rename a complete file into place, and the last one wins with the same bytes. An entry
/// is never fsynced: a file cut short by a crash fails its checksum and is made again.
enum CacheFiles {
    /// Temporary names made by this process, numbered.
    static let counter = Locked(0)

    /// The whole regular file at `path`, and its status; nil when it is missing, not a
    /// regular file, a link, unreadable, or longer than `limit`.
    static func read(_ path: String, limit: Int = 1 << 31) -> (bytes: [UInt8], status: stat)? {
        let fd = FileNames.withSystemPath(path) { open($0, O_RDONLY | O_CLOEXEC | O_NOFOLLOW | O_NONBLOCK) }
        guard fd >= 0 else { return nil }
        defer { close(fd) }
        var status = stat()
        guard fstat(fd, &status) == 0, (status.st_mode & S_IFMT) == S_IFREG, Int(status.st_size) <= limit else { return nil }
        let size = Int(status.st_size)
        guard size > 0 else { return ([], status) }
        var complete = true
        let bytes = [UInt8](unsafeUninitializedCapacity: size) { buffer, initialized in
            var done = 0
            while done < size {
                let got = Glibc.read(fd, buffer.baseAddress! + done, size - done)
                if got < 0, errno == EINTR { continue }
                if got <= 0 {
                    complete = false
                    break
                }
                done += got
            }
            initialized = done
        }
        return complete ? (bytes, status) : nil
    }

    /// Writes `bytes` to `path` atomically, making its folder if needed; the system's reason
    /// when it cannot (a read-only or full file system).
    static func write(_ bytes: [UInt8], to path: String) -> String? {
        let folder = (path as NSString).deletingLastPathComponent
        if FileNames.status(folder) == nil {
            for missing in missingFolders(folder) where !OutputFolders.makeFolder(missing, mode: 0o755) && errno != EEXIST {
                return "\(missing): \(String(cString: strerror(errno)))"
            }
        }
        let number = counter.withLock { n -> Int in
            n += 1
            return n
        }
        let name = (path as NSString).lastPathComponent
        let temporary = folder + "/.\(name).tmp-\(getpid())-\(number)"
        TemporaryFiles.register(temporary)
        defer { TemporaryFiles.unregister(temporary) }
        let fd = FileNames.withSystemPath(temporary) { open($0, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC | O_NOFOLLOW, 0o644) }
        guard fd >= 0 else { return "\(temporary): \(String(cString: strerror(errno)))" }
        var failure: String?
        bytes.withUnsafeBytes { raw in
            var done = 0
            while done < raw.count {
                let wrote = Glibc.write(fd, raw.baseAddress! + done, raw.count - done)
                if wrote < 0, errno == EINTR { continue }
                if wrote <= 0 {
                    failure = "\(path): \(wrote < 0 ? String(cString: strerror(errno)) : "nothing written")"
                    break
                }
                done += wrote
            }
        }
        if close(fd) != 0, failure == nil { failure = "\(path): \(String(cString: strerror(errno)))" }
        if failure == nil, FileNames.withSystemPath(temporary, { tmp in FileNames.withSystemPath(path) { rename(tmp, $0) } }) != 0 {
            failure = "\(path): \(String(cString: strerror(errno)))"
        }
        if failure != nil { _ = FileNames.withSystemPath(temporary) { unlink($0) } }
        return failure
    }

    /// The folders of `folder`'s path that are missing, outermost first.
    static func missingFolders(_ folder: String) -> [String] {
        var missing: [String] = []
        var path = folder
        while !path.isEmpty, path != "/", FileNames.status(path) == nil {
            missing.insert(path, at: 0)
            path = (path as NSString).deletingLastPathComponent
        }
        return missing
    }

    /// Removes the file at `path` (a damaged entry); quietly.
    static func remove(_ path: String) {
        _ = FileNames.withSystemPath(path) { unlink($0) }
    }
}

/// A cache entry's bytes: a magic, fields, and the XXH3-128 of everything before it last,
/// so that an entry cut short or with a flipped bit is detected and ignored.
struct EntryWriter {
    private(set) var bytes: [UInt8]

    init(magic: String, capacity: Int = 256) {
        bytes = []
        bytes.reserveCapacity(capacity + 32)
        bytes.append(contentsOf: Array(magic.utf8))
    }

    mutating func u8(_ value: UInt8) { bytes.append(value) }

    mutating func u64(_ value: UInt64) {
        for shift in stride(from: 0, to: 64, by: 8) { bytes.append(UInt8(truncatingIfNeeded: value >> UInt64(shift))) }
    }

    mutating func int(_ value: Int) { u64(UInt64(bitPattern: Int64(value))) }

    mutating func digest(_ value: CacheDigest) {
        u64(value.low)
        u64(value.high)
    }

    mutating func data(_ value: [UInt8]) {
        int(value.count)
        bytes.append(contentsOf: value)
    }

    mutating func text(_ value: String) { data(Array(value.utf8)) }

    /// The entry with its checksum appended.
    consuming func sealed() -> [UInt8] {
        let sum = CacheDigest(of: bytes)
        digest(sum)
        return bytes
    }
}

/// Reads an entry `EntryWriter` made; nil from any read past the end.
struct EntryReader {
    private let bytes: [UInt8]
    private var offset: Int
    private let end: Int

    /// Nil when the magic differs or the checksum does not match (damage).
    init?(sealed bytes: [UInt8], magic: String) {
        let magicBytes = Array(magic.utf8)
        guard bytes.count >= magicBytes.count + 16, bytes.starts(with: magicBytes) else { return nil }
        let end = bytes.count - 16
        var tail = EntryReader(bytes: bytes, offset: end, end: bytes.count)
        guard let sum = tail.digest(), sum == CacheDigest(of: bytes[0..<end]) else { return nil }
        self.init(bytes: bytes, offset: magicBytes.count, end: end)
    }

    private init(bytes: [UInt8], offset: Int, end: Int) {
        self.bytes = bytes
        self.offset = offset
        self.end = end
    }

    var isAtEnd: Bool { offset == end }

    mutating func u8() -> UInt8? {
        guard offset < end else { return nil }
        defer { offset += 1 }
        return bytes[offset]
    }

    mutating func u64() -> UInt64? {
        guard end - offset >= 8 else { return nil }
        var value: UInt64 = 0
        for i in 0..<8 { value |= UInt64(bytes[offset + i]) << UInt64(8 * i) }
        offset += 8
        return value
    }

    mutating func int() -> Int? { u64().map { Int(Int64(bitPattern: $0)) } }

    mutating func digest() -> CacheDigest? {
        guard let low = u64(), let high = u64() else { return nil }
        return CacheDigest(low: low, high: high)
    }

    mutating func data() -> [UInt8]? {
        guard let count = int(), count >= 0, end - offset >= count else { return nil }
        defer { offset += count }
        return Array(bytes[offset..<offset + count])
    }

    mutating func text() -> String? { data().map { String(decoding: $0, as: UTF8.self) } }
}
