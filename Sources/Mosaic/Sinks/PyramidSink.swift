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
    /// The largest overlap the format allows.
    var allowsOverlap: Bool { get }
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
public final class PyramidSink<Format: PyramidFormat>: PageSink {
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
    /// Tiles left out as blank.
    public private(set) var skippedTiles = 0

    /// The marker file in a pyramid's folder: only such a folder is ever replaced.
    public static var marker: String { ".mosaic-pyramid" }

    public init(destination: String, format: Format, options: PyramidOptions, background: RGBA, threads: Int = 1) {
        self.destination = destination
        self.format = format
        self.options = options
        self.background = background
        self.threads = threads
    }

    /// The folder of tiles.
    public var folder: String { format.folder(for: destination) }

    public func beginPage(_ index: Int, of count: Int, size: Size, hasAlpha: Bool) throws(ImageEncodingError) {
        guard count == 1 else { throw .rowMismatch(path: destination, message: "a tile pyramid holds one page, and this board has \(count)") }
        if case .jpeg = options.format, hasAlpha {
            throw .rowMismatch(path: destination, message: "JPEG tiles cannot hold a transparent background")
        }
        let staged: StagedFolder
        do {
            staged = try StagedFolder(destination: folder, marker: Self.marker)
        } catch {
            throw .cannotCreate(path: folder, reason: "\(error)")
        }
        self.staged = staged
        base = size
        let tileSize = options.tileSize
        let sizes = TilePyramid.levelSizes(width: size.width, height: size.height) { [format] in
            format.isLastLevel(width: $0, height: $1, tileSize: tileSize)
        }
        let writer = TileWriter(format: options.format, hasAlpha: hasAlpha, compressionLevel: options.compressionLevel, threads: threads)
        self.writer = writer
        let root = staged.path, format = self.format, options = self.options, base = size, levelCount = sizes.count
        let background = self.background
        var madeFolders: Set<String> = []
        pyramid = TilePyramid(sizes: sizes, tileSize: options.tileSize, overlap: format.allowsOverlap ? options.overlap : 0) {
            [unowned self] (tile) throws(ImageEncodingError) in
            if options.skipBlankTiles, tile.bitmap.isFilled(with: background) {
                skippedTiles += 1
                return
            }
            let relative = format.tilePath(level: tile.level, levelCount: levelCount, column: tile.column, row: tile.row, base: base, options: options)
            let path = root + "/" + relative
            let parent = (path as NSString).deletingLastPathComponent
            if !madeFolders.contains(parent) {
                do {
                    try FileManager.default.createDirectory(atPath: parent, withIntermediateDirectories: true)
                } catch {
                    throw .cannotCreate(path: parent, reason: (error as NSError).localizedDescription)
                }
                madeFolders.insert(parent)
            }
            try writer.write(tile.bitmap, to: path)
        }
    }

    public func write(band: Bitmap) throws(ImageEncodingError) {
        guard let pyramid else { throw .rowMismatch(path: destination, message: "a band before the page began") }
        try pyramid.push(band)
    }

    public func endPage() throws(ImageEncodingError) {
        guard let pyramid, let writer else { throw .rowMismatch(path: destination, message: "no page to end") }
        try pyramid.finish()
        try writer.wait()
    }

    /// The pyramid's levels (Deep Zoom) or scale factors (IIIF), once the page began.
    public var levelCount: Int { pyramid?.levels.count ?? 0 }

    /// The tiles written, once the page has ended.
    public var tileCount: Int { writer?.written.withLock { $0 } ?? 0 }

    /// Writes the descriptors and renames the folder (then a descriptor beside it) into place.
    public func commit() throws(ImageEncodingError) {
        guard let staged, let pyramid else { throw .rowMismatch(path: destination, message: "nothing to commit") }
        let descriptors = format.descriptors(destination: destination, base: base, levelCount: pyramid.levels.count, options: options)
        var pending: [PendingFile] = []
        do {
            for descriptor in descriptors {
                if descriptor.inside {
                    try descriptor.data.write(to: URL(fileURLWithPath: staged.path + "/" + descriptor.path))
                } else {
                    pending.append(try PendingFile(descriptor.data, at: descriptor.path))
                }
            }
            try staged.commit()
            for file in pending { try file.commit() }
        } catch let error as SheetError {
            if case .output(let inner) = error { throw inner }
            throw .cannotCreate(path: destination, reason: error.description)
        } catch {
            throw .cannotCreate(path: destination, reason: (error as NSError).localizedDescription)
        }
    }

    public func abandon() {
        try? writer?.wait()
        staged?.discard()
    }
}
