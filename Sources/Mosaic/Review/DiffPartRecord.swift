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
                return DiffImages.File(path: name.display, pathBytes: name.sourceBytes, file: (file as NSString).lastPathComponent)
            }
            self.diffImages = DiffImages(folder: folder, files: files)
        }
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
        return nil
    }
}
