import ArgumentParser
import Foundation
import Mosaic

/// `mosaic render`: a contact sheet as PNG.
struct RenderCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "render",
        abstract: "Render a contact sheet of images (masonry or grid) as PNG.")

    @OptionGroup var sheet: SheetArguments

    @Option(name: [.short, .long], help: "The PNG to write (pages: NAME-1.png, NAME-2.png, ...).")
    var output = "sheet.png"

    @Option(help: ArgumentHelp("Also write the layout as a JSON image map to FILE, or - for standard output.", valueName: "file"))
    var json: String?

    @Flag(inversion: .prefixedNo, help: "Show a progress bar on standard error (default: when it is a terminal).")
    var progress: Bool?

    @Flag(name: [.short, .long], help: "Print nothing but errors.")
    var quiet = false

    func run() throws {
        let options = sheet.options
        let started = Date()
        try reportingErrors {
            let decoder = ImageDecoder(limits: options.limits, strict: options.strict)
            let catalog = try sheet.catalog(decoder: decoder, output: output)
            let probeProblems = catalog.entries.compactMap(\.problem)
            if !quiet && !options.strict {
                for problem in probeProblems { printError("warning: \(problem)") }
            }
            let contactSheet = try ContactSheet(catalog: catalog, options: options, typesetter: try SheetArguments.typesetter())
            let bar = ProgressBar(enabled: !quiet && (progress ?? (isatty(2) == 1)))
            let summary = try SheetRenderer(sheet: contactSheet).render(to: output) { bar.update($0) }
            bar.finish()
            if let json {
                let data = try contactSheet.imageMapJSON(output: output, problems: summary.failures)
                if json == "-" {
                    FileHandle.standardOutput.write(data + Data("\n".utf8))
                } else {
                    try writeAtomically(data, to: json)
                }
            }
            if !quiet { report(summary, catalog: catalog, alreadyWarned: Set(probeProblems), seconds: Date().timeIntervalSince(started)) }
        }
    }

    /// The warnings not yet printed and the closing line: counts, the failed files by
    /// their whole paths, skipped files, the pages written.
    func report(_ summary: RenderSummary, catalog: Catalog, alreadyWarned: Set<CardProblem>, seconds: Double) {
        for failure in summary.failures where !alreadyWarned.contains(failure) { printError("warning: \(failure)") }
        for warning in summary.warnings { printError("warning: \(warning)") }
        if !summary.missingCharacters.isEmpty {
            let list = summary.missingCharacters.map { "U+" + String($0.value, radix: 16, uppercase: true) }.joined(separator: " ")
            printError("warning: no font has these characters (drawn as boxes): \(list)")
        }
        var line = "rendered \(summary.rendered) image\(summary.rendered == 1 ? "" : "s")"
        if !summary.failures.isEmpty {
            line += ", \(summary.failures.count) failed: " + summary.failures.map(\.path).joined(separator: ", ")
        }
        if !catalog.skippedFiles.isEmpty { line += "; skipped \(catalog.skippedFiles.count) other file\(catalog.skippedFiles.count == 1 ? "" : "s")" }
        line += " -> " + summary.files.joined(separator: ", ")
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
