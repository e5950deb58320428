import Foundation

/// What a tile pyramid's format decides: where its tiles go, how many levels it has, what
/// describes it. `DeepZoom` and `IIIF` are the two.
public protocol PyramidFormat: Sendable {
    /// The folder of tiles (and of the descriptors that live inside it), from the output
    /// the user named.
    func folder(for destination: String) -> String
    /// Whether a level of `width` x `height` is the pyramid's last (smallest).
    func isLastLevel(width: Int, height: Int, tileSize: Int) -> Bool
    /// The tile's path inside the folder; `level` counts from the base (0, full size).
    func tilePath(level: Int, levelCount: Int, column: Int, row: Int, base: Size, options: PyramidOptions) -> String
    /// The descriptor files: (path relative to the folder's parent or inside it, content);
    /// `inside` says which.
    func descriptors(destination: String, base: Size, levelCount: Int, options: PyramidOptions) -> [(path: String, inside: Bool, data: Data)]
    /// The tiles' file extension for `format`.
    func fileExtension(_ format: TileFormat) -> String
    /// Whether tiles may overlap.
    var allowsOverlap: Bool { get }
    /// What shard records and the viewer call the format ("dzi", "iiif").
    static var name: String { get }
    /// The suffix of a destination that names a descriptor beside the folder (".dzi"), nil
    /// when the destination is the folder itself.
    static var suffix: String? { get }
    /// What a shard record keeps of the format's own settings (IIIF's id).
    var id: String? { get }
    /// The format as a shard record describes it.
    static func restored(id: String?) -> Self
    /// A tile's path inside the folder, for the viewer, with `{level}` (Deep Zoom's level
    /// number), `{column}`, `{row}`, `{x}`, `{y}`, `{width}`, `{height}` (the region of the
    /// full board the tile covers), `{scaledWidth}`, `{scaledHeight}` (its size) and `{ext}`
    /// to fill in: the same path as `tilePath`.
    var viewerTilePath: String { get }
}

extension PyramidFormat {
    /// "dzi" or "iiif".
    public var kind: String { Self.name }
    public var id: String? { nil }

    /// The name the folder, the viewer and the shards derive from: the destination
    /// without the format's suffix.
    public static func baseName(for destination: String) -> String {
        guard let suffix, destination.lowercased().hasSuffix(suffix) else { return destination }
        return String(destination.dropLast(suffix.count))
    }
}

/// Every pyramid format, for what is found by name (a shard record) or by suffix (the
/// destination `assemble` is given): the formats of the pyramid kinds registered in
/// `OutputKinds.all` (no registry of their own).
public enum PyramidFormats {
    public static var all: [any PyramidFormat.Type] {
        var formats: [any PyramidFormat.Type] = []
        for kind in OutputKinds.all {
            if let pyramid = kind as? any PyramidKind.Type { formats.append(pyramid.formatType) }
        }
        return formats
    }

    /// The format a shard record names, with its id.
    public static func restored(name: String, id: String?) -> (any PyramidFormat)? {
        for format in all where format.name == name { return format.restored(id: id) }
        return nil
    }

    /// The destination without the suffix of the format it names (`board.dzi` -> `board`).
    public static func baseName(for destination: String) -> String {
        for format in all {
            let base = format.baseName(for: destination)
            if base != destination { return base }
        }
        return destination
    }
}

/// The files a pyramid's folders hold besides tiles, and where shards put their parts:
/// the same for every format.
public enum PyramidFiles {
    /// The marker file in a pyramid's folder: only such a folder is ever replaced.
    public static let marker = ".mosaic-pyramid"
    /// The file in a shard's folder that says what it holds.
    public static let shardRecord = "shard.json"
    /// The shard's last level's strip, exact premultiplied RGBA rows.
    public static let handOver = "handover.rgba"

    /// Shard 0's folder of the viewer's files, which `assemble` puts beside the pyramid.
    public static let viewerFolder = "viewer"

    /// Whether a file a shard wrote (`path` in its folder) is a tile: not the hand-over nor
    /// the viewer's.
    static func isTile(_ path: String) -> Bool {
        path != handOver && !path.hasPrefix(viewerFolder + "/")
    }

    /// Where shards put their parts until `assemble`: `board.shards/` beside `board.dzi`.
    public static func shardsFolder(for destination: String) -> String {
        PyramidFormats.baseName(for: destination) + ".shards"
    }

    /// Shard `index` of `count`'s folder.
    public static func shardFolder(for destination: String, index: Int, count: Int) -> String {
        shardsFolder(for: destination) + "/\(index)-of-\(count)"
    }

