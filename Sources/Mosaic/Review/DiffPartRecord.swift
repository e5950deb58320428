import Foundation

/// What a sharded run's JSON part holds beyond the report, as its `"shard"` object: which
/// shard of which run it is (the folders compared, how, the pairs of the whole run), the
/// special files skipped, and where the part's diff images are when the shard wrote an
/// HTML report. `mosaic diff --merge` reads it; a run in one piece writes none.
public struct DiffPartRecord: Codable, Hashable, Sendable {
    /// From 0.
    public var index: Int
    public var count: Int
    /// The baseline and current as the shard was given them (bytes when not UTF-8).
    var baseline: String
    var baselineBytes: String?
    var current: String
    var currentBytes: String?
    var maxDiffPixels: Int
    var maxDiffRatio: Double?
    var ignore: [DiffReport.JSONRect]
    /// The pairs of the whole run (every shard's).
    var pairsInRun: Int
    /// The special files skipped (every shard lists them all).
    var skipped: [Skipped]
    /// With `--html`: the part's diff images.
    var diffImages: DiffImages?
    /// The per-path rules' file (as named) and its rules, when the run read one: the
    /// merge judges each pair by its rule.
    var config: String?
    var rules: [DiffConfig.Rule]?
    /// What makes the run this one: parts whose fingerprints differ are of different runs.
    /// Optional only to name a part written without one (by an older mosaic) as such.
    var fingerprint: Fingerprint?

    /// A run's identity: the pairs dealt and the bytes of their files, every option, and
    /// (slots kept for the review config and a baseline read from git) the config file's
    /// digest and the baseline's commit.
    struct Fingerprint: Codable, Hashable, Sendable {
        /// The CRC-64 (16 hexadecimal digits) of the pairs dealt and their files' digests
        /// (`FolderComparison.pairsDigest`).
        var pairs: String
        /// The CRC-64 of every comparison option and the tolerance, as text
        /// (`optionsText`): the diff images' colours too.
        var options: String
        /// The CRC-64 of the config file the run read (`DiffConfig.digest`).
        var config: String?
        /// The commit the baseline was read from (`--baseline-ref`).
        var baselineCommit: String?
    }

    /// Every option of a comparison and its tolerance, as the fingerprint digests them.
    static func optionsText(_ options: ComparisonOptions, _ tolerance: DiffTolerance) -> String {
        let color = { (c: RGBA) in "\(c.red),\(c.green),\(c.blue),\(c.alpha)" }
        let ignore = options.ignoreRegions.map { "\($0.minX),\($0.minY),\($0.width),\($0.height)" }.joined(separator: ";")
        return [
            "threshold=\(options.threshold)", "includeAntialiasing=\(options.includeAntialiasing)", "ignore=\(ignore)",
            "fade=\(options.fade)", "diffColor=\(color(options.diffColor))", "antialiasingColor=\(color(options.antialiasingColor))",
            "maskOnly=\(options.maskOnly)", "metric=\(options.metric.rawValue)", "maximumPixels=\(tolerance.maximumPixels)",
            "maximumFraction=\(tolerance.maximumFraction.map { "\($0)" } ?? "none")", "minimumSSIM=\(tolerance.minimumSSIM)",
        ].joined(separator: "\n")
    }

    struct Skipped: Codable, Hashable, Sendable {
        var path: String
        var pathBytes: String?
        var kind: String
    }

    /// The folder of a shard's HTML report's diff images, relative to the part's own
    /// folder, and each pair's file in it.
    struct DiffImages: Codable, Hashable, Sendable {
        var folder: String
        var files: [File]

        struct File: Codable, Hashable, Sendable {
            var path: String
            var pathBytes: String?
            var file: String
            /// The CRC-64 of the image the shard wrote: the merge copies that file only.
            var digest: String?
        }
    }

