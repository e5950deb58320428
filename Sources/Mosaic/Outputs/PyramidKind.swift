import Foundation

/// What the two tile-pyramid kinds share (`DeepZoomOutput`, `IIIFOutput`): one page, tiles
/// in a staged folder renamed into place with the descriptors, the viewer beside it, and
/// part K of N into `NAME.shards/` for `mosaic assemble`. A kind names its format, its
/// default tile size and its destination rule; the rest is here.
public protocol PyramidKind: OutputKind {
    associatedtype Format: PyramidFormat
    /// The tile side when `--tile-size` is not given.
    static var defaultTileSize: Int { get }
    /// The format, as the request sets it (a IIIF id).
    var format: Format { get }
    var request: OutputRequest { get }
    var options: SheetOptions { get }
    /// The tiles' settings.
    var pyramidOptions: PyramidOptions { get }
}

extension PyramidKind {
    public static var takesPages: Bool { false }
    /// The kind's format, for `PyramidFormats`.
    static var formatType: any PyramidFormat.Type { Format.self }

    /// What every pyramid refuses, whatever its format.
    static func validatePyramid(_ request: OutputRequest, options: SheetOptions) throws(OutputRequestError) {
        if request.toStandardOutput { throw .settings("--output - writes one PNG; a pyramid needs a name") }
        if request.shard != nil, request.json != nil {
            throw .settings("--shard and --json: write the map with mosaic layout, or in the run without --shard")
        }
        if options.maxHeight != nil {
            throw .settings("a tile pyramid shows the whole board, one page: drop \(options.direction == .vertical ? "--max-height" : "--max-width")")
        }
    }

    /// The tiles' settings a request asks for, on a board whose background is opaque or
    /// not, with `overlap` pixels repeated (a format without overlap: 0).
    static func pyramidOptions(_ request: OutputRequest, format: Format, overlap: Int, opaque: Bool) throws(OutputRequestError) -> PyramidOptions {
        let encoding: TileFormat
        switch request.choice(PyramidSettings.tileFormat) ?? (opaque ? "jpeg" : "png") {
        case "jpeg":
            guard opaque else { throw .settings("--tile-format jpeg: the board's background is transparent, and JPEG has no alpha; use png") }
            encoding = .jpeg(quality: request.integer(PyramidSettings.tileQuality) ?? 85)
        default: encoding = .png
        }
        return PyramidOptions(
            tileSize: request.integer(PyramidSettings.tileSize) ?? defaultTileSize, overlap: format.allowsOverlap ? overlap : 0, format: encoding,
            skipBlankTiles: request.flag(PyramidSettings.skipBlankTiles))
    }

    public func plan(_ sheet: ContactSheet, check base: OutputCheck) throws(RenderError) -> OutputPlan {
        let destination = request.resolvedDestination
        let background = options.style.background.premultiplied
        let size = sheet.layout.pageSize(0)
        let levels = PyramidSink<Format>.levelCount(of: size, format: format, tileSize: pyramidOptions.tileSize)
        let shard = request.shard.flatMap(ShardPlan.parse).map {
            ShardPlan(
                index: $0.index, count: $0.count, height: size.height, tileSize: pyramidOptions.tileSize, overlap: pyramidOptions.overlap,
                maximumLevels: levels)
        }
        let sink = PyramidSink(destination: destination, format: format, options: pyramidOptions, background: background, threads: options.jobs, shard: shard)
        let viewerTitle = options.title ?? sheet.catalog.title ?? "mosaic board"
        if let shard { return try shardPlan(sheet, shard: shard, sink: sink, levels: levels, viewerTitle: viewerTitle, check: base) }
        // Before drawing: the named files and the map against every file read; the folder
        // absent or one mosaic wrote, holding no input.
        var check = base
        for file in Self.namedFiles(request) { check.write(file, by: "--output") }
        let viewer = request.flag(PyramidSettings.viewer) ? PyramidViewer(destination: destination) : nil
        if let viewer {
            check.write(viewer.page, by: "--output (the viewer)")
            check.write(viewer.mapScript, by: "--output (the viewer's map)")
            for file in [viewer.page, viewer.mapScript] where !PyramidViewer.mayReplace(file) {
                throw .output(.wouldReplaceAForeignFile(path: file))
            }
        }
        let folder = sink.folder
        if let json = request.json, json != "-", OutputCheck.resolved(json).hasPrefix(OutputCheck.resolved(folder) + "/") {
            check.write(folder + "/" + (json as NSString).lastPathComponent, by: "--json")
        }
        try RenderError.output { [check] () throws(OutputError) in
            try check.check()
            // The folder absent or mosaic's, holding no input; a descriptor beside it mosaic's.
            try PyramidFiles.checkReplaceable(format, destination: destination, reading: check)
        }
        return OutputPlan(
            sink: sink, files: [destination], mapOutput: destination,
            companions: { (_) throws(OutputError) in
                // The viewer beside it, put in place with the pyramid.
                guard let viewer else { return [] }
                let shown = sink.viewerPyramid(levels: levels)
                let files = [
                    try PendingFile(viewer.html(title: viewerTitle), at: viewer.page),
                    try PendingFile(at: viewer.mapScript) { stream throws(OutputError) in try viewer.writeMap(sheet, pyramid: shown, to: stream) },
                ]
                // A file whose bytes are the same is left as it was.
                for file in files { file.keepsAnIdenticalFile = true }
                return files
            },
            written: { _ in
                var written = "\(destination) (\(size.width)x\(size.height), \(sink.tileCount) tiles"
                if sink.skippedTiles > 0 { written += ", \(sink.skippedTiles) blank left out" }
                if let unchanged = sink.unchangedTiles { written += ", \(sink.tileCount - unchanged) changed" }
                written += ", \(CaptionMode.humanSize(Self.treeSize(folder))))"
                if let viewer { written += "; viewer \(viewer.page)" }
                return written
            })
    }