    /// Before any work: the pyramid's folder is absent or one mosaic wrote (holding no
    /// input `reading` knows), and a descriptor beside it (`board.dzi`) is no folder and is
    /// replaced only beside a folder mosaic wrote.
    ///
    /// - Throws: `OutputError.wouldReplaceAForeignFile`, `.outputIsAFolder`, `.outputIsAnInput`.
    public static func checkReplaceable(_ format: some PyramidFormat, destination: String, reading: OutputCheck = OutputCheck()) throws(OutputError) {
        let folder = format.folder(for: destination)
        try StagedFolder.check(folder, marker: marker, reading: reading)
        guard folder != destination, FileManager.default.fileExists(atPath: destination) else { return }
        if FileNames.isFolder(destination) { throw .outputIsAFolder(path: destination, option: "the descriptor") }
        if !FileManager.default.fileExists(atPath: folder + "/" + marker) { throw .wouldReplaceAForeignFile(path: destination) }
    }

    /// Writes `descriptors` inside `folder`, or as pending files beside it, which the
    /// caller commits after the folder.
    /// Writes the descriptors inside the staged `folder` and returns those beside it, to be
    /// renamed into place after it. With `previous` (the pyramid being replaced), a
    /// descriptor whose bytes are the same is left as it was, inside or beside.
    static func place(_ descriptors: [(path: String, inside: Bool, data: Data)], in folder: String, previous: String? = nil) throws(OutputError) -> [PendingFile] {
        var pending: [PendingFile] = []
        for descriptor in descriptors {
            if descriptor.inside {
                do {
                    try descriptor.data.write(to: URL(fileURLWithPath: folder + "/" + descriptor.path))
                } catch {
                    throw .write(.cannotCreate(path: descriptor.path, reason: (error as NSError).localizedDescription))
                }
                if let previous { _ = StagedFolder.keepUnchanged(descriptor.path[...], staged: folder, previous: previous) }
            } else {
                let file = try PendingFile(descriptor.data, at: descriptor.path)
                file.keepsAnIdenticalFile = previous != nil
                pending.append(file)
            }
        }
        return pending
    }
}

/// What a caller asks of a pyramid sink, whatever its format.
public protocol PyramidOutput: PageSink {
    /// The folder of tiles.
    var folder: String { get }
    /// The tiles written and left out as blank, once the page has ended.
    var tileCount: Int { get }
    var skippedTiles: Int { get }
    /// A shard's record of the board it rendered.
    var boardDigest: String { get set }
    /// Files a shard adds to its folder.
    var shardExtras: [(path: String, data: Data)] { get set }
    /// What the viewer needs to know of this pyramid, of `levels` levels.
    func viewerPyramid(levels: Int) -> PyramidViewer.Pyramid
    /// A shard: takes the shards' folder's shared lock (made if needed) until the sink is
    /// committed or abandoned, so that no assembly runs meanwhile.
    ///
    /// - Throws: `AssemblyError.shardsBusy` during an assembly, `.output` when the folder
    ///   cannot be made.
    func lockShards() throws(AssemblyError)
}

/// How a pyramid's tiles are cut and encoded.
public struct PyramidOptions: Hashable, Sendable {
    /// Tile side in pixels, before the overlap.
    public var tileSize: Int
    /// Pixels each tile repeats from its neighbours on every side that has one.
    public var overlap: Int
    public var format: TileFormat
    /// Tiles that are only the board's background are not written (viewers show the
    /// background there).
    public var skipBlankTiles: Bool
    /// PNG tiles: zlib level.
    public var compressionLevel: Int

    public init(tileSize: Int = 254, overlap: Int = 1, format: TileFormat = .jpeg(quality: 85), skipBlankTiles: Bool = false, compressionLevel: Int = 6) {
        self.tileSize = tileSize
        self.overlap = overlap
        self.format = format
        self.skipBlankTiles = skipBlankTiles
        self.compressionLevel = compressionLevel
    }
}

/// A page sink that writes the board as a tile pyramid: tiles cut from the bands as they
/// are drawn, every smaller level made by 2x2 averaging as the rows pass (`TilePyramid`),
/// tiles encoded on several threads (the same bytes for any count), all into a hidden
/// folder renamed into place with its descriptors by `commit()`. One page only: a pyramid
/// is how a board of any length is shown whole.
public final class PyramidSink<Format: PyramidFormat>: PyramidOutput {
    public let destination: String
    public let format: Format
    public let options: PyramidOptions
    /// The board's background (premultiplied): what a blank tile holds.
    public let background: RGBA
    public let threads: Int
    /// The folder written, once the page begins.
    public private(set) var staged: StagedFolder?
    var pyramid: TilePyramid?
    var writer: TileWriter?
    var base = Size(width: 0, height: 0)
    var hasAlpha = false
    /// Tiles left out as blank.
    public var skippedTiles: Int { writer?.skipped.withLock { $0 } ?? 0 }
    /// This process's part, when the pyramid is rendered by several (`--shard K/N`).
    public let shard: ShardPlan?
    /// Files the shard adds to its folder (shard 0: the viewer), relative path and bytes.
    public var shardExtras: [(path: String, data: Data)] = []
    /// What the shard's record says the board is (a digest of its layout): `assemble`
    /// refuses shards that rendered different boards.
    public var boardDigest = ""
    /// A shard's share of the shards' folder's lock.
    var shardsLock: ShardsLock?
    /// The shards' folder, when this shard made it: removed if the shard is abandoned or
    /// interrupted and it is empty.
    var madeShardsFolder: String?

