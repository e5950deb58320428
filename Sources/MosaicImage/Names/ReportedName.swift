/// A file name as every report carries it (the image map, the diff JSON, JUnit, HTML):
/// `display` for people, each byte that is not valid UTF-8 shown as U+FFFD; and, only
/// when the name is not valid UTF-8, `sourceBytes`, its exact bytes in base64 (RFC 4648,
/// with padding), so that a program can still open the very file. A JSON report writes a
/// name field `F` as the display string and, beside it, `FBytes` when there are bytes to
/// give (the map's `source` and `sourceBytes`).
public struct ReportedName: Hashable, Sendable {
    /// The name for people: valid UTF-8 as it is, other bytes as U+FFFD.
    public let display: String
    /// The exact bytes in base64 when the name is not valid UTF-8; nil otherwise.
    public let sourceBytes: String?

    /// The name of `path` as mosaic holds it (`FileNames`: bytes that are not UTF-8 kept as
    /// escapes).
    public init(_ path: String) {
        display = FileNames.display(path)
        sourceBytes = FileNames.isValidUTF8(path) ? nil : Self.base64(FileNames.bytes(of: path))
    }

    /// `bytes` in standard base64 with padding.
    static func base64(_ bytes: [UInt8]) -> String {
        let alphabet = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/".utf8)
        var out: [UInt8] = []
        out.reserveCapacity((bytes.count + 2) / 3 * 4)
        var i = 0
        while i < bytes.count {
            let count = min(3, bytes.count - i)
            let b0 = UInt32(bytes[i]), b1 = count > 1 ? UInt32(bytes[i + 1]) : 0, b2 = count > 2 ? UInt32(bytes[i + 2]) : 0
            let group = b0 << 16 | b1 << 8 | b2
            for k in 0..<4 {
                out.append(k <= count ? alphabet[Int((group >> (18 - 6 * UInt32(k))) & 63)] : UInt8(ascii: "="))
            }
            i += 3
        }
        return String(decoding: out, as: UTF8.self)
    }
}
