import Foundation

/// One review from a request to results and reports, as `mosaic diff` runs it and as a
/// program can: the reports checked against the images before any work, the pairs
/// compared (or a sharded run's parts merged), the baselines to approve checked, then each
/// report written (HTML page, board, JSON, JUnit, Markdown) beside its destination and
/// renamed into place, the summary and annotations given, and the approval applied.
///
/// ```swift
/// let job = DiffJob(request: DiffRequest(baseline: "baseline", current: "current", reports: .init(json: "report.json")))
/// let result = try job.run()
/// print(result.passes)
/// ```
public struct DiffJob: Sendable {
    /// What was asked.
    public let request: DiffRequest
    /// Draws the board's captions; nil for the fonts fontconfig finds (read only when a
    /// board is drawn).
    public var typesetter: Typesetter?

    public init(request: DiffRequest, typesetter: Typesetter? = nil) {
        self.request = request
        self.typesetter = typesetter
    }

    /// What the job tells its caller as it goes, in order.
    public enum Event {
        /// The board is laid out and about to be drawn into `files`.
        case board(ContactSheet, files: [String])
        /// The summary for people: a line per pair that is not unchanged, then the counts.
        case summary([String])
        /// GitHub Actions `::error` lines, one per failing pair (`DiffRequest.annotations`).
        case annotations([String])
        /// A line of the approval's account: a baseline replaced, created or deleted, or a
        /// pair not approved and why.
        case approved(String)
        /// Bytes for standard output: a report whose destination is `-`.
        case standardOutput(Data)
        /// Something to tell that does not stop the run: an unknown key in the config
        /// file, a rule whose glob matches no pair.
        case warning(String)
    }

    /// What a review found and wrote.
    public struct Result: Sendable {
        /// The pairs and their figures.
        public var report: DiffReport
        /// The board's pages, when one was drawn.
        public var board: [String]?
        /// A previous run's board pages removed because nothing changed.
        public var removedBoard: [String]
        /// The approval applied, when one was asked.
        public var approval: BaselineApproval?
        /// True when every pair passes (with an approval: every pair not approved).
        public var passes: Bool
    }

