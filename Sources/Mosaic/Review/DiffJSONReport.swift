import Foundation

/// `mosaic diff --json FILE`: the report as JSON, which a sharded run's merge reads back.
extension DiffReport {
    /// A pair: each name for people, and beside it (`pathBytes`, `baselineBytes`,
    /// `currentBytes`) its exact bytes in base64 when it is not UTF-8 (`ReportedName`).
    /// Read back too: a sharded run's parts are merged from it (`DiffMerge`).
    struct JSONPair: Codable {
        var path: String
        var pathBytes: String?
        var status: String
        var baseline: String?
        var baselineBytes: String?
        var current: String?
        var currentBytes: String?
        /// A failed pair: why an image could not be read.
        var error: String?
        var differingPixels: Int?
        var antialiasedPixels: Int?
        /// The pixels compared (the overlap, less regions ignored) and the overlap's size.
        var comparedPixels: Int?
        var size: Size?
        var fraction: Double?
        var largestDelta: Double?
        var bounds: JSONRect?
        /// The differing pixels' regions, largest first (at most 100; `regionCount` counts
        /// them all).
        var regions: [ChangedRegion]?
        var regionCount: Int?
        /// SSIM mode: the pair's score.
        var ssim: Double?
        /// FLIP mode: the mean of the pair's FLIP map (schema 3).
        var flip: Double?
        /// Aligned comparison (schema 3): the runs of current rows that take consecutive
        /// baseline rows, the pixels that count under `--align`, and the line that says it.
        var alignment: [RowShift]?
        var alignedDifferingPixels: Int?
        var alignmentSummary: String?
        var baselineSize: Size?
        var currentSize: Size?
        /// The per-path rule that compared the pair (schema 4): its place in the config's
        /// list and its glob.
        var rule: JSONRule?
    }

    struct JSONRule: Codable, Hashable {
        var index: Int
        var glob: String
    }

    /// A rectangle as the report's schema writes it: x, y, width, height.
    struct JSONRect: Codable, Hashable {
        var x, y, width, height: Int
        init(_ rect: Rect) { (x, y, width, height) = (rect.minX, rect.minY, rect.width, rect.height) }
        var rect: Rect { Rect(x: x, y: y, width: width, height: height) }
    }

    struct JSONReport<Pair: Encodable>: Encodable {
        var schemaVersion = DiffReport.schemaVersion
        var threshold: Double
        /// "pixelmatch", "ssim" or "flip"; with ssim, the pass threshold.
        var metric: String
        var minSSIM: Double?
        /// SSIM mode: the colour shift that passes; FLIP mode: the region's mean that passes
        /// (schema 3).
        var maxDeltaE: Double?
        var maxFLIP: Double?
        /// Pairs compared aligned and judged so (schema 3); absent when not.
        var align: Bool?
        /// The per-path rules' file and its rules as it gives them (schema 4).
        var config: String?
        var rules: [DiffConfig.Rule]?
        /// The commit the baseline was read from (`--baseline-ref`, schema 4).
        var baselineCommit: String?
        var includeAntialiasing: Bool
        var passes: Bool
        var counts: [String: Int]
        /// The board's pages, when one was written.
        var board: [String]?
        /// A sharded run's part: which shard of which run (`DiffPartRecord`).
        var shard: DiffPartRecord?
        var pairs: [Pair]
    }

    /// The JSON report's `schemaVersion`.
    static let schemaVersion = 4

    /// A pair as the JSON writes it.
    static func jsonPair(_ r: PairResult, rules: [PairRule] = []) -> JSONPair {
        let (path, baseline, current) = (ReportedName(r.relativePath), r.baselinePath.map(ReportedName.init), r.currentPath.map(ReportedName.init))
        return JSONPair(
            path: path.display, pathBytes: path.sourceBytes, status: r.status.rawValue,
            baseline: baseline?.display, baselineBytes: baseline?.sourceBytes, current: current?.display, currentBytes: current?.sourceBytes,
            error: r.error?.description,
            differingPixels: r.difference?.differingPixels, antialiasedPixels: r.difference?.antialiasedPixels,
            comparedPixels: r.difference?.comparedPixels, size: r.difference?.size,
            fraction: r.difference?.fraction, largestDelta: r.difference?.largestDelta, bounds: r.difference?.bounds.map(JSONRect.init),
            regions: r.difference?.regions, regionCount: r.difference?.regionCount, ssim: r.difference?.ssim, flip: r.difference?.flip,
            alignment: r.difference?.alignment, alignedDifferingPixels: r.difference?.alignedDifferingPixels,
            alignmentSummary: r.difference?.alignmentSummary,
            baselineSize: r.difference?.sizeMismatch?.baseline, currentSize: r.difference?.sizeMismatch?.current,
            rule: r.rule.flatMap { $0 < rules.count ? JSONRule(index: $0, glob: rules[$0].glob.pattern) : nil })
    }

    /// The report as JSON (schema 4: schema 3 with each pair's `rule` and the report's
    /// `config` and `rules`, per-path settings; schema 3: schema 2 with each region's `change`, `offset`,
    /// `deltaE` and `flip`, each pair's `flip`, `alignment`, `alignedDifferingPixels` and
    /// `alignmentSummary`, the report's `align`, `maxDeltaE` and `maxFLIP`; schema 2:
    /// schema 1 with each pair's `regions`, `regionCount` and, in SSIM mode, `ssim`; the
    /// report's `metric` and `minSSIM`): thresholds, counts and every pair, worst first.
    ///
    /// - Throws: `OutputError.imageMap` when the encoder fails.
    /// `board`: the board's files, listed when given. `shard`: a sharded run's part says
    /// which shard of which run it is, for `mosaic diff --merge`.
    public func json(board: [String]? = nil, shard: DiffPartRecord? = nil) throws(OutputError) -> Data {
        let results = comparison.results
        return try json(board: board, shard: shard, pairs: reportOrder.map { Self.jsonPair(results[$0], rules: rules) })
    }

    /// The report with `pairs` (in `reportOrder`) as its pairs.
    func json<Pair: Encodable>(board: [String]?, shard: DiffPartRecord?, pairs: [Pair]) throws(OutputError) -> Data {
        let c = comparison
        let report = JSONReport(
            threshold: options.threshold, metric: options.metric.rawValue, minSSIM: options.metric == .ssim ? tolerance.minimumSSIM : nil,
            maxDeltaE: options.metric == .ssim ? tolerance.maximumDeltaE : nil, maxFLIP: options.metric == .flip ? tolerance.maximumFLIP : nil,
            align: options.align ? true : nil, config: config.map { FileNames.display($0.path) }, rules: config?.rules,
            baselineCommit: baselineCommit,
            includeAntialiasing: options.includeAntialiasing, passes: c.passes,
            counts: [
                "changed": c.count(of: .changed), "added": c.count(of: .added), "removed": c.count(of: .removed),
                "unchanged": c.count(of: .unchanged), "withinTolerance": c.count(of: .withinTolerance), "failed": c.count(of: .failed),
            ],
            board: board, shard: shard, pairs: pairs)
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        do {
            return try encoder.encode(report)
        } catch {
            throw .imageMap(message: "\(error)")
        }
    }
}
