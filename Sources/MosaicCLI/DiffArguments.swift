import ArgumentParser
import Foundation
import Mosaic

extension DiffMetric: ExpressibleByArgument {}

/// `mosaic diff`: how pixels are compared.
struct DiffComparisonArguments: ParsableArguments {
    @Option(parsing: .unconditional, help: "Colour difference threshold, 0 to 1 (smaller is more sensitive).")
    var threshold = 0.1
    @Flag(name: .customLong("include-aa"), help: "Count anti-aliased pixels as differences too.")
    var includeAntialiasing = false
    @Option(help: ArgumentHelp(
        "How a pair passes: differing pixels (exact), SSIM and colour, or FLIP per region.",
        valueName: "pixelmatch|ssim|flip"))
    var metric: DiffMetric = .pixelmatch
    @Flag(help: "Find the bands inserted or deleted and the blocks moved in a pair that differs, and judge it by what changed.")
    var align = false
    @Option(help: ArgumentHelp("Leave a rectangle out (repeatable).", valueName: "x,y,w,h"))
    var ignore: [String] = []
    @Option(help: ArgumentHelp("Read BASELINE from this commit (branch, tag, origin/main, merge-base:BRANCH) through git.", valueName: "ref"))
    var baselineRef: String?
    @Option(help: ArgumentHelp("Per-path rules (JSON; default: mosaic-diff.json beside BASELINE when there).", valueName: "file"))
    var config: String?

    func validate() throws {
        guard threshold.isFinite, (0...1).contains(threshold) else { throw ValidationError("--threshold must be between 0 and 1, got \(threshold)") }
        _ = try regions()
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

    var options: ComparisonOptions {
        get throws {
            var options = ComparisonOptions(threshold: threshold, includeAntialiasing: includeAntialiasing, ignoreRegions: try regions(), metric: metric)
            options.align = align
            return options
        }
    }
}

/// `mosaic diff`: when a pair that differs still passes.
struct DiffToleranceArguments: ParsableArguments {
    @Option(parsing: .unconditional, help: "Pairs with at most this many differing pixels pass.")
    var maxDiffPixels: Int?
    @Option(parsing: .unconditional, help: "Pairs with at most this fraction (0 to 1) of differing pixels pass.")
    var maxDiffRatio: Double?
    @Option(parsing: .unconditional, help: "With --metric ssim: the lowest score that passes, 0 to 1 (default 0.99).")
    var minSSIM: Double?
    @Option(parsing: .unconditional, help: "With --metric ssim: the largest colour shift of a region that passes, CIEDE2000 (default 2).")
    var maxDeltaE: Double?
    @Option(parsing: .unconditional, help: "With --metric flip: the largest mean FLIP of a region that passes, 0 to 1 (default 0.05).")
    var maxFLIP: Double?

    func validate() throws {
        if maxDiffPixels != nil && maxDiffRatio != nil { throw ValidationError("give --max-diff-pixels or --max-diff-ratio, not both") }
        if let maxDiffPixels, maxDiffPixels < 0 { throw ValidationError("--max-diff-pixels must not be negative, got \(maxDiffPixels)") }
        if let maxDiffRatio, !(maxDiffRatio.isFinite && (0...1).contains(maxDiffRatio)) { throw ValidationError("--max-diff-ratio must be between 0 and 1, got \(maxDiffRatio)") }
        if let minSSIM, !(minSSIM.isFinite && (0...1).contains(minSSIM)) { throw ValidationError("--min-ssim must be between 0 and 1, got \(minSSIM)") }
        if let maxDeltaE, !(maxDeltaE.isFinite && maxDeltaE >= 0) { throw ValidationError("--max-delta-e must be 0 or more, got \(maxDeltaE)") }
        if let maxFLIP, !(maxFLIP.isFinite && (0...1).contains(maxFLIP)) { throw ValidationError("--max-flip must be between 0 and 1, got \(maxFLIP)") }
    }