    /// Part K of N of the pyramid: its strip's tiles and the hand-over, in NAME.shards/K-of-N
    /// (renamed into place whole; a shard run again replaces its own part only).
    func shardPlan(
        _ sheet: ContactSheet, shard: ShardPlan, sink: PyramidSink<Format>, levels: Int, viewerTitle: String, check: OutputCheck
    ) throws(RenderError) -> OutputPlan {
        let destination = request.resolvedDestination
        let part = PyramidFiles.shardFolder(for: destination, index: shard.index, count: shard.count)
        try RenderError.output { () throws(OutputError) in
            try check.check()
            try StagedFolder.check(part, marker: PyramidFiles.marker, reading: check)
        }
        do { try sink.lockShards() } catch { throw .assembly(error) }
        sink.boardDigest = sheet.digest
        if shard.index == 0, request.flag(PyramidSettings.viewer) {
            // Shard 0 carries the viewer, which assemble puts beside the pyramid.
            let viewer = PyramidViewer(destination: destination)
            let map = JSONStream()
            try RenderError.output { () throws(OutputError) in try viewer.writeMap(sheet, pyramid: sink.viewerPyramid(levels: levels), to: map) }
            sink.shardExtras = [(PyramidFiles.viewerFolder + "/page", viewer.html(title: viewerTitle)), (PyramidFiles.viewerFolder + "/map", map.data)]
        }
        let height = sheet.layout.pageSize(0).height
        var plan = OutputPlan(
            sink: sink, rows: shard.drawn, files: [part], mapOutput: nil,
            written: { _ in
                "shard \(shard.index)/\(shard.count) of \(destination): rows \(shard.strip.lowerBound)-\(shard.strip.upperBound) of \(height), \(sink.tileCount) tiles in \(part); when all \(shard.count) are done: mosaic assemble \(destination)"
            })
        plan.refusesAllFailed = false
        return plan
    }

    /// The bytes of the files under `folder`, at any depth.
    static func treeSize(_ folder: String) -> Int {
        guard let enumerator = FileManager.default.enumerator(atPath: folder) else { return 0 }
        var total = 0
        while let relative = enumerator.nextObject() as? String {
            if let info = FileNames.status(folder + "/" + relative), (info.st_mode & S_IFMT) == S_IFREG { total += Int(info.st_size) }
        }
        return total
    }
}

/// The settings every tile pyramid takes, declared once for the pyramid kinds (a format's
/// own, Deep Zoom's overlap or IIIF's id, are declared by its kind).
public enum PyramidSettings {
    /// The tile side; nil: the kind's `defaultTileSize`.
    public static let tileSize = OutputSetting(
        name: "tileSize", help: "Pyramids: tile side, pixels (default: 254 for dzi, 256 for iiif).", kind: .integer(default: nil, range: 16...8192))
    /// The tiles' encoding; nil: JPEG for an opaque board, PNG for a transparent one.
    public static let tileFormat = OutputSetting(
        name: "tileFormat", help: "Pyramids: tile encoding (default: jpeg, or png for a transparent board).",
        kind: .choice(default: nil, values: ["png", "jpeg"]))
    /// JPEG tiles' quality.
    public static let tileQuality = OutputSetting(name: "tileQuality", help: "JPEG tiles: quality 1 to 100.", kind: .integer(default: 85, range: 1...100))
    /// Tiles that hold only the background are left out.
    public static let skipBlankTiles = OutputSetting(
        name: "skipBlankTiles", help: "Pyramids: leave out tiles of background only.", kind: .flag(default: false))
    /// The viewer page beside the pyramid.
    public static let viewer = OutputSetting(
        name: "viewer", help: "Pyramids: the NAME.html viewer beside the pyramid (default: on).", kind: .flag(default: true))

    /// What every pyramid kind takes.
    public static let all = [tileSize, tileFormat, tileQuality, skipBlankTiles, viewer]
}