    public init(destination: String, format: Format, options: PyramidOptions, background: RGBA, threads: Int = 1, shard: ShardPlan? = nil) {
        self.destination = destination
        self.format = format
        self.options = options
        self.background = background
        self.threads = threads
        self.shard = shard
    }

    /// The folder of tiles.
    public var folder: String { format.folder(for: destination) }

    /// How many levels the pyramid of a `size` board has.
    public static func levelCount(of size: Size, format: Format, tileSize: Int) -> Int {
        TilePyramid.levelSizes(width: size.width, height: size.height) { format.isLastLevel(width: $0, height: $1, tileSize: tileSize) }.count
    }

    public func viewerPyramid(levels: Int) -> PyramidViewer.Pyramid {
        PyramidViewer.Pyramid(
            kind: format.kind, tilePath: format.viewerTilePath, tileSize: options.tileSize, overlap: format.allowsOverlap ? options.overlap : 0,
            fileExtension: format.fileExtension(options.format), levels: levels, folder: folder)
    }

    public func lockShards() throws(AssemblyError) {
        guard shard != nil, shardsLock == nil else { return }
        let root = PyramidFiles.shardsFolder(for: destination)
        if !FileManager.default.fileExists(atPath: root) {
            OutputFolders.createParents(of: root)
            if OutputFolders.makeFolder(root, mode: 0o755) {
                madeShardsFolder = root
                TemporaryFiles.register(emptyFolder: root)
            } else {
                // Another shard made it meanwhile: fine.
                let failure = OutputFolders.Failure(path: root, errno: errno)
                guard FileNames.isFolder(root) else { throw .output(.write(.cannotCreate(path: root, reason: failure.reason))) }
            }
        }
        shardsLock = try ShardsLock(root, exclusive: false)
    }

    /// Lets the shards' folder's lock go; the folder this shard made goes too if empty.
    func releaseShards(keeping: Bool) {
        shardsLock?.release()
        guard let made = madeShardsFolder else { return }
        TemporaryFiles.unregister(made)
        if !keeping { _ = FileNames.withSystemPath(made) { rmdir($0) } }
        madeShardsFolder = nil
    }

    public func beginPage(_ index: Int, of count: Int, size: Size, hasAlpha: Bool) throws(ImageEncodingError) {
        guard count == 1 else { throw .rowMismatch(path: destination, message: "a tile pyramid holds one page, and this board has \(count)") }
        if case .jpeg = options.format, hasAlpha {
            throw .rowMismatch(path: destination, message: "JPEG tiles cannot hold a transparent background")
        }
        let target = shard.map { PyramidFiles.shardFolder(for: destination, index: $0.index, count: $0.count) } ?? folder
        let staged: StagedFolder
        do {
            if shard != nil {
                let shards = PyramidFiles.shardsFolder(for: destination)
                try OutputFolders.make(shards)
                // Any shard's staged folder that a SIGKILL left (its process gone).
                StagedFolder.removeAllLeftovers(in: shards)
            }
            staged = try StagedFolder(destination: target, marker: PyramidFiles.marker)
        } catch let OutputError.write(inner) {
            throw inner
        } catch {
            throw .cannotCreate(path: target, reason: (error as? OutputFolders.Failure)?.reason ?? (error as NSError).localizedDescription)
        }
        self.staged = staged
        self.hasAlpha = hasAlpha
        base = size
        let tileSize = options.tileSize
        let allSizes = TilePyramid.levelSizes(width: size.width, height: size.height) { [format] in
            format.isLastLevel(width: $0, height: $1, tileSize: tileSize)
        }
        levelCount = allSizes.count
        // A shard builds the levels of its plan, of its strip.
        let sizes = shard.map { Array(allSizes.prefix($0.levels)) } ?? allSizes
        // The pyramid a previous run wrote here (mosaic's: checked before drawing): its
        // tiles whose bytes come out the same are kept, so that only changed tiles are new.
        let previous = shard == nil && FileNames.isFolder(target) && FileManager.default.fileExists(atPath: target + "/" + PyramidFiles.marker) ? target : nil
        let writer = TileWriter(
            format: options.format, root: staged.path, hasAlpha: hasAlpha, compressionLevel: options.compressionLevel, threads: threads,
            blank: options.skipBlankTiles ? background : nil, recording: shard == nil ? nil : staged.path, previous: previous)
        self.writer = writer
        let root = staged.path, format = self.format, options = self.options, base = size, levelCount = allSizes.count
        pyramid = TilePyramid(
            sizes: sizes, tileSize: options.tileSize, overlap: format.allowsOverlap ? options.overlap : 0, firstRow: shard?.drawn.lowerBound ?? 0,
            ownedRows: shard?.strip, keptLevel: shard.map { $0.levels - 1 }
        ) { (tile) throws(ImageEncodingError) in
            let relative = format.tilePath(level: tile.level, levelCount: levelCount, column: tile.column, row: tile.row, base: base, options: options)
            try writer.write(tile.bitmap, to: root + "/" + relative)
        }
    }

