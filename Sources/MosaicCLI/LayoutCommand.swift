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

    func run() throws {
        try reportingErrors {
            let options = SheetArguments.options(input: input, layout: layout, text: text)
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
