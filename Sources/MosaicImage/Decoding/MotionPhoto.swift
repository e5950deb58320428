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

    /// True when `needle` occurs in `haystack`: candidates found by `memchr` (vectorized in
    /// glibc), then compared.
    static func contains(_ haystack: ArraySlice<UInt8>, _ needle: [UInt8]) -> Bool {
        guard let first = needle.first, haystack.count >= needle.count else { return false }
        return haystack.withUnsafeBytes { hay in
            needle.withUnsafeBytes { wanted in
                guard let base = hay.baseAddress, let pattern = wanted.baseAddress else { return false }
                var offset = 0
                let last = hay.count - wanted.count
                while offset <= last, let found = memchr(base + offset, Int32(first), last - offset + 1) {
                    let at = base.distance(to: UnsafeRawPointer(found))
                    if memcmp(base + at, pattern, wanted.count) == 0 { return true }
                    offset = at + 1
                }
                return false
            }
        }
    }

    /// True when `haystack` names Samsung as its makers write it ("samsung", "SAMSUNG",
    /// "Samsung").
    static func namesSamsung(_ haystack: ArraySlice<UInt8>) -> Bool {
        ["samsung", "SAMSUNG", "Samsung"].contains { contains(haystack, Array($0.utf8)) }
    }
}
