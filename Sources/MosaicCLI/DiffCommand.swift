import ArgumentParser
import Foundation
import Mosaic

/// `mosaic diff BASELINE CURRENT`: visual regression between two images or two folders.
/// It parses into a `DiffRequest`, runs the `DiffJob` and reports.
struct DiffCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "diff",
        abstract: "Compare two images or two folders of images (matched by relative path).",
        discussion: """
            Reports are written beside their destination and renamed into place; none replaces an image compared. \
            A run split over machines: each runs --shard K/N --json part-K.json, then --merge part-*.json writes the whole run's reports. \
            --accept and its kin write into BASELINE (the only time mosaic changes an input), one file at a time. \
            Exit status: 0 when every pair matches (or passes the tolerance), 1 when not (or pairs were added, removed or unreadable), \
            2 when the comparison could not be made or reported, 64 for a usage error.
            """)

    @Argument(help: "The baseline image or folder.")
    var baseline: String?
    @Argument(help: "The current image or folder.")
    var current: String?
    @OptionGroup(title: "Comparison") var comparison: DiffComparisonArguments
    @OptionGroup(title: "Tolerance") var tolerance: DiffToleranceArguments
    @OptionGroup(title: "Reports") var reports: DiffReportArguments
    @OptionGroup(title: "Approval") var approval: DiffApprovalArguments
    @OptionGroup(title: "Shards") var shards: DiffShardArguments
    @Flag(name: [.short, .long], help: "Print nothing but errors.")
    var quiet = false

    func validate() throws {
        if shards.merge.isEmpty {
            guard baseline != nil else { throw ValidationError("Missing expected argument '<baseline>'") }
            guard current != nil else { throw ValidationError("Missing expected argument '<current>'") }
        } else {
            if baseline != nil || current != nil { throw ValidationError("--merge reads the parts only: the parts name the baseline and the current folders") }
            let (c, t, r, a) = (comparison, tolerance, reports, approval)
            let given = [
                ("--shard", shards.shard != nil), ("--output", r.output != nil), ("--max-height", r.maxHeight != nil), ("--jobs", shards.jobs != nil),
                ("--threshold", c.threshold != 0.1), ("--include-aa", c.includeAntialiasing), ("--max-diff-pixels", t.maxDiffPixels != nil),
                ("--max-diff-ratio", t.maxDiffRatio != nil), ("--ignore", !c.ignore.isEmpty), ("--accept", a.accept), ("--accept-removed", a.acceptRemoved),
                ("--accept-only", !a.acceptOnly.isEmpty), ("--accept-from", a.acceptFrom != nil), ("--align", c.align),
                ("--max-delta-e", t.maxDeltaE != nil), ("--max-flip", t.maxFLIP != nil), ("--config", c.config != nil), ("--baseline-ref", c.baselineRef != nil),
            ]
            if let (option, _) = given.first(where: \.1) {
                throw ValidationError("\(option) does not go with --merge: the parts say how the pairs were compared (a board needs the images and approving the folders: run them with the shards or a whole run)")
            }
        }
        if comparison.baselineRef != nil && reports.htmlLinks {
            throw ValidationError("--html-links links the images where they are, and a baseline read with --baseline-ref is in git only: drop --html-links")
        }
        if shards.shard != nil && reports.json == nil { throw ValidationError("--shard compares a part of the pairs: give --json FILE for the part that 'mosaic diff --merge' reads") }
        if tolerance.minSSIM != nil && comparison.metric != .ssim { throw ValidationError("--min-ssim is the SSIM metric's threshold: give --metric ssim") }
        if comparison.metric == .ssim && (tolerance.maxDiffPixels != nil || tolerance.maxDiffRatio != nil) {
            throw ValidationError("--metric ssim passes pairs by their score (--min-ssim), not by --max-diff-pixels or --max-diff-ratio")
        }
        if tolerance.maxDeltaE != nil && comparison.metric != .ssim { throw ValidationError("--max-delta-e is the SSIM metric's colour check: give --metric ssim") }
        if tolerance.maxFLIP != nil && comparison.metric != .flip { throw ValidationError("--max-flip is the FLIP metric's threshold: give --metric flip") }
        if comparison.metric == .flip && (tolerance.maxDiffPixels != nil || tolerance.maxDiffRatio != nil) {
            throw ValidationError("--metric flip passes pairs by their regions' FLIP (--max-flip), not by --max-diff-pixels or --max-diff-ratio")
        }
    }

    /// The review the options ask for.
    func request() throws -> DiffRequest {
        var request = DiffRequest(merging: shards.merge, reports: reports.reports)
        if shards.merge.isEmpty {
            request = DiffRequest(
                baseline: baseline ?? "", current: current ?? "", options: try comparison.options, tolerance: tolerance.tolerance, reports: reports.reports)
        }
        request.config = comparison.config
        request.baselineRef = comparison.baselineRef
        request.jobs = shards.jobs
        request.shard = try shards.diffShard
        request.approval = approval.approval
        request.annotations = GitHubAnnotations.enabled(in: ProcessInfo.processInfo.environment)
        return request
    }

    func run() throws {
        let job = DiffJob(request: try request())
        // With a report on standard output, lines for people go to standard error.
        let say: (String) throws -> Void = job.request.reports.useStandardOutput ? { printError($0) } : { try Terminal.print($0) }
        do {
            let result = try job.run { event in
                switch event {
                case .board(let sheet, let files): if !quiet { warnOfLargePages(sheet, files: files) }
                case .summary(let lines): if !quiet { try lines.forEach(say) }
                case .annotations(let lines): try lines.forEach(say)
                case .approved(let line): if !quiet { try say(line) }
                case .standardOutput(let data): try Terminal.writeOutput(data)
                case .warning(let line): printError("warning: \(line)")
                }
            }
            if !result.passes { throw ExitCode(1) }
        } catch let error as GitBaselineError {
            printError("error: \(error)")
            throw ExitCode(2)
        } catch let error as DiffConfigError {
            printError("error: \(error)")
            throw ExitCode(64)
        } catch let error as ApprovalError {
            printError("error: \(error)")
            throw ExitCode(error.isUsage ? 64 : 2)
        } catch let error as ExitCode {
            throw error
        } catch {
            printError("error: \(error)")
            throw ExitCode(2)
        }
    }
}
