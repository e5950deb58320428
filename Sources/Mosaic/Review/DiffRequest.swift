import Foundation

/// What a review asks, as `mosaic diff` takes it: the two images or folders to compare (or
/// the parts of a sharded run to merge), how to compare them and when a pair passes, which
/// part of the pairs to compare, the reports to write, and the baselines to approve.
/// `DiffJob` runs it.
public struct DiffRequest: Sendable {
    /// The baseline and current image or folder; nil with `merge` (the parts name them).
    public var baseline: String?
    public var current: String?
    /// How pixels are compared, and the metric.
    public var options: ComparisonOptions
    /// When a pair that differs still passes.
    public var tolerance: DiffTolerance
    /// Pairs compared at once; nil for the number of cores (the reports are the same).
    public var jobs: Int?
    /// Compare only part K of N of the pairs; its JSON report (`Reports.json`) is the part
    /// a merge reads.
    public var shard: DiffShard?
    /// The JSON parts of a sharded run to merge into the reports of the whole run; empty
    /// for a comparison.
    public var merge: [String]
    /// The reports to write.
    public var reports: Reports
    /// The baselines to approve; nil to approve none.
    public var approval: Approval?
    /// Each failing pair also as a GitHub Actions `::error` line (`GitHubAnnotations`).
    public var annotations: Bool
    /// The per-path rules' file (`DiffConfig`); when nil and `looksForConfig`,
    /// `mosaic-diff.json` beside `baseline` is read when present.
    public var config: String?
    public var looksForConfig = true
    /// Read BASELINE's images from this commit (`GitBaseline`) instead of the work tree.
    public var baselineRef: String?

    /// The reports a review writes, each a path (nil: not written). `-` for `json` or
    /// `markdown` writes that report to standard output (`DiffJob.Event.standardOutput`).
    public struct Reports: Sendable {
        /// The board PNG: baseline | current | diff for each changed pair.
        public var board: String?
        /// Cut the board into pages no taller than this, in pixels.
        public var boardMaxHeight: Int?
        public var json: String?
        public var junit: String?
        /// The HTML page (its diff images, and copies of the images compared, in
        /// `NAME_files/` beside it).
        public var html: String?
        /// The HTML page links the images compared where they are instead of copying them
        /// (`--html-links`: a large local run; the page then does not travel alone).
        public var htmlLinks = false
        public var markdown: String?
        /// Where the HTML report will be published: the Markdown links its diff images there.
        public var linkBase: String?

        public init(
            board: String? = nil, boardMaxHeight: Int? = nil, json: String? = nil, junit: String? = nil, html: String? = nil,
            markdown: String? = nil, linkBase: String? = nil
        ) {
            (self.board, self.boardMaxHeight, self.json, self.junit) = (board, boardMaxHeight, json, junit)
            (self.html, self.markdown, self.linkBase) = (html, markdown, linkBase)
        }

        /// True when a report goes to standard output: lines for people then go to
        /// standard error.
        public var useStandardOutput: Bool { json == "-" || markdown == "-" }
    }

    /// Which baselines to approve: each is replaced by a copy of its current image,
    /// created or deleted, one file at a time (`BaselineApproval`).
    public struct Approval: Sendable {
        /// Changed and added pairs (all of them, or those `names` lists).
        public var changed: Bool
        /// Removed pairs: their baselines deleted.
        public var removed: Bool
        /// Only these pairs, named relative to the baseline as the reports name them.
        public var names: [String]?
        /// Only the pairs listed in this file too (one a line; `-` for standard input).
        public var namesFile: String?

        public init(changed: Bool = true, removed: Bool = false, names: [String]? = nil, namesFile: String? = nil) {
            (self.changed, self.removed, self.names, self.namesFile) = (changed, removed, names, namesFile)
        }
    }

    /// A comparison of `baseline` with `current`.
    public init(
        baseline: String, current: String, options: ComparisonOptions = ComparisonOptions(), tolerance: DiffTolerance = DiffTolerance(),
        reports: Reports = Reports()
    ) {
        self.init(baseline: baseline, current: current, merge: [], options: options, tolerance: tolerance, reports: reports)
    }

    /// The merge of a sharded run's JSON `parts` (`--shard K/N --json FILE`) into the
    /// reports of the whole run.
    public init(merging parts: [String], reports: Reports = Reports()) {
        self.init(baseline: nil, current: nil, merge: parts, options: ComparisonOptions(), tolerance: DiffTolerance(), reports: reports)
    }

    init(baseline: String?, current: String?, merge: [String], options: ComparisonOptions, tolerance: DiffTolerance, reports: Reports) {
        (self.baseline, self.current, self.merge, self.options, self.tolerance, self.reports) = (baseline, current, merge, options, tolerance, reports)
        annotations = false
    }
}