    /// Runs the review.
    ///
    /// - Parameter events: called with each `Event` as it happens; what it throws ends
    ///   the run (the lines of an approval's account cannot end it: the files are being
    ///   written).
    /// - Throws: `ApprovalError` (a list that cannot be read, a name that is not a pair:
    ///   usage errors; a baseline that cannot be written), `DiffMergeError`, `DiffError`,
    ///   `OutputError` (a report that cannot be checked or written), or what `events` threw.
    public func run(events: (Event) throws -> Void = { _ in }) throws -> Result {
        let reports = request.reports
        // Read first: a list that cannot be read is a usage error before any work.
        var names = request.approval?.names
        if let file = request.approval?.namesFile { names = try BaselineApproval.names(fromFile: file) + (names ?? []) }
        // A sharded run's parts, read and checked before anything is written.
        let merged = request.merge.isEmpty ? nil : try DiffMerge.read(request.merge)
        let (baseline, current) = (merged?.baseline ?? request.baseline ?? "", merged?.current ?? request.current ?? "")
        // Before any work: no report may replace an image compared, or another report.
        var check = OutputCheck()
        if let board = reports.board { check.write(board, by: "--output") }
        if let json = reports.json, json != "-" { check.write(json, by: "--json") }
        if let junit = reports.junit { check.write(junit, by: "--junit") }
        if let html = reports.html { check.write(html, by: "--html") }
        if let markdown = reports.markdown, markdown != "-" { check.write(markdown, by: "--markdown") }
        // The per-path rules (a comparison only: a merge takes its parts' rules).
        var config: DiffConfig?
        if merged == nil {
            if let path = request.config {
                config = try DiffConfig.read(path)
            } else if request.looksForConfig, let baseline = request.baseline {
                let path = DiffConfig.defaultPath(beside: baseline)
                if FileManager.default.fileExists(atPath: path) { config = try DiffConfig.read(path) }
            }
        }
        let rules = try config?.pairRules(options: request.options, tolerance: request.tolerance) ?? []
        check.read((merged?.paths ?? [baseline, current]) + (config.map { [$0.path] } ?? []))
        try check.check()
        for warning in config?.warnings ?? [] { try events(.warning(warning)) }
        // A baseline from git: read into a private copy, removed after the run (its files
        // are compared, copied into the HTML report and drawn on the board).
        let git = try request.baselineRef.map { (ref) throws(GitBaselineError) in try GitBaseline(baseline: baseline, ref: ref) }
        defer { git?.remove() }
        let page = reports.html.map {
            DiffHTMLReport(path: $0, inputs: (baseline, current), copiesImages: !reports.htmlLinks || git != nil)
        }
        // A merge reads the shards' diff images: the page's folder may not be one of theirs
        // (`--html part-0.html` replaced the folder it copies from).
        try page?.check(reading: [baseline, current] + (merged?.diffImageFiles ?? []))
        if page != nil { try merged?.checkDiffImages() }
        let staging = try page?.makeStagingFolder()
        var report: DiffReport
        if let merged {
            report = try staging.map { try merged.reportWithDiffImages(in: $0.path) } ?? merged.report
        } else {
            let comparison = try FolderComparison.compare(
                baseline: git?.path ?? baseline, current: current, options: request.options, tolerance: request.tolerance, diffImages: staging?.path,
                jobs: request.jobs, shard: request.shard, rules: rules)
            report = DiffReport(comparison: comparison, options: request.options, tolerance: request.tolerance)
            (report.rules, report.config, report.baselineCommit) = (rules, config, git?.commit)
            // A rule that compares nothing is likely a mistyped glob (a shard sees only its
            // share of the pairs: not said there).
            if let config, request.shard == nil {
                let used = Set(comparison.results.compactMap(\.rule))
                for (index, rule) in rules.enumerated() where !used.contains(index) {
                    let matches = comparison.results.contains { rule.glob.matches($0.relativePath) }
                    let why = matches ? "every pair it matches is taken by an earlier rule" : "it matches no pair"
                    try events(.warning("\(FileNames.display(config.path)): rules[\(index)] (glob \"\(rule.glob.pattern)\") compares nothing: \(why)"))
                }
            }
        }
        let comparison = report.comparison
        // The pairs to approve, checked before anything is written.
        var approval: BaselineApproval?
        if let asked = request.approval {
            approval = try BaselineApproval(
                comparison: comparison, baseline: request.baseline ?? "", acceptChanged: asked.changed || names != nil,
                acceptRemoved: asked.removed, names: names)
            // Into the work tree, never over an uncommitted edit.
            if let approval { try git?.checkWorkTree(approval) }
        }
        if let page, let staging { try page.commit(report, staging: staging) }
        var boardFiles: [String]?
        var removedBoard: [String] = []
        if let board = reports.board {
            if let sheet = try report.board(typesetter: try typesetter ?? Typesetter(fonts: FontLibrary()), maxHeight: reports.boardMaxHeight) {
                try events(.board(sheet, files: PageNames.paths(for: board, pageCount: sheet.layout.pageCount)))
                boardFiles = try SheetRenderer(sheet: sheet).render(to: board).files
            } else {
                removedBoard = try Self.removeBoard(board)
            }
        }
        // From here the pairs are named as BASELINE's files, not the private copy's.
        if let git { report = git.named(report) }
        if let json = reports.json { try writeJSON(json, report: report, merged: merged, board: boardFiles, page: page, events: events) }
        // Written beside their destination and renamed: a full disk names the file and its
        // reason, and leaves an earlier report as it was.
        if let junit = reports.junit { try PendingFile(Data(report.junit().utf8), at: junit).commit() }
        if let markdown = reports.markdown {
            let summary = DiffMarkdown(report: report, page: page, linkBase: reports.linkBase, location: markdown == "-" ? nil : markdown)
            if markdown == "-" { try events(.standardOutput(Data(summary.text().utf8))) } else { try PendingFile(Data(summary.text().utf8), at: markdown).commit() }
        }
        var lines = report.summaryLines()
        if !removedBoard.isEmpty { lines.append("no board: nothing changed (removed the previous \(removedBoard.joined(separator: ", ")))") }
        try events(.summary(lines))
        if request.annotations { try events(.annotations(GitHubAnnotations.lines(report))) }
        var passes = comparison.passes
        if let approval {
            try approval.apply { step in
                try? events(.approved(step.action.rawValue.padding(toLength: 11, withPad: " ", startingAt: 0) + FileNames.display(step.destination)))
            }
            for (name, reason) in approval.skipped { try? events(.approved("not approved  \(FileNames.display(name)): \(reason)")) }
            passes = approval.remainingPass(comparison)
        }
        return Result(report: report, board: boardFiles, removedBoard: removedBoard, approval: approval, passes: passes)
    }

    /// The JSON report: a shard's part, the merged parts (streamed into the file), or the
    /// run's.
    func writeJSON(
        _ json: String, report: DiffReport, merged: DiffMerge?, board: [String]?, page: DiffHTMLReport?, events: (Event) throws -> Void
    ) throws {
        let part = request.shard.map {
            DiffPartRecord(shard: $0, baseline: request.baseline ?? "", current: request.current ?? "", report: report, json: json, diffImages: page?.folder)
        }
        if let merged, json != "-" {
            // Streamed: the merged pairs' bytes are not copied into one document first.
            try PendingFile(at: json) { stream throws(OutputError) in try merged.writeJSON(to: stream) }.commit()
            return
        }
        let data = try merged?.json() ?? report.json(board: board, shard: part)
        if json == "-" { try events(.standardOutput(data + Data("\n".utf8))) } else { try PendingFile(data, at: json).commit() }
    }

    /// Nothing to show: a board of an earlier run (one page, or its pages NAME-1.png,
    /// NAME-2.png, ...) would say otherwise. Only pages mosaic wrote are removed; returns
    /// them.
    static func removeBoard(_ board: String) throws -> [String] {
        var pages = [board]
        while FileManager.default.fileExists(atPath: PageNames.path(for: board, number: pages.count)) {
            pages.append(PageNames.path(for: board, number: pages.count))
        }
        var removed: [String] = []
        for page in pages where FileManager.default.fileExists(atPath: page) && PNGSink.isMosaicSheet(page) {
            try FileManager.default.removeItem(atPath: page)
            removed.append(page)
        }
        return removed
    }
}
