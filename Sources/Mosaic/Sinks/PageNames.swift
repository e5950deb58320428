import Foundation

/// The page-naming rule, written once for every caller (the page sinks, the catalog that
/// leaves a previous sheet out of its inputs, the diff board, the image map, the warnings):
/// a board of one page is written at its destination (`sheet.png`); a board of N pages as
/// `sheet-1.png` ... `sheet-N.png` beside it.
public enum PageNames {
    /// The file of each of `pageCount` pages written to `destination`.
    public static func paths(for destination: String, pageCount: Int) -> [String] {
        if pageCount <= 1 { return [destination] }
        return (1...pageCount).map { path(for: destination, number: $0) }
    }

    /// `NAME-number.EXT` beside `destination` (`NAME.EXT`).
    public static func path(for destination: String, number: Int) -> String {
        let base = (destination as NSString).deletingPathExtension
        let ext = (destination as NSString).pathExtension
        return "\(base)-\(number)" + (ext.isEmpty ? "" : ".\(ext)")
    }

    /// True when `stem` (a file's name without folder and suffix) names a page of a
    /// destination whose stem is `base`: `base` itself, or `base-N`.
    public static func isPage(stem: String, of base: String) -> Bool {
        if stem == base { return true }
        guard stem.hasPrefix(base + "-") else { return false }
        let number = stem.dropFirst(base.count + 1)
        return !number.isEmpty && number.allSatisfy(\.isNumber)
    }
}
