import Foundation
import Mosaic

extension RenderCommand {
    /// The warnings not yet printed and the closing line: counts, the failed files by
    /// their whole paths, skipped files, the pages written.
    func report(_ summary: RenderSummary, catalog: Catalog, written: String, alreadyWarned: Set<CardProblem>, seconds: Double) {
        for failure in summary.failures where !alreadyWarned.contains(failure) { printError("warning: \(failure)") }
        for warning in summary.warnings { printError("warning: \(warning)") }
        if !summary.missingCharacters.isEmpty {
            let list = MissingScript.grouping(summary.missingCharacters).map(\.description).joined(separator: "; ")
            printError("warning: no font has these characters (drawn as boxes): \(list)")
        }
        var line = "\(summary.unchanged ? "unchanged:" : "rendered") \(summary.rendered) image\(summary.rendered == 1 ? "" : "s")"
        if !summary.failures.isEmpty {
            line += ", \(summary.failures.count) failed: " + summary.failures.map { FileNames.display($0.path) }.joined(separator: ", ")
        }
        if !catalog.unreadableImages.isEmpty {
            let count = catalog.unreadableImages.count
            let named = catalog.unreadableImages.prefix(5).map { problem in
                let format: String
                if case .unsupportedFormat(_, let signature, _) = problem.error, let name = ImageSignatures.unreadableFormat(signature) {
                    format = name
                } else {
                    format = "?"
                }
                return "\(FileNames.display(problem.path)) (\(format))"
            }
            if verbose {
                for problem in catalog.unreadableImages.dropFirst(5) { printError("left out: \(FileNames.display(problem.path))") }
            }
            line += "; left out \(count) image\(count == 1 ? "" : "s") in formats mosaic cannot read: " + named.joined(separator: ", ")
            if count > 5 { line += " and \(count - 5) more" + (verbose ? " (named above)" : " (-v names them)") }
        }
        if !catalog.skippedFiles.isEmpty {
            let count = catalog.skippedFiles.count
            // Every one with -v (above the summary, one a line); in the summary the first three.
            if verbose { for file in catalog.skippedFiles { printError("skipped (not an image): \(FileNames.display(file))") } }
            let named = catalog.skippedFiles.prefix(3).map { FileNames.display(($0 as NSString).lastPathComponent) }
            line += "; skipped \(count) other file\(count == 1 ? "" : "s"): " + named.joined(separator: ", ")
            if count > 3 { line += " and \(count - 3) more" + (verbose ? " (named above)" : " (-v names them all, as does the --json map's \"skipped\")") }
        }
        line += " -> " + written + (summary.unchanged ? ", left as it was" : "")
        line += " (\(String(format: "%.2f", seconds)) s)"
        printError(line)
    }
}
