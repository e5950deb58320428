#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// File names are bytes; Swift strings are Unicode. A name that is not valid UTF-8 (a
/// Latin-1 "café.jpg" from an old camera or archive) keeps its bytes through mosaic: each
/// byte that is not part of valid UTF-8 becomes the private-use scalar U+10FF00 + byte in
/// the string, and that byte again when the path goes to the system. Valid UTF-8 names are
/// plain strings, unchanged.
public enum FileNames {
    static let escapeBase: UInt32 = 0x10FF00

    /// The string for raw name bytes (from `readdir` or `argv`).
    public static func string(fromBytes bytes: some Collection<UInt8>) -> String {
        let bytes = Array(bytes)
        // Valid UTF-8 without a scalar from U+100000 on (the escapes' plane): the string
        // itself, without a scalar at a time (a folder of 30,000 names was 30 ms of a diff).
        if !bytes.contains(where: { $0 >= 0xF4 }), let plain = String(validating: bytes, as: UTF8.self) { return plain }
        var scalars = String.UnicodeScalarView()
        var i = 0
        while i < bytes.count {
            if let (scalar, length) = decodeUTF8(bytes, at: i) {
                scalars.append(scalar)
                i += length
            } else {
                scalars.append(Unicode.Scalar(escapeBase + UInt32(bytes[i])) ?? "\u{FFFD}")
                i += 1
            }
        }
        return String(scalars)
    }

    /// False when no byte of the path's UTF-8 is 0xF4 or more: then it holds no scalar of
    /// the escapes' plane. A tight loop over the contiguous bytes: every system call on a
    /// path asks this (a 100,000-card run asked it half a million times).
    @inline(__always)
    static func mayHoldEscapes(_ path: String) -> Bool {
        var path = path
        return path.withUTF8 { bytes in
            var high: UInt8 = 0
            for byte in bytes { high |= byte & 0x80 }
            guard high != 0 else { return false }
            for byte in bytes where byte >= 0xF4 { return true }
            return false
        }
    }

    /// The bytes the system knows the path by (escaped bytes restored).
    public static func bytes(of path: String) -> [UInt8] {
        // No byte from 0xF4 on: no scalar of the escapes' plane, the UTF-8 as it is.
        if !mayHoldEscapes(path) { return Array(path.utf8) }
        var out: [UInt8] = []
        out.reserveCapacity(path.utf8.count)
        for scalar in path.unicodeScalars {
            if scalar.value >= escapeBase && scalar.value <= escapeBase + 0xFF {
                out.append(UInt8(scalar.value - escapeBase))
            } else {
                UTF8.encode(scalar) { out.append($0) }
            }
        }
        return out
    }

    /// Calls `body` with the path as the system knows it, NUL-terminated.
    public static func withSystemPath<Result>(_ path: String, _ body: (UnsafePointer<CChar>) throws -> Result) rethrows -> Result {
        // A name without escapes is its own UTF-8: the string's own NUL-terminated bytes.
        if !mayHoldEscapes(path) { return try path.withCString(body) }
        let raw = bytes(of: path).map { CChar(bitPattern: $0) } + [0]
        return try raw.withUnsafeBufferPointer { try body($0.baseAddress!) }
    }

    /// The order of names in a run's reports: as strings, and two names that Swift's
    /// `String` takes for equal (café spelt with é and with e + U+0301, two files to the
    /// system) by their bytes. Name sets and maps that must keep such names apart are keyed
    /// by `bytes(of:)`.
    public static func precedes(_ a: String, _ b: String) -> Bool {
        a != b ? a < b : bytes(of: a).lexicographicallyPrecedes(bytes(of: b))
    }

