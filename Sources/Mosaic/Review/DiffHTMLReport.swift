import Foundation

/// `mosaic diff --html report.html`: a static page, one file, its diff images in
/// `report_files/` beside it, and there too a copy of each listed pair's baseline and
/// current image (`report_files/baseline/00001.png`, reflinked where the file system can,
/// `FileCopy`), so the page and its folder travel alone (a CI artifact). With
/// `copiesImages` false (`--html-links`) they are linked where they are (relative links, as
/// reg-cli does), so a large local run weighs its diff images and a few hundred bytes a pair.
///
/// The page lists problems first (changed worst first, failed, added, removed), then pairs
/// within the tolerance; unchanged pairs are counted, not listed. Rows are built from the
/// page's JSON a hundred at a time as the reader scrolls and images load lazily, so the page
/// opens as fast with 10,000 pairs as with 10. Its state (filter, search, view) lives in the
/// address's fragment (`#filter=failed&q=login&view=slider`), so a link shows what its
/// sender saw.
public struct DiffHTMLReport: Sendable {
    /// Where the page goes.
    public let path: String

    /// The baseline and current as the command named them, for the approving command the
    /// page offers (`mosaic diff BASE CUR --accept-only ...`); when nil, the folders the
    /// pairs lie in.
    public var inputs: (baseline: String, current: String)?

    /// True: the listed pairs' images are copied into `folder`, so the page and its folder
    /// are the whole report; false (`--html-links`): linked where they are.
    public var copiesImages: Bool

    /// A report to be written at `path` (a `.html` file).
    public init(path: String, inputs: (baseline: String, current: String)? = nil, copiesImages: Bool = true) {
        self.path = path
        self.inputs = inputs
        self.copiesImages = copiesImages
    }

    /// The folder beside the page that holds the diff images: `report_files` for
    /// `report.html`.
    public var folder: String {
        (path as NSString).deletingPathExtension + "_files"
    }

    /// The file in `folder` that marks it as written by mosaic (a folder without it is
    /// never replaced).
    static let marker = ".mosaic-diff-report"

    // MARK: Writing

    /// Before any work: the folder is either absent or one mosaic wrote, and holds none of
    /// the images compared.
    ///
    /// - Throws: `OutputError.wouldReplaceAForeignFile` for a folder of someone else's,
    ///   `.outputIsAnInput` when an image compared lies inside it.
    public func check(reading inputs: [String]) throws(OutputError) {
        var reading = OutputCheck()
        reading.read(inputs)
        try StagedFolder.check(folder, marker: Self.marker, reading: reading)
    }

    /// A fresh hidden folder beside `folder` for the run's diff images, renamed into place
    /// by `commit`.
    ///
    /// - Throws: `OutputError.write(.cannotCreate)` with the system's reason.
    public func makeStagingFolder() throws(OutputError) -> StagedFolder {
        try StagedFolder(destination: folder, marker: Self.marker)
    }

    /// Writes the page for `report` (whose diff images are in `staging`) and moves the
    /// images' folder into place, replacing the previous run's: the folder first, then the
    /// page, each by a rename, so a reader never sees a page without its images.
    ///
    /// - Throws: `OutputError.output` when a file cannot be written or renamed.
    public func commit(_ report: DiffReport, staging: StagedFolder) throws(OutputError) {
        let copies = copiesImages ? try copyImages(report, into: staging.path) : nil
        let pending = try PendingFile(Data(html(report, copies: copies).utf8), at: path)
        try staging.commit()
        try pending.commit()
    }

    /// A listed pair's images as copied into the folder: their links (relative to the
    /// page) and, for a side not copied, why.
    struct Copies {
        var baseline: String?
        var current: String?
        var notes: [String] = []
    }

    /// The pairs whose images the page shows: changed, worst first; added; removed;
    /// within the tolerance (failed pairs show their error, not their files, so a file
    /// that is not an image is never copied into a report that is shared).
    static func pairsShown(_ report: DiffReport) -> [PairResult] {
        let c = report.comparison
        return report.changedBySeverity + c.added + c.removed + c.withinTolerance
    }

