import Foundation
@_exported import MosaicDiff

/// Reports of a folder comparison: a board PNG, JSON, JUnit XML.
public struct DiffReport: Sendable {
    /// The pairs compared.
    public let comparison: FolderComparison
    /// How they were compared.
    public let options: ComparisonOptions
    /// How many differing pixels still pass.
    public let tolerance: DiffTolerance

    /// A report of `comparison`.
    public init(comparison: FolderComparison, options: ComparisonOptions, tolerance: DiffTolerance) {
        self.comparison = comparison
        self.options = options
        self.tolerance = tolerance
    }

    /// Changed pairs, worst first (a size mismatch counts as everything differing).
    public var changedBySeverity: [PairResult] {
        let results = comparison.results
        return Array(reportOrder.lazy.map { results[$0] }.prefix { $0.status == .changed })
    }

    func severity(_ result: PairResult) -> Double {
        guard let difference = result.difference else { return 0 }
        return difference.sizeMismatch != nil ? 2 : difference.fraction
    }

    /// One line per pair for people: "changed  a/b.png: 1234 px (0.52%) in 10,20 30x40".
    /// Names as people read them (`FileNames.display`); a terminal writer escapes the rest.
    public func summaryLines() -> [String] {
        var lines: [String] = []
        let name = { (result: PairResult) in FileNames.display(result.relativePath) }
        for result in changedBySeverity { lines.append("changed    \(name(result)): \(figures(result))") }
        for result in comparison.added { lines.append("added      \(name(result))") }
        for result in comparison.removed { lines.append("removed    \(name(result))") }
        for result in comparison.failed { lines.append("failed     \(name(result)): \(result.error?.description ?? "cannot read")") }
        for result in comparison.withinTolerance { lines.append("tolerated  \(name(result)): \(figures(result))") }
        for file in comparison.skippedSpecialFiles { lines.append("skipped    \(FileNames.display(file.path)): \(file.kind), not read") }
        let c = comparison
        let n = c.count(of:)
        var counts = "\(n(.changed)) changed, \(n(.added)) added, \(n(.removed)) removed, \(n(.unchanged)) unchanged"
        if n(.withinTolerance) > 0 { counts += ", \(n(.withinTolerance)) within tolerance" }
        if n(.failed) > 0 { counts += ", \(n(.failed)) failed" }
        lines.append(counts)
        return lines
    }

    /// A changed pair's figures for people: pixels, share, where, largest delta.
    public func figures(_ result: PairResult) -> String {
        guard let d = result.difference else { return "" }
        if let mismatch = d.sizeMismatch {
            return "size \(mismatch.baseline) -> \(mismatch.current); \(d.differingPixels) px differ in the overlap"
        }
        var text = "\(d.differingPixels) px (\(String(format: "%.3f", d.fraction * 100))%)"
        if let box = d.bounds { text += " in \(box.minX),\(box.minY) \(box.width)x\(box.height)" }
        if d.regionCount > 0 { text += ", \(d.regionCount) region\(d.regionCount == 1 ? "" : "s")" }
        if let ssim = d.ssim { text += ", SSIM \(String(format: "%.4f", ssim))" }
        if let lowest = d.lowestRegionSSIM, d.regionCount > 1 { text += " (lowest region \(String(format: "%.4f", lowest)))" }
        text += ", largest delta \(String(format: "%.3f", d.largestDelta))"
        if d.antialiasedPixels > 0 { text += ", \(d.antialiasedPixels) anti-aliased" }
        return text
    }

    // MARK: JSON

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
        var baselineSize: Size?
        var currentSize: Size?
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
        /// "pixelmatch" or "ssim"; with ssim, the pass threshold.
        var metric: String
        var minSSIM: Double?
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
    static let schemaVersion = 2

    /// The pairs in the order the JSON lists them (changed worst first, failed, added,
    /// removed, within the tolerance, unchanged): indices into `comparison.results`.
    var reportOrder: [Int] {
        let results = comparison.results
        func indices(_ status: PairResult.Status) -> [Int] { results.indices.filter { results[$0].status == status } }
        let changed = indices(.changed).sorted { a, b in
            let (x, y) = (results[a], results[b])
            return severity(x) > severity(y) || (severity(x) == severity(y) && FileNames.precedes(x.relativePath, y.relativePath))
        }
        return changed + indices(.failed) + indices(.added) + indices(.removed) + indices(.withinTolerance) + indices(.unchanged)
    }

