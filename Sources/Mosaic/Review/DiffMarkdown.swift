import Foundation

/// `mosaic diff --markdown FILE`: a summary for a pull request's comment or a GitHub
/// Actions job summary (`>> $GITHUB_STEP_SUMMARY`), in GitHub Flavored Markdown: the
/// verdict, the counts, and a table row per failing pair (changed worst first, failed,
/// added, removed), cut after `rowLimit` rows with a count of the rest. Every name is
/// escaped (`cell`) so that no file name can break the table.
public struct DiffMarkdown: Sendable {
    /// The comparison's report.
    public let report: DiffReport
    /// The HTML report written beside, whose diff images the rows link to; nil without
    /// `--html`.
    public var page: DiffHTMLReport?
    /// Where the diff images' links start (`--link-base URL`): each link is this URL, a
    /// slash and the image's path relative to the HTML page (`report_files/00001.png`).
    /// Without it, links are relative to the Markdown file's folder (to the working folder
    /// when it goes to standard output).
    public var linkBase: String?
    /// The Markdown file's path; nil for standard output.
    public var location: String?

    /// Rows listed at most; the rest are counted.
    public static let rowLimit = 100

    public init(report: DiffReport, page: DiffHTMLReport? = nil, linkBase: String? = nil, location: String? = nil) {
        self.report = report
        self.page = page
        self.linkBase = linkBase
        self.location = location
    }

    /// The summary's text.
    public func text() -> String {
        let c = report.comparison
        let failing = report.changedBySeverity + c.failed + c.added + c.removed
        var out = "## mosaic diff: " + (c.passes ? "✅ passed" : "❌ failed") + "\n\n"
        out += (report.summaryLines().last ?? "") + "\n"
        guard !failing.isEmpty else { return out }
        let showRegions = failing.contains { Self.regionCount($0) != nil }
        let showLinks = failing.contains { $0.diffImagePath != nil } && page != nil
        var header = ["Pair", "Status", "Differing pixels"]
        var rule = ["---", "---", "---"]
        if showRegions { (header, rule) = (header + ["Regions"], rule + ["---:"]) }
        if showLinks { (header, rule) = (header + ["Diff"], rule + ["---"]) }
        out += "\n| " + header.joined(separator: " | ") + " |\n|" + rule.joined(separator: "|") + "|\n"
        for r in failing.prefix(Self.rowLimit) {
            var cells = [Self.cell(r.relativePath), r.status.rawValue, Self.cell(details(r))]
            if showRegions { cells.append(Self.regionCount(r).map(String.init) ?? "") }
            if showLinks { cells.append(link(r).map { "[diff](\($0))" } ?? "") }
            out += "| " + cells.joined(separator: " | ") + " |\n"
        }
        if failing.count > Self.rowLimit { out += "\nand \(failing.count - Self.rowLimit) more (see the full report)\n" }
        return out
    }

    /// The number of changed regions of a compared pair (`ImageDifference.regionCount`);
    /// nil when it has none (added, removed, failed; a size change or an SSIM score alone).
    /// The "Regions" column appears when some failing pair has regions.
    static func regionCount(_ result: PairResult) -> Int? {
        guard let count = result.difference?.regionCount, count > 0 else { return nil }
        return count
    }

    /// A failing pair's figures: its pixels, or why it fails.
    func details(_ r: PairResult) -> String {
        switch r.status {
        case .added: return "no baseline"
        case .removed: return "no current image"
        case .failed: return r.error?.description ?? "cannot read"
        default: return report.figures(r)
        }
    }

    /// The link to a pair's diff image, once the HTML report's folder is in place.
    func link(_ r: PairResult) -> String? {
        guard let page, let file = r.diffImagePath else { return nil }
        let relative = WebText.percentEncoded((page.folder as NSString).lastPathComponent) + "/" + WebText.percentEncoded((file as NSString).lastPathComponent)
        if let linkBase {
            var base = linkBase
            while base.hasSuffix("/") { base.removeLast() }
            return Self.linkSafe(base) + "/" + relative
        }
        let pageFolder = (page.path as NSString).deletingLastPathComponent
        let target = OutputCheck.resolved((pageFolder.isEmpty ? "." : pageFolder) + "/" + (page.folder as NSString).lastPathComponent + "/" + (file as NSString).lastPathComponent)
        let from = location.map { ($0 as NSString).deletingLastPathComponent } ?? "."
        return WebText.relativeURL(from: OutputCheck.resolved(from.isEmpty ? "." : from), to: target)
    }

    /// A URL given by the user, with what would end a Markdown link (spaces, parentheses,
    /// angle brackets, controls) percent-encoded.
    static func linkSafe(_ url: String) -> String {
        var out = ""
        for byte in FileNames.bytes(of: url) {
            if byte <= 0x20 || byte >= 0x7F || "()<>\\`|[]\"".utf8.contains(byte) {
                out += "%" + (byte < 16 ? "0" : "") + String(byte, radix: 16, uppercase: true)
            } else {
                out.unicodeScalars.append(Unicode.Scalar(byte))
            }
        }
        return out
    }

    /// `text` as one table cell's inline text: controls, bidi controls and bytes that are
    /// not UTF-8 shown visibly as the terminal shows them (`TerminalText.escaped`: a
    /// newline is `\x0a`), then every ASCII punctuation character backslash-escaped
    /// (CommonMark lets any be; `\|` is GFM's pipe inside a cell), so that nothing in a name
    /// is markup, a line break or a column.
    public static func cell(_ text: String) -> String {
        var out = ""
        for scalar in TerminalText.escaped(text).unicodeScalars {
            let value = scalar.value
            let alphanumeric = (0x30...0x39).contains(value) || (0x41...0x5A).contains(value) || (0x61...0x7A).contains(value)
            if (0x21...0x7E).contains(value) && !alphanumeric {
                out.append("\\")
            }
            out.unicodeScalars.append(scalar)
        }
        return out
    }
}
