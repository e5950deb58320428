/// Text for the pages mosaic writes (the diff report, the pyramid viewer): links between
/// files as relative URLs, and HTML escaping.
enum WebText {
    /// A relative URL from the folder `from` to the file `to` (both absolute), each
    /// segment percent-encoded.
    static func relativeURL(from: String, to: String) -> String {
        relativeComponents(from: from, to: to).map { $0 == ".." ? $0 : percentEncoded($0) }.joined(separator: "/")
    }

    /// The path from the folder `from` to `to` (both absolute), as components: `..` for
    /// each folder up, then `to`'s own.
    static func relativeComponents(from: String, to: String) -> [String] {
        let a = from.split(separator: "/", omittingEmptySubsequences: true)
        let b = to.split(separator: "/", omittingEmptySubsequences: true)
        var common = 0
        while common < a.count, common < b.count - 1, a[common] == b[common] { common += 1 }
        return Array(repeating: "..", count: a.count - common) + b[common...].map(String.init)
    }

    /// Every byte but the unreserved characters of RFC 3986 percent-encoded: the name's own
    /// bytes, so that a name that is not UTF-8 still links to its file (`FileNames`).
    static func percentEncoded(_ segment: String) -> String {
        var out = ""
        for byte in FileNames.bytes(of: segment) {
            switch byte {
            case UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "0")...UInt8(ascii: "9"),
                UInt8(ascii: "-"), UInt8(ascii: "."), UInt8(ascii: "_"), UInt8(ascii: "~"):
                out.unicodeScalars.append(Unicode.Scalar(byte))
            default:
                out += "%" + (byte < 16 ? "0" : "") + String(byte, radix: 16, uppercase: true)
            }
        }
        return out
    }

    static func escapeHTML(_ text: String) -> String {
        text.replacingOccurrences(of: "&", with: "&amp;").replacingOccurrences(of: "<", with: "&lt;")
            .replacingOccurrences(of: ">", with: "&gt;").replacingOccurrences(of: "\"", with: "&quot;")
    }
}
