import Foundation

/// PNG pages: `sheet.png`, or `sheet-1.png`, `sheet-2.png`, ... for a paginated board; `-`
/// sends a one-page sheet to standard output (written to a temporary file first, so a
/// failed run sends nothing).
public struct PNGPagesOutput: OutputKind {
    public static let name = "png"
    public static let suffixes = [".png"]
    public static let takesPages = true
    public static let hint = ".png"

    let request: OutputRequest
    let options: SheetOptions

    public static func namedFiles(_ request: OutputRequest) -> [String] {
        request.toStandardOutput ? [] : [request.resolvedDestination]
    }

    public static func validate(_ request: OutputRequest, options: SheetOptions) throws(OutputRequestError) {
        if request.toStandardOutput {
            if request.json == "-" { throw .settings("--output - and --json - would both write to standard output") }
            return
        }
        let destination = request.resolvedDestination
        guard destination.lowercased().hasSuffix(".png") else {
            var hints: [String] = []
            for kind in OutputKinds.all where kind.name != name { hints.append(kind.hint) }
            let others = hints.joined(separator: "; ")
            throw .destination("--output: \"\(destination)\" does not end in .png (or \(others))")
        }
        if request.pyramid.shard != nil {
            throw .settings("--shard renders part of a tile pyramid: name one with -o NAME.dzi or --format iiif")
        }
    }

    public init(_ request: OutputRequest, options: SheetOptions) {
        self.request = request
        self.options = options
    }

    /// The file the sink writes: the destination, or for standard output a temporary file.
    var sinkDestination: String {
        request.toStandardOutput ? NSTemporaryDirectory() + "mosaic-stdout-\(getpid()).png" : request.resolvedDestination
    }

    public func plan(_ sheet: ContactSheet, check base: OutputCheck) throws(SheetError) -> OutputPlan {
        let destination = request.resolvedDestination
        let pageCount = sheet.layout.pageCount
        if request.toStandardOutput && pageCount > 1 { throw .onePageOnly(pageCount: pageCount) }
        let pages = request.toStandardOutput ? [] : PNGSink.pagePaths(for: destination, pageCount: pageCount)
        // Pages already there that mosaic wrote (read once: their PNG text says so).
        let ownSheets = Set(pages.filter(PNGSink.isMosaicSheet))
        var check = base
        for page in pages { check.write(page, by: "--output") }
        check.allowReplacing(Array(ownSheets))
        try check.check()
        if request.destination == nil, let foreign = pages.first(where: { FileManager.default.fileExists(atPath: $0) && !ownSheets.contains($0) }) {
            throw .wouldReplaceAForeignFile(path: foreign)
        }
        let sink = PNGSink(destination: sinkDestination, compressionLevel: options.compressionLevel, limits: options.limits, threads: options.jobs)
        let sent = sinkDestination
        return OutputPlan(
            sink: sink, files: request.toStandardOutput ? ["standard output"] : pages,
            mapOutput: request.toStandardOutput ? nil : destination,
            delivered: { () throws(SheetError) in if request.toStandardOutput { try Self.send(sent) } },
            written: { summary in Self.pages(summary.files, sheet: sheet) })
    }

    /// Sends the PNG at `path` to standard output and removes it.
    static func send(_ path: String) throws(SheetError) {
        // Registered, so that a closed pipe (SIGPIPE) or Ctrl-C while sending removes it.
        TemporaryFiles.register(path)
        defer {
            unlink(path)
            TemporaryFiles.unregister(path)
        }
        guard let png = FileManager.default.contents(atPath: path) else {
            throw .cannotSend(path: path)
        }
        FileHandle.standardOutput.write(png)
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
}
