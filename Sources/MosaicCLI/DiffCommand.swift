import ArgumentParser
import Foundation
import Mosaic

/// `mosaic diff BASELINE CURRENT`: visual regression between two images or two folders.
struct DiffCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "diff",
        abstract: "Compare two images or two folders of images (matched by relative path).",
        discussion: "Folders missing above the reports (-o, --json, --junit, --html, --markdown) are created when they are written (mode 0755 less the umask; a file in the way is refused before any work). A run split over machines: each runs --shard K/N --json part-K.json, then 'mosaic diff --merge part-*.json' writes the reports of the whole run. Exit status: 0 when every pair matches (or differs within the tolerance), 1 when not (or images were added or removed, or one could not be read), 2 when the comparison could not be made or reported (a missing path, a file given directly that cannot be read, a report or standard output that could not be written), 64 for a usage error (a bad option, or a pair to approve that is not one of the run). With --accept, --accept-removed, --accept-only or --accept-from, mosaic writes into BASELINE (the only time it changes an input): each approved baseline is replaced by a copy of its current image, created, or deleted, one file at a time (written beside it, synced, renamed), never outside BASELINE; the status is then 0 when every pair not approved passes.")

    @Argument(help: "The baseline image or folder.")
    var baseline: String?
    @Argument(help: "The current image or folder.")
    var current: String?

    @Option(parsing: .unconditional, help: "Colour difference threshold, 0 to 1 (smaller is more sensitive).")
    var threshold = 0.1
    @Flag(name: .customLong("include-aa"), help: "Count anti-aliased pixels as differences too.")
    var includeAntialiasing = false
    @Option(parsing: .unconditional, help: "Pairs with at most this many differing pixels pass.")
    var maxDiffPixels: Int?
    @Option(parsing: .unconditional, help: "Pairs with at most this fraction (0 to 1) of differing pixels pass.")
    var maxDiffRatio: Double?
    @Option(help: ArgumentHelp(
        "How a pair passes: pixelmatch (its differing pixels against --max-diff-pixels or --max-diff-ratio, exact) or ssim (structural similarity on luma, the pair's and each changed region's at least --min-ssim).",
        valueName: "pixelmatch|ssim"))
    var metric: DiffMetric = .pixelmatch
    @Option(parsing: .unconditional, help: "With --metric ssim: the lowest score that passes, 0 to 1 (default 0.99).")
    var minSSIM: Double?
    @Option(help: ArgumentHelp("Leave a rectangle out (repeatable).", valueName: "x,y,w,h"))
    var ignore: [String] = []
    @Option(name: [.short, .long], help: "Write a board PNG: baseline | current | diff for each changed pair.")
    var output: String?
    @Option(parsing: .unconditional, help: "Cut the board into pages no taller than this (NAME-1.png, NAME-2.png, ...; the JSON lists them).")
    var maxHeight: Int?
    @Option(help: ArgumentHelp("Write a JSON report to FILE, or - for standard output.", valueName: "file"))
    var json: String?
    @Option(help: ArgumentHelp("Write a JUnit XML report to FILE.", valueName: "file"))
    var junit: String?
    @Option(help: ArgumentHelp(
        "Write an HTML report to FILE (.html), its diff images in FILE_files/ beside it; images compared are linked, not copied.",
        valueName: "file"))
    var html: String?
    @Option(help: ArgumentHelp(
        "Write a GitHub Flavored Markdown summary to FILE, or - for standard output: the verdict, the counts, a row per failing pair (for a pull request or $GITHUB_STEP_SUMMARY).",
        valueName: "file"))
    var markdown: String?
    @Option(help: ArgumentHelp("With --markdown and --html: link the diff images as URL/NAME_files/00001.png (where the HTML report will be published).", valueName: "url"))
    var linkBase: String?
    @Flag(help: "Approve: replace each changed baseline with its current image and create the added ones (folders made as needed). Writes into BASELINE, the one input mosaic ever changes.")
    var accept = false
    @Flag(help: "Approve removed pairs: delete their baselines.")
    var acceptRemoved = false
    @Option(help: ArgumentHelp("Approve only this pair (repeatable), named relative to BASELINE as the reports name it; implies --accept.", valueName: "path"))
    var acceptOnly: [String] = []
    @Option(help: ArgumentHelp("Approve only the pairs listed in FILE (one a line; - for standard input); implies --accept.", valueName: "file"))
    var acceptFrom: String?
    @Option(parsing: .unconditional, help: "Pairs compared at once (default: the number of cores); the reports are the same for any number.")
    var jobs: Int?
    @Option(parsing: .unconditional, help: ArgumentHelp(
        "Compare part K of N of the pairs (K from 0, as render's --shard takes it): every N-th pair in the order of the names' bytes; its --json is the part 'mosaic diff --merge' reads (with --html, keep the page's _files folder beside the part).",
        valueName: "K/N"))
    var shard: String?
    @Option(parsing: .upToNextOption, help: ArgumentHelp(
        "Write the reports (--json, --junit, --html, --markdown, the summary, the exit status) of a sharded run from every shard's --json part (several after one --merge, or --merge repeated), as the run in one piece would have (no BASELINE, CURRENT or comparison options: the parts say them).",
        valueName: "part"))
    var merge: [String] = []
    @Flag(name: [.short, .long], help: "Print nothing but errors.")
    var quiet = false

    func validate() throws {
        if merge.isEmpty {
            guard baseline != nil else { throw ValidationError("Missing expected argument '<baseline>'") }
            guard current != nil else { throw ValidationError("Missing expected argument '<current>'") }
        } else {
            if baseline != nil || current != nil { throw ValidationError("--merge reads the parts only: the parts name the baseline and the current folders") }
            let given = [
                ("--shard", shard != nil), ("--output", output != nil), ("--max-height", maxHeight != nil), ("--jobs", jobs != nil),
                ("--threshold", threshold != 0.1), ("--include-aa", includeAntialiasing), ("--max-diff-pixels", maxDiffPixels != nil),
                ("--max-diff-ratio", maxDiffRatio != nil), ("--ignore", !ignore.isEmpty), ("--accept", accept), ("--accept-removed", acceptRemoved),
                ("--accept-only", !acceptOnly.isEmpty), ("--accept-from", acceptFrom != nil),
            ]
            if let (option, _) = given.first(where: \.1) {
                throw ValidationError("\(option) does not go with --merge: the parts say how the pairs were compared (a board needs the images and approving the folders: run them with the shards or a whole run)")
            }
        }
        if let shard {
            _ = try ShardArgument.parse(shard)
            if json == nil { throw ValidationError("--shard compares a part of the pairs: give --json FILE for the part that 'mosaic diff --merge' reads") }
        }
        try SheetArguments.checkOutputNames([("--output", output), ("--json", json), ("--junit", junit), ("--html", html), ("--markdown", markdown)])
        if json == "-" && markdown == "-" { throw ValidationError("--json and --markdown cannot both go to standard output") }
        if linkBase != nil && (markdown == nil || html == nil) { throw ValidationError("--link-base sets where --markdown links the diff images of --html: give both") }
        guard threshold.isFinite, (0...1).contains(threshold) else { throw ValidationError("--threshold must be between 0 and 1, got \(threshold)") }
        if maxDiffPixels != nil && maxDiffRatio != nil { throw ValidationError("give --max-diff-pixels or --max-diff-ratio, not both") }
        if let maxDiffPixels, maxDiffPixels < 0 { throw ValidationError("--max-diff-pixels must not be negative, got \(maxDiffPixels)") }
        if let maxDiffRatio, !(maxDiffRatio.isFinite && (0...1).contains(maxDiffRatio)) { throw ValidationError("--max-diff-ratio must be between 0 and 1, got \(maxDiffRatio)") }
        if let minSSIM, !(minSSIM.isFinite && (0...1).contains(minSSIM)) { throw ValidationError("--min-ssim must be between 0 and 1, got \(minSSIM)") }
        if minSSIM != nil && metric != .ssim { throw ValidationError("--min-ssim is the SSIM metric's threshold: give --metric ssim") }
        if metric == .ssim && (maxDiffPixels != nil || maxDiffRatio != nil) {
            throw ValidationError("--metric ssim passes pairs by their score (--min-ssim), not by --max-diff-pixels or --max-diff-ratio")
        }
        _ = try regions()
        if let maxHeight, maxHeight < 100 || maxHeight > 100_000 { throw ValidationError("--max-height must be between 100 and 100000, got \(maxHeight)") }
        if maxHeight != nil && output == nil { throw ValidationError("--max-height cuts the board into pages: give the board with -o") }
        if let jobs, jobs < 1 || jobs > 256 { throw ValidationError("--jobs must be between 1 and 256, got \(jobs)") }
        if let output, !output.lowercased().hasSuffix(".png") {
            throw ValidationError("--output: the board is a PNG; \"\(output)\" does not end in .png")
        }
        if let html, !(html.lowercased().hasSuffix(".html") || html.lowercased().hasSuffix(".htm")) {
            throw ValidationError("--html: the report is a page; \"\(html)\" does not end in .html")
        }
    }

    func regions() throws -> [Rect] {
        try ignore.map { text in
            let parts = text.split(separator: ",").map { Int($0.trimmingCharacters(in: .whitespaces)) }
            guard parts.count == 4, let x = parts[0], let y = parts[1], let w = parts[2], let h = parts[3], w >= 0, h >= 0 else {
                throw ValidationError("--ignore: \"\(text)\" is not x,y,w,h")
            }
            return Rect(x: x, y: y, width: w, height: h)
        }
    }

    func run() throws {
        var options = ComparisonOptions(threshold: threshold, includeAntialiasing: includeAntialiasing, ignoreRegions: try regions())
        options.metric = metric
        var tolerance = DiffTolerance(maximumPixels: maxDiffPixels ?? 0, maximumFraction: maxDiffRatio)
        if let minSSIM { tolerance.minimumSSIM = minSSIM }
        let shard = try self.shard.map { text in
            let (index, count) = try ShardArgument.parse(text)
            return DiffShard(index: index, count: count)
        }
        do {
            // Read first: a list that cannot be read is a usage error before any work.
            let approvalNames = try acceptFrom.map { try BaselineApproval.names(fromFile: $0) + acceptOnly } ?? (acceptOnly.isEmpty ? nil : acceptOnly)
            // A sharded run's parts, read and checked before anything is written.
            let merged = merge.isEmpty ? nil : try DiffMerge.read(merge)
            let (baseline, current) = (merged?.baseline ?? self.baseline ?? "", merged?.current ?? self.current ?? "")
            // Before any work: no report may replace an image compared, or another report.
            var check = OutputCheck()
            if let output { check.write(output, by: "--output") }
            if let json, json != "-" { check.write(json, by: "--json") }
            if let junit { check.write(junit, by: "--junit") }
            if let html { check.write(html, by: "--html") }
            if let markdown, markdown != "-" { check.write(markdown, by: "--markdown") }
            check.read(merged?.paths ?? [baseline, current])
            try check.check()
            let page = html.map { DiffHTMLReport(path: $0, inputs: (baseline, current)) }
            try page?.check(reading: [baseline, current])
            if page != nil { try merged?.checkDiffImages() }
            let staging = try page?.makeStagingFolder()
            var report: DiffReport
            if let merged {
                report = try staging.map { try merged.reportWithDiffImages(in: $0.path) } ?? merged.report
            } else {
                let comparison = try FolderComparison.compare(
                    baseline: baseline, current: current, options: options, tolerance: tolerance, diffImages: staging?.path, jobs: jobs,
                    shard: shard)
                report = DiffReport(comparison: comparison, options: options, tolerance: tolerance)
            }
            let comparison = report.comparison
            // The pairs to approve, checked before anything is written.
            let approval = try approval(of: comparison, names: approvalNames)
            if let page, let staging { try page.commit(report, staging: staging) }
            var staleBoard: [String] = []
            var boardFiles: [String]?
            if let output {
                if let sheet = try report.board(typesetter: try SheetArguments.typesetter(), maxHeight: maxHeight) {
                    // Before anything is drawn, as render says it.
                    let files = PNGSink.pagePaths(for: output, pageCount: sheet.layout.pageCount)
                    if !quiet { warnOfLargePages(sheet, files: files) }
                    boardFiles = try SheetRenderer(sheet: sheet).render(to: output).files
                } else {
                    // Nothing to show: a board of an earlier run (one page, or its pages
                    // NAME-1.png, NAME-2.png, ...) would say otherwise. Only pages mosaic
                    // wrote are removed.
                    var pages = [output]
                    while FileManager.default.fileExists(atPath: PNGSink.pagePath(for: output, number: pages.count)) {
                        pages.append(PNGSink.pagePath(for: output, number: pages.count))
                    }
                    for page in pages where FileManager.default.fileExists(atPath: page) && PNGSink.isMosaicSheet(page) {
                        try FileManager.default.removeItem(atPath: page)
                        staleBoard.append(page)
                    }
                }
            }
            if let json {
                let part = shard.map {
                    DiffPartRecord(shard: $0, baseline: baseline, current: current, report: report, json: json, diffImages: page?.folder)
                }
                if let merged, json != "-" {
                    // Streamed: the merged pairs' bytes are not copied into one document first.
                    try PendingFile(at: json) { stream throws(SheetError) in try merged.writeJSON(to: stream) }.commit()
                } else {
                    let data = try merged?.json() ?? report.json(board: boardFiles, shard: part)
                    if json == "-" {
                        try Terminal.writeOutput(data + Data("\n".utf8))
                    } else {
                        try PendingFile(data, at: json).commit()
                    }
                }
            }
            // Written beside their destination and renamed: a full disk names the file and its
            // reason, and leaves an earlier report as it was.
            if let junit { try PendingFile(Data(report.junit().utf8), at: junit).commit() }
            if let markdown {
                let summary = DiffMarkdown(report: report, page: page, linkBase: linkBase, location: markdown == "-" ? nil : markdown)
                if markdown == "-" { try Terminal.writeOutput(Data(summary.text().utf8)) } else { try PendingFile(Data(summary.text().utf8), at: markdown).commit() }
            }
            if !quiet {
                var lines = report.summaryLines()
                if !staleBoard.isEmpty { lines.append("no board: nothing changed (removed the previous \(staleBoard.joined(separator: ", ")))") }
                if json == "-" || markdown == "-" { lines.forEach(printError) } else { for line in lines { try Terminal.print(line) } }
            }
            if GitHubAnnotations.enabled(in: ProcessInfo.processInfo.environment) {
                let lines = GitHubAnnotations.lines(report)
                if json == "-" || markdown == "-" { lines.forEach(printError) } else { for line in lines { try Terminal.print(line) } }
            }
            if let approval {
                try approval.apply { step in
                    if !quiet { approved(step) }
                }
                if !quiet { for (name, reason) in approval.skipped { approved("not approved  \(FileNames.display(name)): \(reason)") } }
                if !approval.remainingPass(comparison) { throw ExitCode(1) }
                return
            }
            if !comparison.passes { throw ExitCode(1) }
        } catch let error as ApprovalError {
            printError("error: \(error)")
            throw ExitCode(error.isUsage ? 64 : 2)
        } catch let error as DiffError {
            printError("error: \(error)")
            throw ExitCode(2)
        } catch let error as ExitCode {
            throw error
        } catch {
            printError("error: \(error)")
            throw ExitCode(2)
        }
    }

    /// The approval asked for (`--accept`, `--accept-removed`, `--accept-only`,
    /// `--accept-from`), planned and checked; nil when none was.
    func approval(of comparison: FolderComparison, names: [String]?) throws(ApprovalError) -> BaselineApproval? {
        guard accept || acceptRemoved || names != nil else { return nil }
        return try BaselineApproval(comparison: comparison, baseline: baseline ?? "", acceptChanged: accept || names != nil, acceptRemoved: acceptRemoved, names: names)
    }

    /// A line of the approval's account, where the summary went.
    func approved(_ step: BaselineApproval.Step) {
        approved(step.action.rawValue.padding(toLength: 11, withPad: " ", startingAt: 0) + FileNames.display(step.destination))
    }

    func approved(_ line: String) {
        if json == "-" || markdown == "-" { printError(line) } else { try? Terminal.print(line) }
    }
}

extension DiffMetric: ExpressibleByArgument {}
