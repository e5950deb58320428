import Foundation

/// One render from inputs to files, as the command line runs it and as a program can: the
/// output kind chosen and its request checked, the outputs checked against the inputs
/// before any work, the sheet drawn into the kind's sink, and every output (pages, image
/// map, companions) put in place together, or none.
///
/// ```swift
/// let job = try RenderJob(request: OutputRequest(destination: "sheet.png"), options: options, inputs: ["photos"])
/// try job.checkOutputs()
/// let sheet = try ContactSheet(catalog: try Catalog.folder("photos"), options: options, typesetter: Typesetter())
/// let result = try job.render(sheet)
/// ```
public struct RenderJob: Sendable {
    /// What was asked.
    public let request: OutputRequest
    /// The sheet's options.
    public let options: SheetOptions
    /// The kind the request picks.
    public var kind: any OutputKind.Type { type(of: output) }
    /// The kind, set up as the request asks.
    public let output: any OutputKind
    /// The files and folders named as inputs (and lists of files read): an output may
    /// replace none of them, nor anything under them.
    public var inputs: [String]
    /// Cards kept between runs (`CardCache`), when one is used.
    public var cache: CardCache?

    /// - Parameter kinds: the output kinds to choose from (`OutputKinds.all`, or a program's
    ///   own list with kinds of its own).
    /// - Throws: `OutputRequestError` when the request does not suit its kind (a usage
    ///   error: a destination named wrongly, settings that do not go together, a setting
    ///   the kind does not take or a value out of its range).
    public init(
        request: OutputRequest, options: SheetOptions, inputs: [String] = [], kinds: [any OutputKind.Type] = OutputKinds.all
    ) throws(OutputRequestError) {
        self.request = request
        self.options = options
        self.inputs = inputs
        let kind = try OutputKinds.kind(for: request, in: kinds)
        try OutputKinds.checkSettings(request.settings, of: kind, in: kinds)
        if !kind.printsOnPaper, let (setting, length) = options.firstPhysicalLength {
            throw .lengthWithoutPaper(flag: setting.flag, length: length, kind: kind.name)
        }
        try kind.validate(request, options: options)
        output = try kind.init(request, options: options)
    }

    /// True when an unchanged sheet may be left as it is: pages written to files (not a
    /// pyramid, not standard output), the map (if any) to a file.
    var recordsSheet: Bool { kind.takesPages && !request.toStandardOutput && request.json != "-" }

    /// The sheet's options as the kind needs them laid out (`OutputKind.sheetOptions`): lay
    /// the sheet out with these.
    public var sheetOptions: SheetOptions { output.sheetOptions(options) }

    /// What to tell the user of the laid-out sheet before drawing (a board paginated to the
    /// format's limit).
    public func notes(_ sheet: ContactSheet) -> [String] { output.notes(sheet) }

    /// The check of the outputs against the inputs named (and the files a list named).
    func baseCheck(catalog: Catalog) -> OutputCheck {
        var check = OutputCheck()
        if let json = request.json, json != "-" { check.write(json, by: "--json") }
        check.read(inputs)
        check.read(catalog)
        return check
    }

    /// Before any work: the files the destination names and the map are no folders, no
    /// inputs named, and not each other (`listed`: the files a list named, not yet probed).
    ///
    /// - Throws: `OutputError` naming the output.
    public func checkOutputs(listed: Catalog = Catalog(sections: [])) throws(OutputError) {
        var check = OutputCheck()
        for file in kind.namedFiles(request) { check.write(file, by: "--output") }
        if let json = request.json, json != "-" { check.write(json, by: "--json") }
        check.inputs = inputs
        check.read(listed)
        try check.check()
    }

    /// What a render wrote.
    public struct Result: Sendable {
        /// Counts, problems, files.
        public var summary: RenderSummary
        /// What was written, for people: "sheet.png (1800x4518, 6.2 MB)".
        public var written: String
    }

    /// Draws `sheet` and puts every output in place: the map is written beside its
    /// destination first, the pages committed, then the map and the companions; a failure
    /// anywhere leaves every previous output as it was.
    ///
    /// - Parameter failing: called with the summary when every card failed, before
    ///   `RenderError.everyInputFailed` is thrown (to name the failures).
    /// - Throws: `RenderError` (an output check, the sink, strict mode, every input failed).
    public func render(
        _ sheet: ContactSheet, progress: (@Sendable (RenderProgress) -> Void)? = nil, failing: (RenderSummary) -> Void = { _ in }
    ) throws(RenderError) -> Result {
        // A sheet whose every input and option is what this machine last wrote it from,
        // with its files as written: left as it is.
        let fingerprint = recordsSheet ? cache?.sheetFingerprint(sheet, request: request) : nil
        if let cache, let fingerprint, let unchanged = cache.unchangedSheet(fingerprint, destination: request.resolvedDestination) {
            var summary = unchanged.summary
            summary.unchanged = true
            return Result(summary: summary, written: unchanged.written)
        }
        cache?.forgetSheet(destination: request.resolvedDestination)
        let plan = try output.plan(sheet, check: baseCheck(catalog: sheet.catalog))
        var renderer = SheetRenderer(sheet: sheet)
        renderer.rows = plan.rows
        renderer.cache = cache
        var summary = try renderer.render(into: plan.sink, commit: false, progress: progress)
        summary.files = plan.files
        if plan.refusesAllFailed && summary.rendered == 0 && !summary.failures.isEmpty {
            // A sheet of placeholders helps nobody: say so and keep the previous one.
            plan.sink.abandon()
            failing(summary)
            throw .everyInputFailed(count: summary.failures.count)
        }
        let companions: [PendingFile]
        do {
            companions = try plan.companions(summary)
        } catch {
            plan.sink.abandon()
            throw .output(error)
        }
        let failures = summary.failures
        try RenderError.output { () throws(OutputError) in
            try commit(plan.sink) { stream throws(OutputError) in try sheet.writeImageMap(to: stream, output: plan.mapOutput, problems: failures) }
            for file in companions { try file.commit() }
            try plan.delivered()
        }
        let written = plan.written(summary)
        if let cache, let fingerprint, summary.failures.isEmpty, summary.warnings.isEmpty, summary.missingCharacters.isEmpty, companions.isEmpty {
            let map = request.json.map { [$0] } ?? []
            cache.recordSheet(fingerprint, destination: request.resolvedDestination, summary: summary, files: summary.files + map, written: written)
        }
        return Result(summary: summary, written: written)
    }

    /// The sink's pages and the map together.
    func commit(_ sink: any PageSink, map: (JSONStream) throws(OutputError) -> Void) throws(OutputError) {
        var pending: PendingFile?
        if let json = request.json, json != "-" {
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
            throw .write(error)
        }
        try pending?.commit()
        if request.json == "-" { try map(JSONStream(descriptor: STDOUT_FILENO, name: "standard output")) }
    }
}
