#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Finds a chunk in a RIFF file (WebP) by reading the chunk headers only.
enum RIFFChunks {
    /// The payload of the first top-level chunk `fourCC` (at most 1 MiB) of the RIFF file
    /// of form `form` at `path`, or nil (no such chunk, not such a file, unreadable).
    static func find(_ fourCC: String, in path: String, form: String) -> [UInt8]? {
        let fd = FileNames.withSystemPath(path) { open($0, O_RDONLY | O_CLOEXEC) }
        guard fd >= 0 else { return nil }
        defer { close(fd) }
        func read(_ count: Int, at offset: Int) -> [UInt8]? {
            var bytes = [UInt8](repeating: 0, count: count)
            let got = bytes.withUnsafeMutableBytes { pread(fd, $0.baseAddress, count, off_t(offset)) }
            return got == count ? bytes : nil
        }
        guard let header = read(12, at: 0), header[0..<4].elementsEqual("RIFF".utf8), header[8..<12].elementsEqual(form.utf8) else { return nil }
        let end = 8 + (Int(header[4]) | Int(header[5]) << 8 | Int(header[6]) << 16 | Int(header[7]) << 24)
        var at = 12
        while at + 8 <= end, let chunk = read(8, at: at) {
            let size = Int(chunk[4]) | Int(chunk[5]) << 8 | Int(chunk[6]) << 16 | Int(chunk[7]) << 24
            if chunk[0..<4].elementsEqual(fourCC.utf8) { return size <= 1 << 20 ? read(size, at: at + 8) : nil }
            at += 8 + size + (size & 1)
        }
        return nil
    }
}