    /// Copies the images of the pairs the page shows into `baseline/` and `current/` in
    /// `folder` (the staging folder), numbered in the page's order with each file's own
    /// extension: `baseline/00001.png`. A symbolic link, or a file that is not a regular
    /// one, is not copied: the pair says so.
    ///
    /// - Throws: `OutputError.write(.cannotCreate)` when a copy cannot be written.
    func copyImages(_ report: DiffReport, into folder: String) throws(OutputError) -> [String: Copies] {
        let folderName = WebText.percentEncoded((self.folder as NSString).lastPathComponent)
        var copies: [String: Copies] = [:]
        var made: Set<String> = []
        for (number, result) in Self.pairsShown(report).enumerated() {
            var copy = Copies()
            for (side, source) in [("baseline", result.baselinePath), ("current", result.currentPath)] {
                guard let source else { continue }
                if !made.contains(side) {
                    do {
                        try StagedFolder.makeFolders(side, in: folder)
                    } catch {
                        throw .write(error)
                    }
                    made.insert(side)
                }
                let name = String(format: "%05d", number + 1) + Self.fileExtension(of: source)
                switch try FileCopy.copy(source, to: folder + "/" + side + "/" + name) {
                case .copied:
                    let link = folderName + "/" + side + "/" + name
                    if side == "baseline" { copy.baseline = link } else { copy.current = link }
                case .notCopied(let reason):
                    copy.notes.append("\(side) image not copied into the report: \(reason)")
                }
            }
            copies[result.relativePath] = copy
        }
        return copies
    }

    /// `.png` for `a/b.PNG`: a short extension of letters and digits, lowercased, so that
    /// a web server names the type; "" for none.
    static func fileExtension(of path: String) -> String {
        let ext = (path as NSString).pathExtension.lowercased()
        guard (1...5).contains(ext.count), ext.allSatisfy({ $0.isASCII && ($0.isLetter || $0.isNumber) }) else { return "" }
        return "." + ext
    }

    // MARK: The page

    /// One listed pair, as the page's script reads it.
    struct Row: Encodable {
        /// Relative path, status, figures.
        var p: String
        var s: String
        var f: String?
        /// Links, relative to the page: baseline, current, diff image.
        var b: String?
        var c: String?
        var d: String?
        /// The changed pixels' box and the compared size, for the outlines and the inset.
        var box: [Int]?
        var size: [Int]?
        /// The changed regions' boxes, largest first: one outline each, the largest magnified.
        var rg: [[Int]]?
        /// Aligned: each region's change ("inserted", "deleted", "shifted", "recoloured",
        /// "modified") and offset [dx, dy] (parallel to `rg`), the alignment's runs
        /// [baselineY, currentY, height], and the two sizes [width, height].
        var rk: [String]?
        var ro: [[Int]]?
        var al: [[Int]]?
        var bs: [Int]?
        var cs: [Int]?
        /// Why a failed pair could not be read.
        var e: String?
        /// An image of the pair not copied into the report, and why.
        var x: [String]?
        /// A pair the reviewer may approve (changed, added, removed): its name as one shell
        /// word (`ShellText.quoted`), and its exact bytes in base64 when not UTF-8 (for the
        /// downloadable `--accept-from` list).
        var q: String?
        var n: String?
    }

    struct Page: Encodable {
        var title: String
        var passes: Bool
        var counts: [String: Int]
        var baseline: String
        var current: String
        var settings: String
        /// The approving command's start: `mosaic diff 'BASE' 'CUR'`.
        var command: String
        var pairs: [Row]
    }

