#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A still that carries a short video inside its own file: a Google Motion Photo (XMP
/// `GCamera:MotionPhoto` or the older `GCamera:MicroVideo`) or a Samsung motion photo
/// (a `MotionPhoto_Data` record in the trailer Samsung appends after the image). The
/// still is what a card draws; the catalog marks the card.
public enum MotionPhoto: String, Sendable, Hashable, Codable {
    /// Google's XMP says so (Pixel phones, and Samsung's since 2022).
    case google
    /// Samsung's trailer holds the clip.
    case samsung

    /// Google's mark in an XMP packet: `GCamera:MotionPhoto="1"` (or the element form) or
    /// the older `GCamera:MicroVideo="1"`; nil when the packet says neither.
    public init?(xmp packet: ArraySlice<UInt8>) {
        for name in ["MotionPhoto", "MicroVideo"] {
            for form in ["GCamera:\(name)=\"1\"", "GCamera:\(name)='1'", "GCamera:\(name)>1<"] where Self.contains(packet, Array(form.utf8)) {
                self = .google
                return
            }
        }
        return nil
    }

    /// How many bytes at a file's end are read for Samsung's trailer.
    static let trailerLength = 4096

    /// True when `tail` (a file's last bytes) ends with Samsung's trailer ("SEFT") and it
    /// lists a motion photo's clip.
    static func samsungTrailer(_ tail: ArraySlice<UInt8>) -> Bool {
        tail.count >= 8 && tail.suffix(4).elementsEqual("SEFT".utf8) && contains(tail, Array("MotionPhoto_Data".utf8))
    }

    /// The last `trailerLength` bytes of the file at `path` (fewer for a shorter file); nil
    /// when it cannot be read.
    static func tail(_ path: String) -> ArraySlice<UInt8>? {
        let fd = FileNames.withSystemPath(path) { open($0, O_RDONLY | O_CLOEXEC | O_NONBLOCK) }
        guard fd >= 0 else { return nil }
        defer { close(fd) }
        var status = stat()
        guard fstat(fd, &status) == 0, (status.st_mode & S_IFMT) == S_IFREG else { return nil }
        let size = Int(status.st_size), count = min(size, trailerLength)
        guard count > 0 else { return nil }
        var bytes = [UInt8](repeating: 0, count: count)
        let got = bytes.withUnsafeMutableBytes { pread(fd, $0.baseAddress, count, off_t(size - count)) }
        return got == count ? bytes[...] : nil
    }

    /// True when `needle` occurs in `haystack`.
    static func contains(_ haystack: ArraySlice<UInt8>, _ needle: [UInt8]) -> Bool {
        guard let first = needle.first, haystack.count >= needle.count else { return false }
        var i = haystack.startIndex
        let last = haystack.endIndex - needle.count
        while i <= last {
            if haystack[i] == first, haystack[i..<(i + needle.count)].elementsEqual(needle) { return true }
            i += 1
        }
        return false
    }

    /// True when `haystack` holds `word` (lowercase ASCII) in any case.
    static func containsCaseInsensitive(_ haystack: ArraySlice<UInt8>, _ word: String) -> Bool {
        let needle = Array(word.utf8)
        guard haystack.count >= needle.count else { return false }
        let last = haystack.endIndex - needle.count
        var i = haystack.startIndex
        while i <= last {
            var k = 0
            while k < needle.count {
                var c = haystack[i + k]
                if c >= 0x41 && c <= 0x5A { c += 0x20 }
                if c != needle[k] { break }
                k += 1
            }
            if k == needle.count { return true }
            i += 1
        }
        return false
    }
}
