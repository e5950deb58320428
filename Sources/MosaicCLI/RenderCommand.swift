import ArgumentParser
import Foundation
import Mosaic

/// `mosaic render`: a contact sheet as PNG.
struct RenderCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "render",
        abstract: "Render a contact sheet of images, or a tile pyramid with a viewer.",
        discussion: "Exit status: 0 when the sheet is written, 1 when it is not, 64 for a usage error.")

    @OptionGroup(title: "Inputs") var input: InputArguments
    @OptionGroup(title: "Layout") var layout: LayoutArguments
    @OptionGroup(title: "Captions and text") var text: TextArguments
    @OptionGroup(title: "Colours and cards") var look: LookArguments
    @OptionGroup(title: "Pixels and work") var work: WorkArguments
    @OptionGroup(title: "Output formats and tile pyramids") var pyramid: PyramidArguments
    @OptionGroup(title: "Card cache") var cache: CacheArguments

    @Option(name: [.short, .long], help: ArgumentHelp("The sheet: NAME\(suffixes); - for standard output (default: sheet.png).", valueName: "file"))
    var output: String?
    /// Each kind's first suffix, from the registry: ".png, .jpg, ... or .dzi".
    static var suffixes: String {
        let suffixes = OutputKinds.all.compactMap { $0.suffixes.first }
        return suffixes.dropLast().joined(separator: ", ") + (suffixes.count > 1 ? " or " : "") + (suffixes.last ?? "")
    }

    /// Everything the option groups say, as the library's options.
    var options: SheetOptions {
        let kind = try? OutputKinds.kind(for: pyramid.request(output: output, json: json))
        return SheetArguments.options(input: input, layout: layout, text: text, look: look, work: work, printed: kind?.printsOnPaper ?? false)
    }

    @Option(help: ArgumentHelp("Also write the layout as a JSON image map (- for standard output).", valueName: "file"))
    var json: String?

    @Flag(inversion: .prefixedNo, help: "A progress bar on standard error (default: on a terminal).")
    var progress: Bool?

    @Flag(name: [.short, .long], help: "Print nothing but errors.")
    var quiet = false

    @Flag(name: [.short, .long], help: "Name every file skipped (not an image) or left out (format unread), not only the first few.")
    var verbose = false

    @Flag(help: ArgumentHelp("A sheet per folder, group or video (--frames): -o 'sheets/{folder}.png' ({group}, {stem}, {index})."))
    var each = false

    /// The library's plan of the render: the output kind, its checks, its commit.
    func job(_ options: SheetOptions) throws -> RenderJob {
        do {
            return try RenderJob(request: pyramid.request(output: output, json: json), options: options, inputs: input.inputs + input.listFiles)
        } catch {
            throw ValidationError(pyramid.message(error))
        }
    }

    func validate() throws {
        try SheetArguments.checkOutputNames([("--output", output), ("--json", json)])
        if watch {
            if input.filesFrom != nil { throw ValidationError("--watch watches folders and files named as inputs: not a --files-from list") }
            if output == "-" || json == "-" { throw ValidationError("--watch writes files: not - (standard output)") }
        }
        if each { try validateEach() }
        _ = try job(options)
    }

    @Flag(help: "After rendering, render again whenever an input changes (Ctrl-C stops).")
    var watch = false

    func run() throws {
        try renderOnce()
        guard watch else { return }
        let outputs = [output ?? "sheet.png", json].compactMap { $0 }
        let watcher: InputWatcher
        do {
            watcher = try InputWatcher(inputs: input.inputs, outputs: outputs, recursive: input.recursive)
        } catch {
            printError("error: --watch: \(error)")
            throw ExitCode(1)
        }
        while true {
            let changed = watcher.wait()
            if !quiet, let first = changed.first {
                printError("changed: \(FileNames.display(first))" + (changed.count > 1 ? " and \(changed.count - 1) more" : ""))
            }
            // A run that fails has said why; the next change gets another.
            do { try renderOnce() } catch let error as ExitCode where error.rawValue != 64 {}
        }
    }

    /// One render: the sheet (or with --each, the sheets).
    func renderOnce() throws {
        if each { return try runEach() }
        let options = self.options
        let started = Date()
        try reportingErrors {
            var job = try self.job(options)
            if output == "-" || json == "-" { _ = try Terminal.standardOutputStream() }  // closed at start: refused now
            job.cache = try cache.open(quiet: quiet)
            defer { CacheArguments.finish(job.cache, quiet: quiet) }
            // Before any work: the outputs are no folders, no inputs named, not each other.
            try job.checkOutputs(listed: input.listedCatalog)
            let (contactSheet, warned) = try makeSheet(job.sheetOptions, job: job)
            try draw(contactSheet, job: job, alreadyWarned: warned, started: started)
        }
    }

    /// Draws a laid-out sheet and commits it: its warnings and notes first, the progress
    /// bar, the closing summary line.
    @discardableResult
    func draw(_ contactSheet: ContactSheet, job: RenderJob, alreadyWarned warned: Set<CardProblem>, started: Date) throws -> RenderSummary {
        let options = job.options
        // The sheet's copy (its entries in a temporary file): the catalog read is gone.
        let catalog = contactSheet.catalog
        if !quiet {
            let flag = options.direction == .vertical ? "--max-height" : "--max-width"
            for cut in contactSheet.cutTexts { printError("warning: \(cut)") }
            for clamped in contactSheet.clampedSpans {
                printError("warning: \(FileNames.display(clamped.source)) spans \(clamped.span) columns; its section has \(clamped.columns): it spans them all")
            }
            for page in contactSheet.oversizedPages {
                let what = page.source.map { "\(FileNames.display($0)) is" } ?? "an element is"
                if job.kind.scalesLongPages {
                    // The paper sets the page's length: the page is shown whole, smaller.
                    let percent = max(1, Int((100 * Double(page.maximum) / Double(max(1, page.length))).rounded(.down)))
                    printError(
                        "warning: page \(page.page + 1) is \(page.length) px long, over the paper's \(page.maximum): \(what) longer than a page, so the page is scaled to \(percent)% to fit the paper")
                } else {
                    printError("warning: page \(page.page + 1) is \(page.length) px long, over \(flag) \(page.maximum): \(what) longer than a page (drawn whole)")
                }
            }
            for note in job.notes(contactSheet) { printError("note: \(note)") }
            // (A board of several pages to standard output is refused next, saying why: no
            // advice on pages it will not write; a kind that fits long pages to its paper
            // writes none too large to open.)
            if job.kind.takesPages, !job.kind.scalesLongPages, !(job.request.toStandardOutput && contactSheet.layout.pageCount > 1) {
                let files = job.request.toStandardOutput ? ["the sheet"] : PageNames.paths(for: job.request.resolvedDestination, pageCount: contactSheet.layout.pageCount)
                warnOfLargePages(contactSheet, files: files)
            }
        }
        let bar = ProgressBar(enabled: !quiet && (progress ?? (isatty(2) == 1)))
        let result = try job.render(contactSheet, progress: { bar.update($0) }) { summary in
            bar.finish()
            if !quiet { for failure in summary.failures where !warned.contains(failure) { printError("warning: \(failure)") } }
        }
        bar.finish()
        if !quiet {
            report(result.summary, catalog: catalog, written: result.written, alreadyWarned: warned, seconds: Date().timeIntervalSince(started))
        }
        return result.summary
    }

    /// The inputs read, their problems named, laid out; and the problems already named. The
    /// catalog read is not kept: the sheet keeps its own, out of memory.
    func makeSheet(_ options: SheetOptions, job: RenderJob) throws -> (ContactSheet, Set<CardProblem>) {
        var decoder = ImageDecoder(limits: options.limits, strict: options.strict, codecs: options.codecs)
        decoder.readFields(for: options.caption)
        let catalog = try input.catalog(decoder: decoder, output: job.request.resolvedDestination, jobs: options.jobs, columns: layout.columns)
        return try layOut(catalog, options: options, typesetter: try SheetArguments.typesetter())
    }

    /// `catalog` laid out, the problems its probe found named (once: they are returned).
    func layOut(_ catalog: consuming Catalog, options: SheetOptions, typesetter: Typesetter) throws -> (ContactSheet, Set<CardProblem>) {
        let probeProblems = catalog.allEntries.compactMap(\.problem)
        if !quiet {
            for folder in catalog.unreadableFolders { printError("warning: \(folder) (left out)") }
            if !options.strict { for problem in probeProblems { printError("warning: \(problem)") } }
        }
        return (try ContactSheet(catalog: catalog, options: options, typesetter: typesetter), Set(probeProblems))
    }
}
