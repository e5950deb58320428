import ArgumentParser
import Foundation
import Mosaic

/// `mosaic render --each`: one sheet per folder or group, in one process (the fonts loaded
/// once, the decoder and its threads shared), each sheet checked, drawn and committed as a
/// single render is, with its own summary line.
extension RenderCommand {
    /// With --frames (or --frame-interval), a sheet per video, named by `{stem}`: unless
    /// --group-by groups the inputs or the template names folders (`{folder}`: a sheet per
    /// folder, each video a section of it).
    var eachVideo: Bool { input.groupBy == nil && input.video.spacing != nil && !(output ?? "").contains("{folder}") }

    /// The placeholders the templates may use: `{group}` with --group-by, `{stem}` for a
    /// sheet per video, else `{folder}`.
    var eachPlaceholders: Set<SheetNameTemplate.Placeholder> {
        if input.groupBy != nil { return [.group, .index] }
        return eachVideo ? [.stem, .index] : [.folder, .index]
    }

    /// The templates of the destination and the map, checked (usage errors).
    func eachTemplates() throws -> (SheetNameTemplate, SheetNameTemplate?) {
        guard let output else { throw ValidationError("--each needs -o with {folder}, {group}, {stem} or {index}, such as -o 'sheets/{folder}.png'") }
        if output == "-" || json == "-" { throw ValidationError("--each writes files: not - (standard output)") }
        do throws(OutputRequestError) {
            return (
                try SheetNameTemplate(output, option: "--output", allowed: eachPlaceholders),
                try json.map { name throws(OutputRequestError) in try SheetNameTemplate(name, option: "--json", allowed: eachPlaceholders) }
            )
        } catch {
            throw ValidationError(error.description)
        }
    }

    /// Before anything is read: the templates, and in folder mode the folders.
    func validateEach() throws {
        _ = try eachTemplates()
        if input.groupBy == nil && !eachVideo {
            if input.filesFrom != nil { throw ValidationError("--each makes a sheet per folder: --files-from lists files (with --group-by, a sheet per group)") }
            do throws(OutputRequestError) { _ = try EachSheets.folders(of: input.inputs) } catch { throw ValidationError(error.description) }
        }
    }

    /// A folder's name for `{folder}`: its last component ("." and ".." by their real names).
    static func folderName(_ path: String) -> String {
        var name = (path as NSString).lastPathComponent
        if name == "." || name == ".." || name == "/" || name.isEmpty {
            name = FileNames.realPath(path).map { ($0 as NSString).lastPathComponent } ?? name
        }
        return name
    }