    /// The path with every escaped byte shown as U+FFFD, for people (captions, messages).
    public static func display(_ path: String) -> String {
        // No byte from 0xF4 on: no escape, the name as it is (not rebuilt a scalar at a time:
        // the image map names every card).
        if !mayHoldEscapes(path) { return path }
        return String(String.UnicodeScalarView(path.unicodeScalars.map {
            $0.value >= escapeBase && $0.value <= escapeBase + 0xFF ? "\u{FFFD}" : $0
        }))
    }

    /// True when the path holds no escaped byte: its bytes are valid UTF-8.
    public static func isValidUTF8(_ path: String) -> Bool {
        if !mayHoldEscapes(path) { return true }
        return !path.unicodeScalars.contains { $0.value >= escapeBase && $0.value <= escapeBase + 0xFF }
    }

    /// The names in a folder (not "." and ".."), raw bytes kept; nil when it cannot be
    /// listed, with `errno` set.
    public static func contentsOfDirectory(_ path: String) -> [String]? {
        guard let folder = withSystemPath(path, { opendir($0) }) else { return nil }
        defer { closedir(folder) }
        var names: [String] = []
        errno = 0
        while let entry = readdir(folder) {
            let name = withUnsafeBytes(of: entry.pointee.d_name) { raw in Array(raw.prefix { $0 != 0 }) }
            if name == [0x2E] || name == [0x2E, 0x2E] { continue }
            names.append(string(fromBytes: name))
        }
        return errno == 0 ? names : nil
    }

    /// The path made absolute, every symbolic link, `.` and `..` resolved (`realpath`); nil
    /// when it does not exist.
    public static func realPath(_ path: String) -> String? {
        withSystemPath(path) { system -> String? in
            guard let resolved = realpath(system, nil) else { return nil }
            defer { free(resolved) }
            return string(fromBytes: UnsafeRawBufferPointer(start: resolved, count: strlen(resolved)))
        }
    }

    /// True when the path is a folder (following links).
    public static func isFolder(_ path: String) -> Bool {
        status(path).map { ($0.st_mode & S_IFMT) == S_IFDIR } ?? false
    }

    /// What a file of mode `mode` is when it is a FIFO, socket or device ("a FIFO (named
    /// pipe)"); nil for a regular file, a folder or a link.
    public static func specialKind(_ mode: mode_t) -> String? {
        switch mode & S_IFMT {
        case S_IFIFO: return "a FIFO (named pipe)"
        case S_IFSOCK: return "a socket"
        case S_IFCHR: return "a character device"
        case S_IFBLK: return "a block device"
        default: return nil
        }
    }

    /// `stat` of the path (following links); nil when it fails, with `errno` set.
    public static func status(_ path: String) -> stat? {
        var result = stat()
        return withSystemPath(path, { stat($0, &result) }) == 0 ? result : nil
    }

    /// One UTF-8 scalar at `i` and its length, or nil for an invalid sequence (overlong,
    /// surrogate, past U+10FFFF, truncated). Our own escapes' range is never decoded as
    /// itself, so that a name is always escaped the same way.
    static func decodeUTF8(_ b: [UInt8], at i: Int) -> (Unicode.Scalar, Int)? {
        let lead = b[i]
        let length: Int, minimum: UInt32
        var value: UInt32
        switch lead {
        case 0x00...0x7F: return (Unicode.Scalar(lead), 1)
        case 0xC2...0xDF: (length, minimum, value) = (2, 0x80, UInt32(lead & 0x1F))
        case 0xE0...0xEF: (length, minimum, value) = (3, 0x800, UInt32(lead & 0x0F))
        case 0xF0...0xF4: (length, minimum, value) = (4, 0x10000, UInt32(lead & 0x07))
        default: return nil
        }
        guard i + length <= b.count else { return nil }
        for k in 1..<length {
            let continuation = b[i + k]
            guard continuation & 0xC0 == 0x80 else { return nil }
            value = value << 6 | UInt32(continuation & 0x3F)
        }
        guard value >= minimum, value < escapeBase, let scalar = Unicode.Scalar(value) else { return nil }
        return (scalar, length)
    }
}
