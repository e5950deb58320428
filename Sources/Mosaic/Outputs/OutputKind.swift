import Foundation

/// A kind of output a render writes: PNG pages, a Deep Zoom or IIIF pyramid, and the
/// others registered in `OutputKinds.all`. A kind owns its destination rules (the names
/// and suffixes it takes, the folders it writes), the files it will write (for the output
/// check), its sink, its companion files (a viewer) and, for pyramids, its shard identity.
/// The renderer, the output check, the commit and the CLI know only this protocol: adding
/// a kind, with settings of its own (`OutputSetting`), is its file and its line in
/// `OutputKinds.all`.
public protocol OutputKind: Sendable {
    /// The name `--format` takes ("png", "dzi", "iiif").
    static var name: String { get }
    /// What a destination ends with to pick this kind (lowercase, with the dot); empty
    /// when only `--format` picks it (a IIIF folder).
    static var suffixes: [String] { get }
    /// Whether the board may have several pages (a pyramid shows it whole, on one page).
    static var takesPages: Bool { get }
    /// How a destination names this kind, for messages (".dzi for a Deep Zoom pyramid").
    static var hint: String { get }
    /// What the kind writes, for `--format`'s help ("one file per page"); by default its
    /// `hint`.
    static var summary: String { get }
    /// The settings it declares and reads (`OutputSetting`: `quality`, `pageSize` ...); a
    /// request giving any other is refused before the kind sees it.
    static var settings: [OutputSetting] { get }
    /// Whether a page longer than the maximum (an element longer than a page, never cut)
    /// is scaled down to fit its paper (PDF) rather than written longer (the default).
    static var scalesLongPages: Bool { get }
    /// Whether its pages have a physical size (PDF's paper): then lengths in points and
    /// millimetres are taken (`SheetOptions.lengths`, resolved by `sheetOptions(_:)`) and the
    /// print look is the default (`SheetOptions.printed`); other kinds refuse such lengths.
    static var printsOnPaper: Bool { get }
    /// The files the destination itself names, checked against the inputs before any work
    /// (none for a folder).
    static func namedFiles(_ request: OutputRequest) -> [String]

    /// Checks what the request asks of this kind before any work: the destination's name,
    /// the settings that go with it.
    ///
    /// - Throws: `OutputRequestError` (a usage error).
    static func validate(_ request: OutputRequest, options: SheetOptions) throws(OutputRequestError)

    /// The kind as `request` asks for it.
    init(_ request: OutputRequest, options: SheetOptions) throws(OutputRequestError)

    /// The sheet's options as this kind needs them laid out (a page size, a format's
    /// longest side); the options given by default.
    func sheetOptions(_ options: SheetOptions) -> SheetOptions

    /// What to tell the user of the laid-out `sheet` before drawing (a board paginated to
    /// the format's limit); none by default.
    func notes(_ sheet: ContactSheet) -> [String]

    /// What the kind will write for the laid-out `sheet`: its files, added to `check` (with
    /// the inputs already there), its sink, its companions. Checks everything it can before
    /// a pixel is drawn.
    ///
    /// - Throws: `RenderError.output` (an output that would replace an input or another program's
    ///   file, a folder that cannot be written).
    func plan(_ sheet: ContactSheet, check: OutputCheck) throws(RenderError) -> OutputPlan
}

extension OutputKind {
    public static var settings: [OutputSetting] { [] }
    public static var summary: String { hint }
    public static var scalesLongPages: Bool { false }
    public static var printsOnPaper: Bool { false }
    public func sheetOptions(_ options: SheetOptions) -> SheetOptions { options }
    public func notes(_ sheet: ContactSheet) -> [String] { [] }
}

/// The check every file-writing kind makes of its files before drawing: none is an input
/// or a folder; one already there is replaced only when mosaic wrote it (`isMosaicSheet`)
/// or the user named the output (not through a template: `OutputRequest.isFromTemplate`).
///
/// - Throws: `OutputError` from the output check, `.defaultOutputExists` for another
///   program's file at the default name.
func checkFiles(
    _ files: [String], of request: OutputRequest, against base: OutputCheck, isMosaicSheet: (String) -> Bool
) throws(OutputError) {
    let own = Set(files.filter(isMosaicSheet))
    var check = base
    for file in files { check.write(file, by: "--output") }
    check.allowReplacing(Array(own))
    try check.check()
    if request.destination == nil || request.isFromTemplate, let foreign = files.first(where: { FileManager.default.fileExists(atPath: $0) && !own.contains($0) }) {
        // A name made from a template (`--each`) was not given by the user either.
        throw request.isFromTemplate ? .wouldReplaceAForeignFile(path: foreign) : .defaultOutputExists(path: foreign)
    }
}

/// Every output kind, in the order `--format` lists them.
public enum OutputKinds {
    public static let all: [any OutputKind.Type] = [
        PNGPagesOutput.self,
        JPEGOutput.self,
        WebPOutput.self,
        AVIFOutput.self,
        JXLOutput.self,
        PDFOutput.self,
        DeepZoomOutput.self,
        IIIFOutput.self,
    ]

