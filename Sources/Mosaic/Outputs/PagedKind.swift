import Foundation

/// What the kinds that write one file per page share (`PNGPagesOutput`, `JPEGOutput`,
/// `WebPOutput`, `AVIFOutput`): pages named `NAME.EXT` or `NAME-1.EXT`, `NAME-2.EXT`, ...;
/// a page already there replaced only when mosaic wrote it or the user named the output;
/// a board longer than the format allows paginated to its limit, with a note. A kind says
/// its sink, its files' mark, its limit and its settings; the rest is here.
public protocol PagedKind: OutputKind {
    /// The longest side a page of this format may have; nil for no limit of its own.
    static var maximumSide: Int? { get }
    /// Whether the file at `path` is one mosaic wrote in this format (it may be replaced).
    static func isMosaicSheet(_ path: String) -> Bool
    var request: OutputRequest { get }
    var options: SheetOptions { get }
    /// The sink that writes the pages to `destination`.
    func sink(destination: String) -> any PageSink
}

extension PagedKind {
    public static var takesPages: Bool { true }

    public static func namedFiles(_ request: OutputRequest) -> [String] {
        request.toStandardOutput ? [] : [request.resolvedDestination]
    }

    /// What a paged kind checks by default: `validatePaged` (a kind with checks of its own,
    /// JPEG's opaque background, calls it first).
    public static func validate(_ request: OutputRequest, options: SheetOptions) throws(OutputRequestError) {
        try validatePaged(request)
    }

    /// The destination ends with one of the kind's suffixes (or is `-`, standard output);
    /// `--shard` is a pyramid's.
    static func validatePaged(_ request: OutputRequest) throws(OutputRequestError) {
        if request.toStandardOutput {
            if request.json == "-" { throw .settings("--output - and --json - would both write to standard output") }
            return
        }
        let destination = request.resolvedDestination
        guard suffixes.contains(where: { destination.lowercased().hasSuffix($0) }) else {
            var hints: [String] = []
            for kind in OutputKinds.all where kind.name != name { hints.append(kind.hint) }
            throw .destination("--output: \"\(destination)\" does not end in \(suffixes.joined(separator: " or ")) (or \(hints.joined(separator: "; ")))")
        }
        if request.shard != nil {
            throw .settings("--shard renders part of a tile pyramid: name one with -o NAME.dzi or --format iiif")
        }
    }

    /// A page as long as the format allows at most: `maxHeight` capped at its limit, so a
    /// longer board is paginated instead of refused.
    public func sheetOptions(_ options: SheetOptions) -> SheetOptions {
        guard let limit = Self.maximumSide else { return options }
        var capped = options
        capped.maxHeight = min(options.maxHeight ?? limit, limit)
        return capped
    }

    public func notes(_ sheet: ContactSheet) -> [String] {
        // Only a board the format's limit paginated (not one the user's --max-height did),
        // written to files (to standard output such a board is refused, and the error says why).
        guard let limit = Self.maximumSide, (options.maxHeight ?? Int.max) > limit, sheet.layout.pageCount > 1, !request.toStandardOutput
        else { return [] }
        let files = PageNames.paths(for: request.resolvedDestination, pageCount: sheet.layout.pageCount)
        return [
            "the board is longer than \(Self.name.uppercased())'s \(limit) px: written as \(files.count) pages (\(files[0]) ... \(files[files.count - 1])); set --max-height to choose where it breaks"
        ]
    }

    /// The file the sink writes: the destination, or for standard output a temporary file
    /// (sent when complete, so that a failed run sends nothing).
    var sinkDestination: String {
        request.toStandardOutput
            ? NSTemporaryDirectory() + "mosaic-stdout-\(getpid())" + (Self.suffixes.first ?? "") : request.resolvedDestination
    }

    public func plan(_ sheet: ContactSheet, check base: OutputCheck) throws(RenderError) -> OutputPlan {
        let destination = request.resolvedDestination
        let pageCount = sheet.layout.pageCount
        if request.toStandardOutput && pageCount > 1 {
            // Split by the format's own limit (no --max-height, or a longer one), or by --max-height.
            let formatLimit = Self.maximumSide.flatMap { limit in (options.maxHeight ?? Int.max) > limit ? limit : nil }
            throw .output(.onePageOnly(format: Self.name.uppercased(), pageCount: pageCount, formatLimit: formatLimit))
        }
        let pages = request.toStandardOutput ? [] : PageNames.paths(for: destination, pageCount: pageCount)
        try RenderError.output { () throws(OutputError) in try checkFiles(pages, of: request, against: base, isMosaicSheet: Self.isMosaicSheet) }
        let sent = sinkDestination, toStandardOutput = request.toStandardOutput
        return OutputPlan(
            sink: sink(destination: sent), files: toStandardOutput ? ["standard output"] : pages,
            mapOutput: toStandardOutput ? nil : destination,
            delivered: { () throws(OutputError) in if toStandardOutput { try StandardOutput.send(file: sent) } },
            written: { summary in Self.pages(summary.files, sheet: sheet) })
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