    /// The page's HTML for `report`, its diff images linked as they will be once their
    /// folder is in place; with `copies`, the images compared linked as copied there.
    func html(_ report: DiffReport, copies: [String: Copies]? = nil) -> String {
        let c = report.comparison
        let listed = report.changedBySeverity + c.failed + c.added + c.removed + c.withinTolerance
        let pageFolder = OutputCheck.resolved((path as NSString).deletingLastPathComponent.isEmpty ? "." : (path as NSString).deletingLastPathComponent)
        let folderName = (folder as NSString).lastPathComponent
        func link(_ file: String?) -> String? {
            file.map { WebText.relativeURL(from: pageFolder, to: OutputCheck.resolved($0)) }
        }
        let rows = listed.map { r -> Row in
            var row = Row(p: FileNames.display(r.relativePath), s: r.status.rawValue)
            if let copies {
                let copy = copies[r.relativePath]
                (row.b, row.c) = (copy?.baseline, copy?.current)
                if let notes = copy?.notes, !notes.isEmpty { row.x = notes }
            } else {
                row.b = link(r.baselinePath)
                row.c = link(r.currentPath)
            }
            if let diff = r.diffImagePath {
                row.d = WebText.percentEncoded(folderName) + "/" + WebText.percentEncoded((diff as NSString).lastPathComponent)
            }
            if let d = r.difference {
                row.f = report.figures(r)
                if let alignment = d.alignment {
                    // Aligned: boxes on each side by their change, the aligned view's rows.
                    row.rg = d.regions.map { [$0.bounds.minX, $0.bounds.minY, $0.bounds.width, $0.bounds.height] }
                    row.rk = d.regions.map { $0.change?.rawValue ?? "modified" }
                    row.ro = d.regions.map { [$0.offset?.dx ?? 0, $0.offset?.dy ?? 0] }
                    row.al = alignment.map { [$0.baselineY, $0.currentY, $0.height] }
                    let baseline = d.sizeMismatch?.baseline ?? d.size, current = d.sizeMismatch?.current ?? d.size
                    row.bs = [baseline.width, baseline.height]
                    row.cs = [current.width, current.height]
                } else if d.sizeMismatch == nil {
                    // Two sizes: each image at its own shape, no box (everything differs).
                    row.box = d.bounds.map { [$0.minX, $0.minY, $0.width, $0.height] }
                    row.size = [d.size.width, d.size.height]
                    if !d.regions.isEmpty { row.rg = d.regions.map { [$0.bounds.minX, $0.bounds.minY, $0.bounds.width, $0.bounds.height] } }
                }
            }
            row.e = r.error?.description
            if [.changed, .added, .removed].contains(r.status) {
                row.q = ShellText.quoted(r.relativePath)
                row.n = ReportedName(r.relativePath).sourceBytes
            }
            return row
        }
        var settings = "threshold \(report.options.threshold)"
        if report.options.includeAntialiasing { settings += ", anti-aliased pixels counted" }
        if let fraction = report.tolerance.maximumFraction {
            settings += ", tolerance \(fraction * 100)% of pixels"
        } else if report.tolerance.maximumPixels > 0 {
            settings += ", tolerance \(report.tolerance.maximumPixels) px"
        }
        if !report.options.ignoreRegions.isEmpty { settings += ", \(report.options.ignoreRegions.count) region(s) ignored" }
        if let commit = report.baselineCommit { settings += ", baseline read from commit \(commit.prefix(12))" }
        if let config = report.config {
            settings += ", \(config.rules.count) per-path rule\(config.rules.count == 1 ? "" : "s") (\(FileNames.display(config.path)))"
        }
        if report.options.metric == .ssim { settings += ", passing at SSIM \(report.tolerance.minimumSSIM) or more (the pair's and each region's)" }
        let counts = [
            "changed": c.changed.count, "added": c.added.count, "removed": c.removed.count, "unchanged": c.unchanged.count,
            "withinTolerance": c.withinTolerance.count, "failed": c.failed.count,
        ]
        let baselineRoot = c.results.first?.baselinePath.map { Self.root(of: $0, relative: c.results.first?.relativePath) } ?? ""
        let currentRoot = c.results.first?.currentPath.map { Self.root(of: $0, relative: c.results.first?.relativePath) } ?? ""
        let (baselineArgument, currentArgument) = inputs ?? (baselineRoot, currentRoot)
        let page = Page(
            title: report.summaryLines().last ?? "", passes: c.passes, counts: counts,
            baseline: FileNames.display(baselineRoot), current: FileNames.display(currentRoot), settings: settings,
            command: "mosaic diff " + ShellText.quoted(baselineArgument) + " " + ShellText.quoted(currentArgument), pairs: rows)
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        // Inside <script>, "<" may start "</script>" or "<!--": written as \u003c, which
        // JSON reads back as "<".
        let json = (try? encoder.encode(page)).map { String(decoding: $0, as: UTF8.self) } ?? "{\"pairs\":[]}"
        let data = json.replacingOccurrences(of: "<", with: "\\u003c")
        let title = WebText.escapeHTML("mosaic diff: " + (c.passes ? "passed" : "failed"))
        return Self.template
            .replacingOccurrences(of: "@TITLE@", with: title)
            .replacingOccurrences(of: "@DATA@", with: data)
    }

    /// The folder a pair's file lies in, less its relative path: the folder compared.
    static func root(of file: String, relative: String?) -> String {
        guard let relative, file.hasSuffix("/" + relative) else { return file }
        return String(file.dropLast(relative.count + 1))
    }

    /// The page: styles, the data, and the script that lists it. No network, no library.
    static let template = EmbeddedTemplates.diffReportHTML
}