    /// The kind `format` names, or else the one the destination's suffix picks (PNG pages
    /// when none does: the destination is then checked by the PNG kind).
    public static func kind(for request: OutputRequest, in kinds: [any OutputKind.Type] = all) throws(OutputRequestError) -> any OutputKind.Type {
        if let format = request.format {
            for kind in kinds where kind.name == format { return kind }
            throw .unknownFormat(format, known: kinds.map { $0.name })
        }
        return kind(suffixOf: request.resolvedDestination, in: kinds) ?? PNGPagesOutput.self
    }

    /// Every setting the kinds declare, each once (by name), with the names of the kinds
    /// that take it, in registry order.
    public static func allSettings(in kinds: [any OutputKind.Type] = all) -> [(setting: OutputSetting, kinds: [String])] {
        declaredOnce(kinds.map { ($0.name, $0.settings) }, name: \.name).map { ($0.setting, $0.owners) }
    }

    /// The setting's line of help: a help that names no kind (lower case) after the names
    /// of the kinds that take it ("jpeg, webp, avif, jxl, pdf: quality 1 to 100").
    public static func help(for setting: OutputSetting, in kinds: [any OutputKind.Type] = all) -> String {
        guard let first = setting.help.first, first.isLowercase else { return setting.help }
        let takers = allSettings(in: kinds).first { $0.setting.name == setting.name }?.kinds ?? []
        return takers.joined(separator: ", ") + ": " + setting.help
    }

    /// The declaration of the setting called `name`, if a kind has one.
    public static func setting(named name: String, in kinds: [any OutputKind.Type] = all) -> OutputSetting? {
        for kind in kinds {
            if let setting = kind.settings.first(where: { $0.name == name }) { return setting }
        }
        return nil
    }

    /// Checks the values `given` for `kind`: each a setting it declares, of its kind and in
    /// its range (in the order of their names).
    ///
    /// - Throws: `OutputRequestError.unknownSetting`, `.settingNotTaken`,
    ///   `.settingOutOfRange` or `.settingValue`, naming the setting.
    public static func checkSettings(
        _ given: [String: OutputSettingValue], of kind: any OutputKind.Type, in kinds: [any OutputKind.Type] = all
    ) throws(OutputRequestError) {
        let declared = allSettings(in: kinds)
        for (name, value) in given.sorted(by: { $0.key < $1.key }) {
            guard let setting = kind.settings.first(where: { $0.name == name }) else {
                guard let takers = declared.first(where: { $0.setting.name == name })?.kinds else {
                    throw .unknownSetting(name: name, known: declared.map(\.setting.name))
                }
                throw .settingNotTaken(name: name, kind: kind.name, takers: takers)
            }
            try setting.check(value)
        }
    }

    /// What `--format` offers, from the registry: each kind's name and summary, kinds of
    /// one summary together ("png, jpeg: one file per page; pdf: ...").
    public static var help: String {
        var groups: [(names: [String], summary: String)] = []
        for kind in all {
            if let last = groups.last, last.summary == kind.summary {
                groups[groups.count - 1].names.append(kind.name)
            } else {
                groups.append(([kind.name], kind.summary))
            }
        }
        return groups.map { $0.names.joined(separator: ", ") + ": " + $0.summary }.joined(separator: "; ")
    }

    /// How a destination's suffix picks each kind, from the registry (".png; .jpg for JPEG; ...").
    public static var hints: String {
        var hints: [String] = []
        for kind in all { hints.append(kind.hint) }
        return hints.joined(separator: "; ")
    }

    /// The kinds' names, in order.
    public static var names: [String] {
        var names: [String] = []
        for kind in all { names.append(kind.name) }
        return names
    }

    /// The kind whose suffix ends `destination`, if any.
    public static func kind(suffixOf destination: String, in kinds: [any OutputKind.Type] = all) -> (any OutputKind.Type)? {
        let name = destination.lowercased()
        for kind in kinds {
            for suffix in kind.suffixes where name.hasSuffix(suffix) { return kind }
        }
        return nil
    }
}

/// What a kind will write for one render, made before drawing.
public struct OutputPlan {
    /// Where the pages go.
    public var sink: any PageSink
    /// Only these rows of the page are drawn (a shard's strip); nil for all.
    public var rows: Range<Int>?
    /// The files the summary names.
    public var files: [String]
    /// What the image map names as the pages' files (`ContactSheet.writeImageMap(output:)`).
    public var mapOutput: String?
    /// Files written once the pages are drawn (a viewer), committed after the sink.
    public var companions: (RenderSummary) throws(OutputError) -> [PendingFile]
    /// Done once everything is in place (sending the sheet to standard output).
    public var delivered: () throws(OutputError) -> Void
    /// Whether a board whose every card failed is refused (a shard's strip may hold only
    /// placeholders: it is not).
    public var refusesAllFailed = true
    /// The closing line's account of what was written: "sheet.png (1800x4518, 6.2 MB)".
    public var written: (RenderSummary) -> String

    public init(
        sink: any PageSink, rows: Range<Int>? = nil, files: [String], mapOutput: String?,
        companions: @escaping (RenderSummary) throws(OutputError) -> [PendingFile] = { _ in [] },
        delivered: @escaping () throws(OutputError) -> Void = {},
        written: @escaping (RenderSummary) -> String
    ) {
        self.sink = sink
        self.rows = rows
        self.files = files
        self.mapOutput = mapOutput
        self.companions = companions
        self.delivered = delivered
        self.written = written
    }
}