    /// The record of `report`, shard `shard` of the comparison of `baseline` with
    /// `current`, to be written to `json` (a file, or `-`). `diffImages`: the folder of
    /// the shard's HTML report's images, when it writes one (its pairs' `diffImagePath`
    /// name their files).
    public init(shard: DiffShard, baseline: String, current: String, report: DiffReport, json: String, diffImages: String?) {
        index = shard.index
        count = shard.count
        let (b, c) = (ReportedName(baseline), ReportedName(current))
        (self.baseline, baselineBytes, self.current, currentBytes) = (b.display, b.sourceBytes, c.display, c.sourceBytes)
        maxDiffPixels = report.tolerance.maximumPixels
        maxDiffRatio = report.tolerance.maximumFraction
        ignore = report.options.ignoreRegions.map(DiffReport.JSONRect.init)
        pairsInRun = report.comparison.pairsInRun ?? report.comparison.results.count
        skipped = report.comparison.skippedSpecialFiles.map { file in
            let name = ReportedName(file.path)
            return Skipped(path: name.display, pathBytes: name.sourceBytes, kind: file.kind)
        }
        if let diffImages {
            let jsonFolder = json == "-" ? "." : (json as NSString).deletingLastPathComponent
            let from = OutputCheck.resolved(jsonFolder.isEmpty ? "." : jsonFolder)
            let folder = WebText.relativeComponents(from: from, to: OutputCheck.resolved(diffImages)).joined(separator: "/")
            let files = report.comparison.results.compactMap { r -> DiffImages.File? in
                guard let file = r.diffImagePath else { return nil }
                let name = ReportedName(r.relativePath)
                // Where the page put it (its staging folder renamed into place).
                let placed = (file as NSString).lastPathComponent
                let digest = (try? ContentDigest.ofFile(diffImages + "/" + placed)).map { CRC64.hex($0.crc64) }
                return DiffImages.File(path: name.display, pathBytes: name.sourceBytes, file: placed, digest: digest)
            }
            self.diffImages = DiffImages(folder: folder, files: files)
        }
        let optionsText = Array(Self.optionsText(report.options, report.tolerance).utf8)
        fingerprint = Fingerprint(
            pairs: CRC64.hex(report.comparison.pairsDigest ?? 0), options: CRC64.hex(optionsText.withUnsafeBytes { CRC64.checksum($0) }),
            config: report.config?.digest, baselineCommit: report.baselineCommit)
        (config, rules) = (report.config.map { FileNames.display($0.path) }, report.config?.rules)
    }

    /// What differs between this part's run and `other`'s, for the message; nil when they
    /// are parts of the same run.
    func runDifference(from other: DiffPartRecord) -> String? {
        if count != other.count { return "the number of shards (\(count) and \(other.count))" }
        if baseline != other.baseline || baselineBytes != other.baselineBytes { return "the baseline (\(baseline) and \(other.baseline))" }
        if current != other.current || currentBytes != other.currentBytes { return "the current images (\(current) and \(other.current))" }
        if maxDiffPixels != other.maxDiffPixels || maxDiffRatio != other.maxDiffRatio { return "the tolerance (--max-diff-pixels, --max-diff-ratio)" }
        if ignore != other.ignore { return "the regions ignored (--ignore)" }
        if pairsInRun != other.pairsInRun { return "the pairs found (\(pairsInRun) and \(other.pairsInRun)): the folders differed between the shards" }
        if skipped != other.skipped { return "the special files skipped: the folders differed between the shards" }
        if fingerprint?.options != other.fingerprint?.options { return "the comparison options (the diff images' colours, --fade, the tolerance)" }
        if fingerprint?.config != other.fingerprint?.config { return "the review config files" }
        if fingerprint?.baselineCommit != other.fingerprint?.baselineCommit { return "the baseline commits" }
        if fingerprint?.pairs != other.fingerprint?.pairs {
            return "the bytes of the images compared (a part of another run, or files changed while the shards ran)"
        }
        return nil
    }
}
