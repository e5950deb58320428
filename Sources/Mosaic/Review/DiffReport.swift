import Foundation
@_exported import MosaicDiff

/// A folder comparison as its reports see it: the pairs, how they were compared, and their
/// figures and summary for people. Each report is a file of its own beside this one
/// (JSON, JUnit, board, HTML, Markdown, annotations).
public struct DiffReport: Sendable {
    /// The pairs compared.
    public let comparison: FolderComparison
    /// How they were compared.
    public let options: ComparisonOptions
    /// How many differing pixels still pass.
    public let tolerance: DiffTolerance
    /// The per-path rules the pairs were compared by (`DiffConfig`; a pair's `rule`
    /// indexes them), and the file they came from.
    public var rules: [PairRule] = []
    public var config: DiffConfig?
    /// The commit the baseline was read from (`--baseline-ref`), when it was.
    public var baselineCommit: String?

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
    /// Aligned (`--align`): what changed first ("40 px inserted at y 0; 2 regions changed"),
    /// then the exact figures of the unaligned comparison.
    public func figures(_ result: PairResult) -> String {
        guard let d = result.difference else { return "" }
        if let summary = d.alignmentSummary {
            var text = summary + " (\(d.alignedDifferingPixels ?? 0) px counted aligned, \(d.differingPixels) px differ unaligned)"
            if let ssim = d.ssim { text += ", SSIM \(String(format: "%.4f", ssim))" }
            if let deltaE = d.largestRegionDeltaE { text += ", largest colour shift \(String(format: "%.1f", deltaE)) (CIEDE2000)" }
            if let flip = d.flip { text += ", FLIP \(String(format: "%.4f", flip)) (largest region \(String(format: "%.3f", d.largestRegionFLIP ?? 0)))" }
            return text
        }
        if let mismatch = d.sizeMismatch {
            return "size \(mismatch.baseline) -> \(mismatch.current); \(d.differingPixels) px differ in the overlap"
        }
        var text = "\(d.differingPixels) px (\(String(format: "%.3f", d.fraction * 100))%)"
        if let box = d.bounds { text += " in \(box.minX),\(box.minY) \(box.width)x\(box.height)" }
        if d.regionCount > 0 { text += ", \(d.regionCount) region\(d.regionCount == 1 ? "" : "s")" }
        if let ssim = d.ssim { text += ", SSIM \(String(format: "%.4f", ssim))" }
        if let lowest = d.lowestRegionSSIM, d.regionCount > 1 { text += " (lowest region \(String(format: "%.4f", lowest)))" }
        if let deltaE = d.largestRegionDeltaE { text += ", largest colour shift \(String(format: "%.1f", deltaE)) (CIEDE2000)" }
        if let flip = d.flip { text += ", FLIP \(String(format: "%.4f", flip)) (largest region \(String(format: "%.3f", d.largestRegionFLIP ?? 0)))" }
        text += ", largest delta \(String(format: "%.3f", d.largestDelta))"
        if d.antialiasedPixels > 0 { text += ", \(d.antialiasedPixels) anti-aliased" }
        return text
    }

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
}
