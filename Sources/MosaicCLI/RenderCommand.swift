import ArgumentParser
import Foundation
import Mosaic

/// `mosaic render`: a contact sheet as PNG.
struct RenderCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "render",
        abstract: "Render a contact sheet of images (masonry, grid or justified rows) as PNG, or as a zoomable tile pyramid with a viewer.",
        discussion: "Exit status: 0 when the sheet is written (inputs that could not be read become placeholder cards and are named), 1 when it is not (no images, every input failed, --strict and a failed input, an output that would replace an input), 64 for a usage error (a bad option).")

    @OptionGroup(title: "Inputs") var input: InputArguments
    @OptionGroup(title: "Layout") var layout: LayoutArguments
    @OptionGroup(title: "Captions and text") var text: TextArguments
    @OptionGroup(title: "Colours and cards") var look: LookArguments
    @OptionGroup(title: "Pixels and work") var work: WorkArguments
    @OptionGroup(title: "Output formats and tile pyramids") var pyramid: PyramidArguments

    @Option(name: [.short, .long], help: ArgumentHelp("The PNG to write (pages: NAME-1.png, NAME-2.png, ...), a NAME.dzi pyramid, or the folder of a IIIF one. Default: sheet.png, which replaces only a sheet mosaic wrote.", valueName: "file"))
    var output: String?

    /// Everything the option groups say, as the library's options.
    var options: SheetOptions { SheetArguments.options(input: input, layout: layout, text: text, look: look, work: work) }

    /// Where the sheet goes.
    var destination: String { output ?? "sheet.png" }
    /// `-o -`: the PNG goes to standard output (written to a temporary file first, so that
    /// a failed run sends nothing).
    var toStandardOutput: Bool { output == "-" }
    /// The file the PNG sink writes.
    var sinkDestination: String { toStandardOutput ? NSTemporaryDirectory() + "mosaic-stdout-\(getpid()).png" : destination }

    @Option(help: ArgumentHelp("Also write the layout as a JSON image map to FILE, or - for standard output.", valueName: "file"))
    var json: String?

    @Flag(inversion: .prefixedNo, help: "Show a progress bar on standard error (default: when it is a terminal).")
    var progress: Bool?

    @Flag(name: [.short, .long], help: "Print nothing but errors.")
    var quiet = false

    /// What the board is written as.
    var outputFormat: PyramidArguments.OutputFormat { pyramid.resolvedFormat(destination: destination) }

    func validate() throws {
        if toStandardOutput {
            if json == "-" { throw ValidationError("--output - and --json - would both write to standard output") }
            if outputFormat != .png { throw ValidationError("--output - writes one PNG; a pyramid needs a name") }
            return
        }
        switch outputFormat {
        case .png:
            guard destination.lowercased().hasSuffix(".png") else {
                throw ValidationError("--output: \"\(destination)\" does not end in .png (or .dzi for a Deep Zoom pyramid; --format iiif for a IIIF folder)")
            }
        case .dzi:
            guard destination.lowercased().hasSuffix(".dzi") else { throw ValidationError("--format dzi: the output names the descriptor, NAME.dzi; got \"\(destination)\"") }
        case .iiif:
            if destination.lowercased().hasSuffix(".png") || destination.lowercased().hasSuffix(".dzi") {
                throw ValidationError("--format iiif: the output names a folder; got \"\(destination)\"")
            }
        }
        if pyramid.shard != nil, outputFormat == .png { throw ValidationError("--shard renders part of a tile pyramid: name one with -o NAME.dzi or --format iiif") }
        if pyramid.shard != nil, json != nil { throw ValidationError("--shard and --json: write the map with mosaic layout, or in the run without --shard") }
        if outputFormat != .png, layout.maxHeight != nil || layout.maxWidth != nil {
            throw ValidationError("a tile pyramid shows the whole board, one page: drop \(layout.maxHeight != nil ? "--max-height" : "--max-width")")
        }
    }

    func run() throws {
        let options = self.options
        let started = Date()
        try reportingErrors {
            // Before any work: the outputs are no folders, no inputs named on the command
            // line, and not each other.
            try outputCheck(pages: toStandardOutput ? [] : [destination], ownSheets: [], catalog: nil).check()
            let (contactSheet, warned) = try makeSheet(options)
            // The sheet's copy (its entries in a temporary file): the catalog read is gone.
            let catalog = contactSheet.catalog
            if !quiet {
                let flag = options.direction == .vertical ? "--max-height" : "--max-width"
                for clamped in contactSheet.clampedSpans {
                    printError("warning: \(FileNames.display(clamped.source)) spans \(clamped.span) columns; its section has \(clamped.columns): it spans them all")
                }
                for page in contactSheet.oversizedPages {
                    let what = page.source.map { "\(FileNames.display($0)) is" } ?? "an element is"
                    printError("warning: page \(page.page + 1) is \(page.length) px long, over \(flag) \(page.maximum): \(what) longer than a page (drawn whole)")
                }
            }
            if outputFormat != .png {
                try renderPyramid(contactSheet, catalog: catalog, warned: warned, started: started)
                return
            }
            // Before drawing: every page and the map against every file read.
            let pages = try pagePaths(contactSheet)
            if !quiet { warnOfLargePages(contactSheet, files: toStandardOutput ? ["the sheet"] : pages) }
            // Pages already there that mosaic wrote (read once: their PNG text says so).
            let ownSheets = Set(pages.filter(PNGSink.isMosaicSheet))
            try outputCheck(pages: pages, ownSheets: ownSheets, catalog: catalog).check()
            if output == nil, let foreign = pages.first(where: { FileManager.default.fileExists(atPath: $0) && !ownSheets.contains($0) }) {
                throw SheetError.wouldReplaceAForeignFile(path: foreign)
            }
            let bar = ProgressBar(enabled: !quiet && (progress ?? (isatty(2) == 1)))
            let sink = PNGSink(destination: sinkDestination, compressionLevel: options.compressionLevel, limits: options.limits, threads: options.jobs)
            var summary = try SheetRenderer(sheet: contactSheet).render(into: sink, commit: false) { bar.update($0) }
            summary.files = toStandardOutput ? ["standard output"] : pages
            bar.finish()
            if summary.rendered == 0 && !summary.failures.isEmpty {
                // A sheet of placeholders helps nobody: say so and keep the previous one.
                sink.abandon()
                if !quiet { for failure in summary.failures where !warned.contains(failure) { printError("warning: \(failure)") } }
                throw SheetError.everyInputFailed(count: summary.failures.count)
            }
            try commit(sink) { stream throws(SheetError) in
                try contactSheet.writeImageMap(to: stream, output: toStandardOutput ? nil : destination, problems: summary.failures)
            }
            if !quiet {
                report(
                    summary, catalog: catalog, written: Self.pages(summary.files, sheet: contactSheet), alreadyWarned: warned,
                    seconds: Date().timeIntervalSince(started))
            }
        }
    }

    /// The inputs read, their problems named, laid out; and the problems already named. The
    /// catalog read is not kept: the sheet keeps its own, out of memory.
    func makeSheet(_ options: SheetOptions) throws -> (ContactSheet, Set<CardProblem>) {
        let decoder = ImageDecoder(limits: options.limits, strict: options.strict)
        let catalog = try input.catalog(decoder: decoder, output: destination, jobs: options.jobs)
        let probeProblems = catalog.allEntries.compactMap(\.problem)
        if !quiet {
            for folder in catalog.unreadableFolders { printError("warning: \(folder) (left out)") }
            if !options.strict { for problem in probeProblems { printError("warning: \(problem)") } }
        }
        let typesetter = try SheetArguments.typesetter()
        return (try ContactSheet(catalog: consume catalog, options: options, typesetter: typesetter), Set(probeProblems))
    }

    /// The board as a Deep Zoom or IIIF pyramid: one page, its tiles in a folder renamed
    /// into place with the descriptors (and the map) when every tile is written.
    func renderPyramid(_ sheet: ContactSheet, catalog: Catalog, warned: Set<CardProblem>, started: Date) throws {
        let options = sheet.options
        let pyramidOptions = try pyramid.options(format: outputFormat, opaque: options.style.background.isOpaque)
        let background = options.style.background.premultiplied
        let size = sheet.layout.pageSize(0)
        let levels = outputFormat == .iiif
            ? IIIFSink.levelCount(of: size, format: IIIF(), tileSize: pyramidOptions.tileSize)
            : DeepZoomSink.levelCount(of: size, format: DeepZoom(), tileSize: pyramidOptions.tileSize)
        let plan = pyramid.shard.flatMap(ShardPlan.parse).map {
            ShardPlan(index: $0.index, count: $0.count, height: size.height, tileSize: pyramidOptions.tileSize, overlap: pyramidOptions.overlap, maximumLevels: levels)
        }
        let sink: any PyramidOutput = outputFormat == .iiif
            ? IIIFSink(destination: destination, format: IIIF(id: pyramid.iiifId), options: pyramidOptions, background: background, threads: options.jobs, shard: plan)
            : DeepZoomSink(destination: destination, format: DeepZoom(), options: pyramidOptions, background: background, threads: options.jobs, shard: plan)
        let folder = sink.folder
        let viewerTitle = sheet.options.title ?? sheet.catalog.title ?? "mosaic board"
        if let plan {
            try renderShard(sheet, plan: plan, sink: sink, levels: levels, viewerTitle: viewerTitle, catalog: catalog, warned: warned, started: started)
            return
        }
        // Before drawing: the descriptor and the map against every file read; the folder
        // absent or one mosaic wrote, holding no input.
        var check = outputCheck(pages: outputFormat == .dzi ? [destination] : [], ownSheets: [], catalog: catalog)
        let viewer = pyramid.noViewer ? nil : PyramidViewer(destination: destination)
        if let viewer {
            check.write(viewer.page, by: "--output (the viewer)")
            check.write(viewer.mapScript, by: "--output (the viewer's map)")
            for file in [viewer.page, viewer.mapScript] where !PyramidViewer.mayReplace(file) {
                throw SheetError.wouldReplaceAForeignFile(path: file)
            }
        }
        if outputFormat == .iiif, let json, json != "-", OutputCheck.resolved(json).hasPrefix(OutputCheck.resolved(folder) + "/") {
            check.write(folder + "/" + (json as NSString).lastPathComponent, by: "--json")
        }
        try check.check()
        try StagedFolder.check(folder, marker: PyramidFiles.marker, reading: check)
        if outputFormat == .dzi, FileManager.default.fileExists(atPath: destination),
            !FileManager.default.fileExists(atPath: folder + "/" + PyramidFiles.marker)
        {
            throw SheetError.wouldReplaceAForeignFile(path: destination)
        }
        let bar = ProgressBar(enabled: !quiet && (progress ?? (isatty(2) == 1)))
        var summary = try SheetRenderer(sheet: sheet).render(into: sink, commit: false) { bar.update($0) }
        bar.finish()
        if summary.rendered == 0 && !summary.failures.isEmpty {
            sink.abandon()
            if !quiet { for failure in summary.failures where !warned.contains(failure) { printError("warning: \(failure)") } }
            throw SheetError.everyInputFailed(count: summary.failures.count)
        }
        summary.files = [destination]
        // The viewer beside it, put in place with the pyramid.
        var viewerFiles: [PendingFile] = []
        if let viewer {
            let shown = sink.viewerPyramid(levels: levels)
            do {
                viewerFiles.append(try PendingFile(viewer.html(title: viewerTitle), at: viewer.page))
                viewerFiles.append(try PendingFile(at: viewer.mapScript) { stream throws(SheetError) in try viewer.writeMap(sheet, pyramid: shown, to: stream) })
            } catch {
                sink.abandon()
                throw error
            }
        }
        try commit(sink) { stream throws(SheetError) in try sheet.writeImageMap(to: stream, output: destination, problems: summary.failures) }
        for file in viewerFiles { try file.commit() }
        if !quiet {
            let size = sheet.layout.pageSize(0)
            var written = "\(destination) (\(size.width)x\(size.height), \(sink.tileCount) tiles"
            if sink.skippedTiles > 0 { written += ", \(sink.skippedTiles) blank left out" }
            let bytes = Self.treeSize(folder)
            written += ", \(CaptionMode.humanSize(bytes)))"
            if let viewer { written += "; viewer \(viewer.page)" }
            report(summary, catalog: catalog, written: written, alreadyWarned: warned, seconds: Date().timeIntervalSince(started))
        }
    }

    /// The outputs (`pages`, the map) and the files read: the inputs named, the files in
    /// the folders named, and the catalog's images.
    func outputCheck(pages: [String], ownSheets: Set<String>, catalog: Catalog?) -> OutputCheck {
        var check = OutputCheck()
        for page in pages { check.write(page, by: "--output") }
        if let json, json != "-" { check.write(json, by: "--json") }
        if let catalog {
            check.read(input.inputs + input.listFiles)
            // A folder's own earlier sheet, left out of the catalog, may be replaced.
            check.allowReplacing(Array(ownSheets))
            check.read(catalog)
        } else {
            check.inputs = input.inputs + input.listFiles
            check.read(input.listedCatalog)
        }
        return check
    }

    /// Puts the pages and the map in place together: the map is written beside its
    /// destination first, the pages renamed, then the map; a failure anywhere leaves every
    /// previous output as it was.
    func commit(_ sink: some PageSink, map: (JSONStream) throws(SheetError) -> Void) throws {
        var pending: PendingFile?
        if let json, json != "-" {
            do {
                pending = try PendingFile(at: json, writing: map)
            } catch {
                sink.abandon()
                throw error
            }
        }
        do {
            try sink.commit()
        } catch {
            pending?.discard()
            sink.abandon()
            throw SheetError.output(error)
        }
        try pending?.commit()
        if json == "-" { try map(JSONStream(descriptor: STDOUT_FILENO, name: "standard output")) }
        if toStandardOutput {
            // Registered, so that a closed pipe (SIGPIPE) or Ctrl-C while sending removes it.
            TemporaryFiles.register(sinkDestination)
            defer {
                unlink(sinkDestination)
                TemporaryFiles.unregister(sinkDestination)
            }
            guard let png = FileManager.default.contents(atPath: sinkDestination) else {
                throw Failure(description: "\(sinkDestination): cannot read the sheet back to send it to standard output")
            }
            FileHandle.standardOutput.write(png)
        }
    }

    /// The files of the pages (none for `-o -`, which takes one page only).
    func pagePaths(_ sheet: ContactSheet) throws -> [String] {
        guard toStandardOutput else { return PNGSink.pagePaths(for: destination, pageCount: sheet.layout.pageCount) }
        if sheet.layout.pageCount > 1 {
            throw Failure(description: "--output - writes one PNG, and this sheet has \(sheet.layout.pageCount) pages; name a file, or drop --max-height")
        }
        return []
    }

    /// Part K of N of the pyramid: its strip's tiles and the hand-over, in NAME.shards/K-of-N
    /// (renamed into place whole; a shard run again replaces its own part only).
    func renderShard(
        _ sheet: ContactSheet, plan: ShardPlan, sink: any PyramidOutput, levels: Int, viewerTitle: String,
        catalog: Catalog, warned: Set<CardProblem>, started: Date
    ) throws {
        let part = PyramidFiles.shardFolder(for: destination, index: plan.index, count: plan.count)
        let check = outputCheck(pages: [], ownSheets: [], catalog: catalog)
        try check.check()
        try StagedFolder.check(part, marker: PyramidFiles.marker, reading: check)
        sink.boardDigest = sheet.digest
        if plan.index == 0, !pyramid.noViewer {
            // Shard 0 carries the viewer, which assemble puts beside the pyramid.
            let viewer = PyramidViewer(destination: destination)
            let map = JSONStream()
            try viewer.writeMap(sheet, pyramid: sink.viewerPyramid(levels: levels), to: map)
            sink.shardExtras = [("viewer/page", viewer.html(title: viewerTitle)), ("viewer/map", map.data)]
        }
        let bar = ProgressBar(enabled: !quiet && (progress ?? (isatty(2) == 1)))
        var renderer = SheetRenderer(sheet: sheet)
        renderer.rows = plan.drawn
        var summary = try renderer.render(into: sink, commit: true) { bar.update($0) }
        bar.finish()
        summary.files = [part]
        if !quiet {
            let written = "shard \(plan.index)/\(plan.count) of \(destination): rows \(plan.strip.lowerBound)-\(plan.strip.upperBound) of \(sheet.layout.pageSize(0).height), \(sink.tileCount) tiles in \(part); when all \(plan.count) are done: mosaic assemble \(destination)"
            report(summary, catalog: catalog, written: written, alreadyWarned: warned, seconds: Date().timeIntervalSince(started))
        }
    }

    /// The bytes of the files under `folder`, at any depth.
    static func treeSize(_ folder: String) -> Int {
        guard let enumerator = FileManager.default.enumerator(atPath: folder) else { return 0 }
        var total = 0
        while let relative = enumerator.nextObject() as? String {
            if let info = FileNames.status(folder + "/" + relative), (info.st_mode & S_IFMT) == S_IFREG { total += Int(info.st_size) }
        }
        return total
    }

    /// The pages written with their sizes: "sheet.png (1800x4518, 6.2 MB)", or for several
    /// "3 pages, 1800x900 each at most, 4.1 MB: sheet-1.png, ...".
    static func pages(_ files: [String], sheet: ContactSheet) -> String {
        let bytes = files.compactMap { FileNames.status($0).map { Int($0.st_size) } }.reduce(0, +)
        let size = bytes > 0 ? ", " + CaptionMode.humanSize(bytes) : ""
        let sizes = (0..<sheet.layout.pageCount).map { sheet.layout.pageSize($0) }
        guard files.count > 1 else {
            return (files.first ?? "") + (sizes.first.map { " (\($0.width)x\($0.height)\(size))" } ?? "")
        }
        let widest = sizes.map(\.width).max() ?? 0, tallest = sizes.map(\.height).max() ?? 0
        let shown = files.prefix(4).joined(separator: ", ") + (files.count > 4 ? ", ... " + (files.last ?? "") : "")
        return "\(files.count) pages (\(widest)x\(tallest) at most\(size)): " + shown
    }

    /// The warnings not yet printed and the closing line: counts, the failed files by
    /// their whole paths, skipped files, the pages written.
    func report(_ summary: RenderSummary, catalog: Catalog, written: String, alreadyWarned: Set<CardProblem>, seconds: Double) {
        for failure in summary.failures where !alreadyWarned.contains(failure) { printError("warning: \(failure)") }
        for warning in summary.warnings { printError("warning: \(warning)") }
        if !summary.missingCharacters.isEmpty {
            let list = summary.missingCharacters.map { "U+" + String($0.value, radix: 16, uppercase: true) }.joined(separator: " ")
            printError("warning: no font has these characters (drawn as boxes): \(list)")
        }
        var line = "rendered \(summary.rendered) image\(summary.rendered == 1 ? "" : "s")"
        if !summary.failures.isEmpty {
            line += ", \(summary.failures.count) failed: " + summary.failures.map { FileNames.display($0.path) }.joined(separator: ", ")
        }
        if !catalog.unreadableImages.isEmpty {
            let count = catalog.unreadableImages.count
            let named = catalog.unreadableImages.prefix(5).map { problem in
                let format: String
                if case .unsupportedFormat(_, let signature) = problem.error, let name = ImageSignatures.unreadableFormat(signature) {
                    format = name
                } else {
                    format = "?"
                }
                return "\(FileNames.display(problem.path)) (\(format))"
            }
            line += "; left out \(count) image\(count == 1 ? "" : "s") in formats mosaic cannot read: " + named.joined(separator: ", ")
            if count > 5 { line += " and \(count - 5) more" }
        }
        if !catalog.skippedFiles.isEmpty {
            let count = catalog.skippedFiles.count
            let named = catalog.skippedFiles.prefix(3).map { FileNames.display(($0 as NSString).lastPathComponent) }
            line += "; skipped \(count) other file\(count == 1 ? "" : "s"): " + named.joined(separator: ", ") + (count > 3 ? " and \(count - 3) more" : "")
        }
        line += " -> " + written
        line += " (\(String(format: "%.2f", seconds)) s)"
        printError(line)
    }
}

/// Writes `data` beside `path` and renames it into place.
func writeAtomically(_ data: Data, to path: String) throws {
    let temporary = (path as NSString).deletingLastPathComponent.appending((path as NSString).deletingLastPathComponent.isEmpty ? "" : "/")
        + ".\((path as NSString).lastPathComponent).mosaic-\(getpid()).tmp"
    guard FileManager.default.createFile(atPath: temporary, contents: data) else {
        throw Failure(description: "\(path): cannot write the file")
    }
    guard rename(temporary, path) == 0 else {
        unlink(temporary)
        throw Failure(description: "\(path): cannot move the file into place")
    }
}