    public func write(band: Bitmap) throws(ImageEncodingError) {
        guard let pyramid else { throw .rowMismatch(path: destination, message: "a band before the page began") }
        try namingTheOutput { () throws(ImageEncodingError) in try pyramid.push(band) }
    }

    public func endPage() throws(ImageEncodingError) {
        guard let pyramid, let writer else { throw .rowMismatch(path: destination, message: "no page to end") }
        try namingTheOutput { () throws(ImageEncodingError) in
            try pyramid.finish()
            try writer.wait()
        }
    }

    /// A tile that could not be written (a full disk) is the pyramid's failure: named by
    /// its destination, not by a tile in the hidden staging folder that is removed.
    func namingTheOutput(_ body: () throws(ImageEncodingError) -> Void) throws(ImageEncodingError) {
        do {
            try body()
        } catch {
            if case .cannotWrite(_, let reason) = error { throw .cannotWrite(path: destination, reason: reason) }
            throw error
        }
    }

    /// The pyramid's levels (Deep Zoom) or scale factors (IIIF), once the page began.
    public private(set) var levelCount = 0

    /// The tiles written, once the page has ended.
    public var tileCount: Int { writer?.written.withLock { $0 } ?? 0 }

    /// Of those, the tiles a previous run left at the destination with the same bytes, kept
    /// as they were; nil when there was no previous pyramid.
    public var unchangedTiles: Int? { writer?.previous == nil ? nil : writer?.unchanged.withLock { $0 } }

    /// Writes the descriptors and renames the folder (then a descriptor beside it) into place.
    /// A shard writes its record and hand-over instead, and renames its folder into place.
    public func commit() throws(ImageEncodingError) {
        guard let staged, let pyramid else { throw .rowMismatch(path: destination, message: "nothing to commit") }
        if let shard, let writer {
            // Every file but the record, with its checksum: assemble checks them before it builds.
            var files = writer.checksums.withLock { $0 }
            let handOver = Data(pyramid.keptRows)
            files[PyramidFiles.handOver] = ShardRecord.checksum(handOver)
            for extra in shardExtras { files[extra.path] = ShardRecord.checksum(extra.data) }
            let record = ShardRecord(
                plan: shard, width: base.width, height: base.height, levelCount: levelCount, options: options,
                kind: format.kind, formatID: format.id, boardDigest: boardDigest,
                handOverWidth: pyramid.levels[shard.levels - 1].width, tiles: tileCount, hasAlpha: hasAlpha, background: background,
                files: files)
            do {
                try handOver.write(to: URL(fileURLWithPath: staged.path + "/" + PyramidFiles.handOver))
                for extra in shardExtras {
                    try StagedFolder.makeFolders((extra.path as NSString).deletingLastPathComponent, in: staged.path)
                    try extra.data.write(to: URL(fileURLWithPath: staged.path + "/" + extra.path))
                }
                try record.encoded.write(to: URL(fileURLWithPath: staged.path + "/" + PyramidFiles.shardRecord))
                try staged.commit()
                releaseShards(keeping: true)
            } catch let error as OutputError {
                if case .write(let inner) = error { throw inner }
                throw .cannotCreate(path: staged.destination, reason: error.description)
            } catch {
                throw .cannotCreate(path: staged.destination, reason: (error as NSError).localizedDescription)
            }
            return
        }
        let descriptors = format.descriptors(destination: destination, base: base, levelCount: levelCount, options: options)
        do throws(OutputError) {
            let pending = try PyramidFiles.place(descriptors, in: staged.path, previous: writer?.previous)
            if let previous = writer?.previous { _ = StagedFolder.keepUnchanged(PyramidFiles.marker[...], staged: staged.path, previous: previous) }
            try staged.commit()
            for file in pending { try file.commit() }
        } catch {
            if case .write(let inner) = error { throw inner }
            throw .cannotCreate(path: destination, reason: error.description)
        }
    }

    public func abandon() {
        try? writer?.wait()
        staged?.discard()
        releaseShards(keeping: false)
    }
}
