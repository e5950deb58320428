import CFontconfig
import CFreeType
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Where a font comes from: a family name that fontconfig resolves, or a file.
public enum FontSource: Hashable, Sendable, CustomStringConvertible {
    case family(String)
    /// A font file; `index` picks a face in a collection (.ttc).
    case file(String, index: Int = 0)

    /// The family captions are set in unless told otherwise: pinned by name (not
    /// fontconfig's sans-serif, which changes with the fonts a machine has); scripts it
    /// lacks fall back per character. Where it is not installed, sans-serif stands in.
    public static let defaultFamily = "DejaVu Sans"

    /// A path (anything with a slash or a font file extension) is a file, else a family.
    public static func parse(_ text: String) -> FontSource {
        let lower = text.lowercased()
        if text.contains("/") || [".ttf", ".otf", ".ttc", ".otc", ".pfb"].contains(where: lower.hasSuffix) {
            return .file(text)
        }
        return .family(text)
    }

    public var description: String {
        switch self {
        case .family(let name): return name
        case .file(let path, let index): return index == 0 ? path : "\(path)#\(index)"
        }
    }
}