    func runEach() throws {
        let options = self.options
        let (destination, map) = try eachTemplates()
        var failedSheets: [String] = []
        var sheetCount = 0
        var unchangedSheets = 0
        try reportingErrors {
            var decoder = ImageDecoder(limits: options.limits, strict: options.strict, codecs: options.codecs)
            decoder.readFields(for: options.caption)
            // Loaded once for every sheet.
            let typesetter = try SheetArguments.typesetter()
            // The sheets: each a folder's catalog read when its turn comes, or a group of
            // one catalog read at once.
            var names: [String] = []
            var folders: [String]?
            var groups: [Catalog] = []
            var sources: [String]?
            if eachVideo {
                // A sheet per video: every input read at once, each clip a section of frames.
                let whole = try input.catalog(decoder: decoder, jobs: options.jobs, columns: layout.columns)
                let (videos, leftOut) = whole.splitByVideo()
                guard !videos.isEmpty else {
                    printError("Error: --each with --frames makes a sheet per video: the inputs hold no video of known duration")
                    throw ExitCode(1)
                }
                groups = videos.map(\.catalog)
                names = videos.map(\.stem)
                sources = videos.map(\.path)
                if !quiet, leftOut > 0 {
                    printError("note: \(leftOut) card\(leftOut == 1 ? " is" : "s are") in no sheet: --each with --frames makes a sheet per video")
                }
            } else if input.groupBy != nil {
                let whole = try input.catalog(decoder: decoder, jobs: options.jobs)
                for section in whole.sections {
                    var group = whole
                    group.sections = [section]
                    // What the read skipped or left out is told once, with the first sheet.
                    if !groups.isEmpty {
                        (group.skippedFiles, group.unreadableImages, group.unreadableFolders, group.symlinkLoops) = ([], [], [], [])
                    }
                    groups.append(group)
                    names.append(section.header ?? "")
                }
                if !quiet { for folder in whole.unreadableFolders { printError("warning: \(folder) (left out)") } }
            } else {
                let (found, loose) = try EachSheets.folders(of: input.inputs)
                folders = found
                names = found.map(Self.folderName)
                if loose > 0, !quiet, let root = input.inputs.first {
                    printError("note: \(loose) file\(loose == 1 ? "" : "s") directly in \(FileNames.display(root)) \(loose == 1 ? "is" : "are") in no sheet: --each makes a sheet per subfolder")
                }
            }
            let plan: EachSheets
            do throws(OutputRequestError) {
                plan = try EachSheets(names: names, folders: folders, sources: sources, destination: destination, json: map)
            } catch {
                printError("Error: \(error.description)")
                throw ExitCode(64)
            }
            sheetCount = plan.sheets.count
            // Before any work: every sheet's outputs are no folders, no inputs, not each other's.
            var jobs: [RenderJob] = []
            let cardCache = try cache.open(quiet: quiet)
            defer { CacheArguments.finish(cardCache, quiet: quiet) }
            for sheet in plan.sheets {
                var request = pyramid.request(output: sheet.destination, json: sheet.json)
                request.isFromTemplate = true
                var job = try RenderJob(request: request, options: options, inputs: input.inputs + input.listFiles)
                job.cache = cardCache
                try job.checkOutputs()
                jobs.append(job)
            }
            // --strict: every folder's headers read before anything is written.
            var catalogs: [Catalog?] = groups.isEmpty ? Array(repeating: nil, count: plan.sheets.count) : groups
            if options.strict {
                for (i, folder) in (folders ?? []).enumerated() {
                    catalogs[i] = try folderCatalog(folder, decoder: decoder, destination: plan.sheets[i].destination, jobs: options.jobs)
                }
                let problems = catalogs.compactMap { $0 }.flatMap(\.strictProblems)
                if !problems.isEmpty { throw RenderError.inputsFailed(problems) }
            }
            for (i, sheet) in plan.sheets.enumerated() {
                let started = Date()
                do {
                    var catalog: Catalog
                    if let read = catalogs[i] {
                        catalog = read
                    } else {
                        catalog = try folderCatalog(sheet.folder ?? "", decoder: decoder, destination: sheet.destination, jobs: options.jobs)
                    }
                    catalogs[i] = nil
                    // The template's folders ("sheets/") are made, as the sheet is reached.
                    for file in [sheet.destination] + (sheet.json.map { [$0] } ?? []) { try OutputFolders.make((file as NSString).deletingLastPathComponent) }
                    let (contactSheet, warned) = try layOut(catalog, options: jobs[i].sheetOptions, typesetter: typesetter)
                    if try draw(contactSheet, job: jobs[i], alreadyWarned: warned, started: started).unchanged { unchangedSheets += 1 }
                } catch {
                    // One sheet's failure is named; the others are drawn, unless --strict.
                    if options.strict { throw error }
                    let message = (error as? RenderError).map { $0.lines.joined(separator: "; ") } ?? String(describing: error)
                    printError("warning: sheet \(FileNames.display(sheet.name)) not written: \(message)")
                    failedSheets.append(sheet.name)
                }
            }
            if !quiet, plan.sheets.count > 1 {
                let written = plan.sheets.count - failedSheets.count
                printError("\(written) of \(plan.sheets.count) sheets written" + (unchangedSheets > 0 ? " (\(unchangedSheets) unchanged, left as they were)" : "")
                    + (failedSheets.isEmpty ? "" : "; not written: " + failedSheets.map(FileNames.display).joined(separator: ", ")))
            }
        }
        // Without --strict the run fails only when no sheet was written.
        if !failedSheets.isEmpty, failedSheets.count == sheetCount { throw ExitCode(1) }
    }

    /// One folder's catalog, as a render of that folder alone reads it.
    func folderCatalog(_ folder: String, decoder: ImageDecoder, destination: String, jobs: Int) throws -> Catalog {
        var one = input
        one.inputs = [folder]
        return try one.catalog(decoder: decoder, output: destination, jobs: jobs, columns: layout.columns)
    }
}