    var tolerance: DiffTolerance {
        var tolerance = DiffTolerance(maximumPixels: maxDiffPixels ?? 0, maximumFraction: maxDiffRatio)
        if let minSSIM { tolerance.minimumSSIM = minSSIM }
        if let maxDeltaE { tolerance.maximumDeltaE = maxDeltaE }
        if let maxFLIP { tolerance.maximumFLIP = maxFLIP }
        return tolerance
    }
}

/// `mosaic diff`: the reports written.
struct DiffReportArguments: ParsableArguments {
    @Option(name: [.short, .long], help: "Write a board PNG: baseline | current | diff for each changed pair.")
    var output: String?
    @Option(parsing: .unconditional, help: "Cut the board into pages no taller than this (NAME-1.png, NAME-2.png, ...).")
    var maxHeight: Int?
    @Option(help: ArgumentHelp("Write a JSON report to FILE, or - for standard output.", valueName: "file"))
    var json: String?
    @Option(help: ArgumentHelp("Write a JUnit XML report to FILE.", valueName: "file"))
    var junit: String?
    @Option(help: ArgumentHelp("Write an HTML report to FILE (.html), its images in FILE_files/ beside it: the two travel alone.", valueName: "file"))
    var html: String?
    @Flag(name: .customLong("html-links"), help: "With --html: link the images compared where they are instead of copying them in.")
    var htmlLinks = false
    @Option(help: ArgumentHelp("Write a GitHub Flavored Markdown summary to FILE, or - for standard output.", valueName: "file"))
    var markdown: String?
    @Option(help: ArgumentHelp("With --markdown and --html: link the diff images as URL/NAME_files/00001.png.", valueName: "url"))
    var linkBase: String?

    func validate() throws {
        try SheetArguments.checkOutputNames([("--output", output), ("--json", json), ("--junit", junit), ("--html", html), ("--markdown", markdown)])
        if json == "-" && markdown == "-" { throw ValidationError("--json and --markdown cannot both go to standard output") }
        if htmlLinks && html == nil { throw ValidationError("--html-links says how --html shows the images compared: give --html FILE") }
        if linkBase != nil && (markdown == nil || html == nil) { throw ValidationError("--link-base sets where --markdown links the diff images of --html: give both") }
        if let maxHeight, maxHeight < 100 || maxHeight > 100_000 { throw ValidationError("--max-height must be between 100 and 100000, got \(maxHeight)") }
        if maxHeight != nil && output == nil { throw ValidationError("--max-height cuts the board into pages: give the board with -o") }
        if let output, !output.lowercased().hasSuffix(".png") { throw ValidationError("--output: the board is a PNG; \"\(output)\" does not end in .png") }
        if let html, !(html.lowercased().hasSuffix(".html") || html.lowercased().hasSuffix(".htm")) {
            throw ValidationError("--html: the report is a page; \"\(html)\" does not end in .html")
        }
    }

    var reports: DiffRequest.Reports {
        var reports = DiffRequest.Reports(board: output, boardMaxHeight: maxHeight, json: json, junit: junit, html: html, markdown: markdown, linkBase: linkBase)
        reports.htmlLinks = htmlLinks
        return reports
    }
}

/// `mosaic diff`: the baselines approved (the one time mosaic writes into an input).
struct DiffApprovalArguments: ParsableArguments {
    @Flag(help: "Replace each changed baseline with its current image and create the added ones.")
    var accept = false
    @Flag(help: "Delete the baselines of removed pairs.")
    var acceptRemoved = false
    @Option(help: ArgumentHelp("Approve only this pair (repeatable), named as the reports name it; implies --accept.", valueName: "path"))
    var acceptOnly: [String] = []
    @Option(help: ArgumentHelp("Approve only the pairs listed in FILE (one a line; - for standard input); implies --accept.", valueName: "file"))
    var acceptFrom: String?

    var approval: DiffRequest.Approval? {
        guard accept || acceptRemoved || !acceptOnly.isEmpty || acceptFrom != nil else { return nil }
        return DiffRequest.Approval(changed: accept, removed: acceptRemoved, names: acceptOnly.isEmpty ? nil : acceptOnly, namesFile: acceptFrom)
    }
}

/// `mosaic diff`: the work, split over processes or machines.
struct DiffShardArguments: ParsableArguments {
    @Option(parsing: .unconditional, help: "Pairs compared at once (default: the number of cores).")
    var jobs: Int?
    @Option(parsing: .unconditional, help: ArgumentHelp("Compare part K of N of the pairs (K from 0); its --json is the part --merge reads.", valueName: "K/N"))
    var shard: String?
    @Option(parsing: .upToNextOption, help: ArgumentHelp("Write the reports of a sharded run from every shard's --json part.", valueName: "part"))
    var merge: [String] = []

    func validate() throws {
        if let shard { _ = try ShardArgument.parse(shard) }
        if let jobs, jobs < 1 || jobs > 256 { throw ValidationError("--jobs must be between 1 and 256, got \(jobs)") }
    }

    var diffShard: DiffShard? {
        get throws { try shard.map { let (index, count) = try ShardArgument.parse($0); return DiffShard(index: index, count: count) } }
    }
}
