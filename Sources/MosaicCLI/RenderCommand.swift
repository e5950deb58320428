import ArgumentParser
import Foundation
import Mosaic

/// `mosaic render`: a contact sheet as PNG.
struct RenderCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "render",
        abstract: "Render a contact sheet of images (masonry, grid or justified rows) as PNG, JPEG, WebP, AVIF or PDF, or as a zoomable tile pyramid with a viewer.",
        discussion: "Folders missing above the outputs are created when the sheet is written (mode 0755 less the umask; a file in the way is refused before any work). Exit status: 0 when the sheet is written (inputs that could not be read become placeholder cards and are named), 1 when it is not (no images, every input failed, --strict and a failed input, an output that would replace an input, a write that failed: a full disk or standard output) or when standard error could not be written, 64 for a usage error (a bad option).")

    @OptionGroup(title: "Inputs") var input: InputArguments
    @OptionGroup(title: "Layout") var layout: LayoutArguments
    @OptionGroup(title: "Captions and text") var text: TextArguments
    @OptionGroup(title: "Colours and cards") var look: LookArguments
    @OptionGroup(title: "Pixels and work") var work: WorkArguments
    @OptionGroup(title: "Output formats and tile pyramids") var pyramid: PyramidArguments

    @Option(name: [.short, .long], help: ArgumentHelp("The sheet to write: NAME.png (pages: NAME-1.png, NAME-2.png, ...), .jpg, .webp or .avif (paginated past the format's limit), a NAME.pdf of printed pages, a NAME.dzi pyramid, or the folder of a IIIF one; - for standard output (one page; --format names its kind). Default: sheet.png, which replaces only a sheet mosaic wrote.", valueName: "file"))
    var output: String?

    /// Everything the option groups say, as the library's options.
    var options: SheetOptions { SheetArguments.options(input: input, layout: layout, text: text, look: look, work: work) }

    @Option(help: ArgumentHelp("Also write the layout as a JSON image map to FILE, or - for standard output.", valueName: "file"))
    var json: String?

    @Flag(inversion: .prefixedNo, help: "Show a progress bar on standard error (default: when it is a terminal).")
    var progress: Bool?

    @Flag(name: [.short, .long], help: "Print nothing but errors.")
    var quiet = false

    @Flag(help: ArgumentHelp("One sheet per folder (each folder named, or each subfolder of the one folder named) or, with --group-by, per group, in one process; -o (and --json) name them with {folder}, {group} or {index} (01, 02...): -o 'sheets/{folder}.png' (its folders are made). Unsafe characters in names (/, control characters, a leading dot) become _. A summary line per sheet; a sheet that fails is named and the others are written (exit 1 only when none is); with --strict every input is read before any sheet is written and the first failure ends the run."))
    var each = false

    /// The library's plan of the render: the output kind, its checks, its commit.
    func job(_ options: SheetOptions) throws -> RenderJob {
        do {
            return try RenderJob(request: pyramid.request(output: output, json: json), options: options, inputs: input.inputs + input.listFiles)
        } catch {
            throw ValidationError(error.description)
        }
    }

    func validate() throws {
        try SheetArguments.checkOutputNames([("--output", output), ("--json", json)])
        if each { try validateEach() }
        _ = try job(options)
    }

    func run() throws {
        if each { return try runEach() }
        let options = self.options
        let started = Date()
        try reportingErrors {
            let job = try self.job(options)
            if output == "-" || json == "-" { _ = try Terminal.standardOutputStream() }  // closed at start: refused now
            // Before any work: the outputs are no folders, no inputs named, not each other.
            try job.checkOutputs(listed: input.listedCatalog)
            let (contactSheet, warned) = try makeSheet(job.sheetOptions, job: job)
            try draw(contactSheet, job: job, alreadyWarned: warned, started: started)
        }
    }

    /// Draws a laid-out sheet and commits it: its warnings and notes first, the progress
    /// bar, the closing summary line.
    func draw(_ contactSheet: ContactSheet, job: RenderJob, alreadyWarned warned: Set<CardProblem>, started: Date) throws {
        let options = job.options
        // The sheet's copy (its entries in a temporary file): the catalog read is gone.
        let catalog = contactSheet.catalog
        if !quiet {
            let flag = options.direction == .vertical ? "--max-height" : "--max-width"
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
            // A kind that fits long pages to its paper writes none too large to open.
            if job.kind.takesPages, !job.kind.scalesLongPages {
                let files = job.request.toStandardOutput ? ["the sheet"] : PNGSink.pagePaths(for: job.request.resolvedDestination, pageCount: contactSheet.layout.pageCount)
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
    }

    /// The inputs read, their problems named, laid out; and the problems already named. The
    /// catalog read is not kept: the sheet keeps its own, out of memory.
    func makeSheet(_ options: SheetOptions, job: RenderJob) throws -> (ContactSheet, Set<CardProblem>) {
        let decoder = ImageDecoder(limits: options.limits, strict: options.strict, codecs: options.codecs)
        let catalog = try input.catalog(decoder: decoder, output: job.request.resolvedDestination, jobs: options.jobs)
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
