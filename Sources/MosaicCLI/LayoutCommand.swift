import ArgumentParser
import Foundation
import Mosaic

/// `mosaic layout`: the image map alone, from the headers: a dry run.
struct LayoutCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "layout",
        abstract: "Print the sheet's layout as a JSON image map, without decoding any image.",
        discussion: "Exit status: 0 when the map is printed, 1 when it is not, 64 for a usage error.")

    @OptionGroup(title: "Inputs") var input: InputArguments
    @OptionGroup(title: "Layout") var layout: LayoutArguments
    @OptionGroup(title: "Captions and text") var text: TextArguments

    @Option(name: [.short, .long], help: "The sheet's name, for the map's file names.")
    var output = "sheet.png"

    @Option(help: ArgumentHelp("Lay out a PDF's pages, as render -o NAME.pdf: a4, letter, WxHmm or WxHin (default: none).", valueName: "size"))
    var pageSize: String?
    @Option(parsing: .unconditional, help: "With --page-size: pixels per inch of the pages (default: 300).")
    var dpi: Int?

    /// The sheet's options: with `--page-size`, a PDF's (its print defaults, its lengths in
    /// points and millimetres made pixels at `--dpi`).
    func options() throws -> SheetOptions {
        let options = SheetArguments.options(input: input, layout: layout, text: text, printed: pageSize != nil)
        guard let pageSize else {
            if dpi != nil { throw ValidationError("--dpi is the resolution of a PDF's pages: give --page-size too") }
            return options
        }
        var request = OutputRequest(destination: output.lowercased().hasSuffix(".pdf") ? output : "sheet.pdf", format: PDFOutput.name)
        request.settings[PDFOutput.pageSizeSetting.name] = .text(pageSize)
        if let dpi { request.settings[PDFOutput.dpiSetting.name] = .integer(dpi) }
        do {
            return try RenderJob(request: request, options: options).sheetOptions
        } catch {
            throw ValidationError(error.description)
        }
    }

    func validate() throws {
        _ = try options()
    }

    func run() throws {
        try reportingErrors {
            let options = try self.options()
            var decoder = ImageDecoder(limits: options.limits, strict: options.strict)
            decoder.readFields(for: options.caption)
            let catalog = try input.catalog(decoder: decoder, output: output, jobs: options.jobs, columns: layout.columns)
            for folder in catalog.unreadableFolders { printError("warning: \(folder) (left out)") }
            // As render does: with --strict, an input whose headers cannot be read fails.
            let problems = catalog.strictProblems
            if options.strict && !problems.isEmpty { throw RenderError.inputsFailed(problems) }
            let typesetter = try SheetArguments.typesetter()
            let contactSheet = try ContactSheet(catalog: consume catalog, options: options, typesetter: typesetter)
            for cut in contactSheet.cutTexts { printError("warning: \(cut)") }
            warnOfLargePages(contactSheet, files: PageNames.paths(for: output, pageCount: contactSheet.layout.pageCount))
            // Streamed: a map of a million cards is never held whole.
            try contactSheet.writeImageMap(to: try Terminal.standardOutputStream(), output: output)
        }
    }
}