    /// A pair as the JSON writes it.
    static func jsonPair(_ r: PairResult) -> JSONPair {
        let (path, baseline, current) = (ReportedName(r.relativePath), r.baselinePath.map(ReportedName.init), r.currentPath.map(ReportedName.init))
        return JSONPair(
            path: path.display, pathBytes: path.sourceBytes, status: r.status.rawValue,
            baseline: baseline?.display, baselineBytes: baseline?.sourceBytes, current: current?.display, currentBytes: current?.sourceBytes,
            error: r.error?.description,
            differingPixels: r.difference?.differingPixels, antialiasedPixels: r.difference?.antialiasedPixels,
            comparedPixels: r.difference?.comparedPixels, size: r.difference?.size,
            fraction: r.difference?.fraction, largestDelta: r.difference?.largestDelta, bounds: r.difference?.bounds.map(JSONRect.init),
            regions: r.difference?.regions, regionCount: r.difference?.regionCount, ssim: r.difference?.ssim,
            baselineSize: r.difference?.sizeMismatch?.baseline, currentSize: r.difference?.sizeMismatch?.current)
    }

    /// The report as JSON (schema 2: schema 1 with each pair's `regions`, `regionCount` and,
    /// in SSIM mode, `ssim`; the report's `metric` and `minSSIM`): thresholds, counts and
    /// every pair, worst first.
    ///
    /// - Throws: `SheetError.imageMap` when the encoder fails.
    /// `board`: the board's files, listed when given. `shard`: a sharded run's part says
    /// which shard of which run it is, for `mosaic diff --merge`.
    public func json(board: [String]? = nil, shard: DiffPartRecord? = nil) throws(SheetError) -> Data {
        let results = comparison.results
        return try json(board: board, shard: shard, pairs: reportOrder.map { Self.jsonPair(results[$0]) })
    }

    /// The report with `pairs` (in `reportOrder`) as its pairs.
    func json<Pair: Encodable>(board: [String]?, shard: DiffPartRecord?, pairs: [Pair]) throws(SheetError) -> Data {
        let c = comparison
        let report = JSONReport(
            threshold: options.threshold, metric: options.metric.rawValue, minSSIM: options.metric == .ssim ? tolerance.minimumSSIM : nil,
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

    // MARK: JUnit

    /// `text` as XML 1.0 attribute or element text: the markup characters as entities, and
    /// the characters XML 1.0 cannot hold at all (control characters but tab, newline and
    /// carriage return; U+FFFE, U+FFFF) written as `\u{1B}` so that the file stays valid
    /// and the name readable.
    static func xmlAttribute(_ text: String) -> String {
        var out = ""
        for scalar in FileNames.display(text).unicodeScalars {
            switch scalar {
            case "&": out += "&amp;"
            case "<": out += "&lt;"
            case ">": out += "&gt;"
            case "\"": out += "&quot;"
            case "\t", "\n", "\r": out += "&#\(scalar.value);"
            case "\u{0}"..."\u{1F}", "\u{FFFE}", "\u{FFFF}": out += "\\u{" + String(scalar.value, radix: 16, uppercase: true) + "}"
            default: out.unicodeScalars.append(scalar)
            }
        }
        return out
    }

    /// A JUnit XML report: one test case per pair, a failure for each changed, added or
    /// removed one, an error for each that could not be read.
    public func junit() -> String {
        let escape = Self.xmlAttribute
        let results = comparison.results
        let errors = results.filter { $0.status == .failed }.count
        let failures = results.filter { !($0.status == .unchanged || $0.status == .withinTolerance) }.count - errors
        var xml = "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
        xml += "<testsuites tests=\"\(results.count)\" failures=\"\(failures)\" errors=\"\(errors)\">\n"
        xml += "  <testsuite name=\"mosaic diff\" tests=\"\(results.count)\" failures=\"\(failures)\" errors=\"\(errors)\">\n"
        for r in results {
            xml += "    <testcase classname=\"mosaic.diff\" name=\"\(escape(r.relativePath))\""
            switch r.status {
            case .unchanged: xml += "/>\n"
            case .withinTolerance: xml += ">\n      <system-out>\(escape("within tolerance: " + figures(r)))</system-out>\n    </testcase>\n"
            case .changed:
                xml += ">\n      <failure message=\"\(escape("changed: " + figures(r)))\"/>\n    </testcase>\n"
            case .added: xml += ">\n      <failure message=\"added: no baseline\"/>\n    </testcase>\n"
            case .removed: xml += ">\n      <failure message=\"removed: no current image\"/>\n    </testcase>\n"
            case .failed:
                xml += ">\n      <error message=\"\(escape(r.error?.description ?? "cannot read"))\"/>\n    </testcase>\n"
            }
        }
        xml += "  </testsuite>\n</testsuites>\n"
        return xml
    }
}
