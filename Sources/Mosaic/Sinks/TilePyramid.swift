import Dispatch
import Foundation
import MosaicSync

/// The levels of a tile pyramid, built as the base image's rows pass through, as libvips's
/// `dzsave` builds them: each level keeps only the rows of its current tile row (plus the
/// overlap), cuts its tiles as soon as their last row arrives, and hands every pair of rows
/// to the level below, which averages them 2x2. Memory is a few tile rows per level, however
/// long the board; the tiles are the same bytes in whatever order they are written.
///
/// Level 0 here is the base (full size); each next level is half as large, rounded up, down
/// to the last level the caller asks for. The sinks name the levels as their formats do.
final class TilePyramid {
    /// One level: its size and the rows it holds.
    struct Level {
        let width: Int
        let height: Int
        /// Rows from `bufferTop`, premultiplied RGBA, `width` pixels each.
        var rows: [UInt8] = []
        var bufferTop = 0
        /// Rows received so far.
        var received = 0
        /// The next tile row to cut.
        var nextTileRow = 0
        /// An even row waiting for its partner before it is averaged into the level below.
        var pendingRow: [UInt8]?

        var rowBytes: Int { width * 4 }
    }

    /// A tile cut from a level: its place, the pixels.
    struct Tile: Sendable {
        var level: Int
        var column: Int
        var row: Int
        var bitmap: Bitmap
    }

    let tileSize: Int
    let overlap: Int
    private(set) var levels: [Level]
    let emit: (Tile) throws(ImageEncodingError) -> Void
    /// Base rows whose tiles this pyramid cuts (a shard's strip; all of them otherwise):
    /// a tile row is cut at a level when its first row, scaled to the base, lies in it.
    let ownedRows: Range<Int>
    /// Levels whose tiles are emitted (the others are only passed through).
    let emittedLevels: Range<Int>
    /// A level whose owned rows are kept (`keptRows`): a shard's hand-over to `assemble`.
    let keptLevel: Int?
    /// The kept level's owned rows, premultiplied RGBA.
    private(set) var keptRows: [UInt8] = []

    /// The sizes of the levels of a `width` x `height` image, halved (rounded up) until
    /// `last(width, height)` says the level is the last.
    static func levelSizes(width: Int, height: Int, last: (Int, Int) -> Bool) -> [Size] {
        var sizes = [Size(width: width, height: height)]
        while !last(sizes[sizes.count - 1].width, sizes[sizes.count - 1].height) {
            let size = sizes[sizes.count - 1]
            sizes.append(Size(width: (size.width + 1) / 2, height: (size.height + 1) / 2))
        }
        return sizes
    }

    /// - Parameters:
    ///   - sizes: each level's size, the base first (`levelSizes`).
    ///   - firstRow: the base row the first band starts at (a shard starts inside the
    ///     board); it must be a multiple of 2 to the number of levels less one.
    ///   - ownedRows: the base rows whose tiles are cut (nil: all).
    ///   - emittedLevels: the levels whose tiles are emitted (nil: all).
    ///   - keptLevel: a level whose owned rows are kept in `keptRows`.
    ///   - emit: called with every tile as it is cut, on the caller's thread.
    init(
        sizes: [Size], tileSize: Int, overlap: Int, firstRow: Int = 0, ownedRows: Range<Int>? = nil, emittedLevels: Range<Int>? = nil,
        keptLevel: Int? = nil, emit: @escaping (Tile) throws(ImageEncodingError) -> Void
    ) {
        self.tileSize = tileSize
        self.overlap = overlap
        self.emit = emit
        let owned = ownedRows ?? 0..<(sizes.first?.height ?? 0)
        self.ownedRows = owned
        self.emittedLevels = emittedLevels ?? 0..<sizes.count
        self.keptLevel = keptLevel
        levels = sizes.enumerated().map { index, size in
            var level = Level(width: size.width, height: size.height)
            level.bufferTop = firstRow >> index
            level.received = firstRow >> index
            // The first tile row whose first row, at the base, is owned.
            let firstOwned = owned.lowerBound >> index
            level.nextTileRow = (firstOwned + tileSize - 1) / tileSize
            return level
        }
    }

    /// The first level row past the owned rows, at level `index`.
    func ownedEnd(_ index: Int) -> Int { (ownedRows.upperBound + (1 << index) - 1) >> index }

    /// How many tiles a level of `length` pixels has along one side.
    func tileCount(_ length: Int) -> Int { max(1, (length + tileSize - 1) / tileSize) }

    /// The base's next rows (`band` as wide as the base).
    func push(_ band: Bitmap) throws(ImageEncodingError) {
        try push(band.pixels, rows: band.height, into: 0)
    }

    /// Every row has been pushed: the levels' last rows reduced and their last tiles cut.
    func finish() throws(ImageEncodingError) {
        for index in levels.indices {
            if let pending = levels[index].pendingRow, index + 1 < levels.count {
                levels[index].pendingRow = nil
                try push(Self.reduce(pending[...], nil, width: levels[index].width), rows: 1, into: index + 1)
            }
            try cutReadyTiles(index, final: true)
        }
    }

    private func push(_ data: [UInt8], rows count: Int, into index: Int) throws(ImageEncodingError) {
        guard index < levels.count, count > 0 else { return }
        let rowBytes = levels[index].rowBytes
        if index == keptLevel {
            // The owned rows among these, kept for the hand-over.
            let first = levels[index].received, owned = (ownedRows.lowerBound >> index)..<ownedEnd(index)
            for row in 0..<count where owned.contains(first + row) {
                keptRows.append(contentsOf: data[(row * rowBytes)..<((row + 1) * rowBytes)])
            }
        }
        levels[index].rows.append(contentsOf: data[0..<(count * rowBytes)])
        levels[index].received += count
        try cutReadyTiles(index, final: false)
        // Pairs of rows, averaged into the level below.
        guard index + 1 < levels.count else { return }
        var reduced: [UInt8] = []
        var reducedRows = 0
        var row = 0
        if let pending = levels[index].pendingRow {
            reduced += Self.reduce(pending[...], data[0..<rowBytes], width: levels[index].width)
            reducedRows += 1
            levels[index].pendingRow = nil
            row = 1
        }
        while row + 1 < count {
            // Slices of the band: no copy of the rows.
            let a = data[(row * rowBytes)..<((row + 1) * rowBytes)], b = data[((row + 1) * rowBytes)..<((row + 2) * rowBytes)]
            reduced += Self.reduce(a, b, width: levels[index].width)
            reducedRows += 1
            row += 2
        }
        if row < count { levels[index].pendingRow = Array(data[(row * rowBytes)..<((row + 1) * rowBytes)]) }
        try push(reduced, rows: reducedRows, into: index + 1)
    }

    /// Cuts every tile row of level `index` whose rows (with the overlap below) have all
    /// arrived, then drops the rows no later tile needs.
    private func cutReadyTiles(_ index: Int, final: Bool) throws(ImageEncodingError) {
        let t = tileSize, o = overlap
        let height = levels[index].height, width = levels[index].width
        let rowBytes = levels[index].rowBytes
        while levels[index].nextTileRow < tileCount(height), levels[index].nextTileRow * t < ownedEnd(index) {
            let r = levels[index].nextTileRow
            let y0 = max(0, r * t - o), y1 = min(height, (r + 1) * t + o)
            guard levels[index].received >= y1 || final else { return }
            for c in 0..<tileCount(width) where emittedLevels.contains(index) {
                let x0 = max(0, c * t - o), x1 = min(width, (c + 1) * t + o)
                var bitmap = Bitmap(width: x1 - x0, height: y1 - y0)
                let top = levels[index].bufferTop
                levels[index].rows.withUnsafeBytes { source in
                    bitmap.pixels.withUnsafeMutableBytes { target in
                        for y in y0..<y1 {
                            let from = (y - top) * rowBytes + x0 * 4, to = (y - y0) * (x1 - x0) * 4, count = (x1 - x0) * 4
                            target[to..<(to + count)].copyBytes(from: source[from..<(from + count)])
                        }
                    }
                }
                try emit(Tile(level: index, column: c, row: r, bitmap: bitmap))
            }
            levels[index].nextTileRow += 1
            // The next tile row starts `overlap` rows above its first own row.
            let keepFrom = min(levels[index].received, max(0, (r + 1) * t - o))
            let drop = keepFrom - levels[index].bufferTop
            if drop > 0 {
                levels[index].rows.removeFirst(drop * rowBytes)
                levels[index].bufferTop = keepFrom
            }
        }
    }

    /// Row `a` and the row under it, `b` (nil below the last row), averaged in 2x2 blocks
    /// (the pixels that exist: a last odd column or row counts once), rounded to nearest.
    static func reduce(_ a: ArraySlice<UInt8>, _ b: ArraySlice<UInt8>?, width: Int) -> [UInt8] {
        let outWidth = (width + 1) / 2
        var out = [UInt8](repeating: 0, count: outWidth * 4)
        a.withUnsafeBufferPointer { a in
            out.withUnsafeMutableBufferPointer { out in
                func average(_ b: UnsafeBufferPointer<UInt8>?) {
                    for x in 0..<outWidth {
                        let x0 = 2 * x, hasRight = x0 + 1 < width
                        let n = (hasRight ? 2 : 1) * (b == nil ? 1 : 2)
                        for channel in 0..<4 {
                            var sum = Int(a[x0 * 4 + channel])
                            if hasRight { sum += Int(a[(x0 + 1) * 4 + channel]) }
                            if let b {
                                sum += Int(b[x0 * 4 + channel])
                                if hasRight { sum += Int(b[(x0 + 1) * 4 + channel]) }
                            }
                            out[x * 4 + channel] = UInt8((sum + n / 2) / n)
                        }
                    }
                }
                if let b { b.withUnsafeBufferPointer { average($0) } } else { average(nil) }
            }
        }
        return out
    }
}

/// How tiles are encoded.
public enum TileFormat: Hashable, Sendable {
    /// Lossless: the tiles equal the PNG render, pixel for pixel.
    case png
    /// Lossy, `quality` 1...100 (libjpeg's scale); opaque boards only.
    case jpeg(quality: Int)

    /// The files' extension.
    public var fileExtension: String {
        switch self {
        case .png: return "png"
        case .jpeg: return "jpeg"
        }
    }
}

/// Encodes and writes tiles on up to `threads` threads at once, in any order: each tile
/// is its own file, so the bytes do not depend on the order or the count.
final class TileWriter: @unchecked Sendable {
    let format: TileFormat
    let hasAlpha: Bool
    let compressionLevel: Int
    private let queue = DispatchQueue(label: "mosaic.tiles", attributes: .concurrent)
    private let slots: DispatchSemaphore
    private let group = DispatchGroup()
    private let failure = Locked<ImageEncodingError?>(nil)
    /// Tiles written, for the sink's record.
    let written = Locked(0)
    /// Tiles left out because they held only `blank`.
    let skipped = Locked(0)
    /// With `--skip-blank-tiles`: the background a tile left out holds.
    let blank: RGBA?
    /// The folder the tiles go in (a staged folder, already made).
    let root: String
    /// Folders made so far (by the caller's thread only).
    private var madeFolders: Set<String> = []
    /// A shard's writer: the folder whose tiles' checksums it keeps.
    let recordedFolder: String?
    /// The tiles written under `recordedFolder`: path in it, CRC-32 as a shard's record
    /// lists it.
    let checksums = Locked<[String: String]>([:])
    /// The pyramid a previous run left at the destination: a tile whose bytes are the same
    /// is that run's file (`StagedFolder.keepUnchanged`), not a new one.
    let previous: String?
    /// Tiles that were the previous run's, unchanged.
    let unchanged = Locked(0)

    init(
        format: TileFormat, root: String, hasAlpha: Bool, compressionLevel: Int, threads: Int, blank: RGBA? = nil, recording folder: String? = nil,
        previous: String? = nil
    ) {
        self.format = format
        self.root = root
        self.previous = previous
        self.hasAlpha = hasAlpha
        self.compressionLevel = compressionLevel
        self.blank = blank
        recordedFolder = folder
        slots = DispatchSemaphore(value: max(1, threads))
    }

    /// Makes the folder `path` goes in, once: the folders under `root` (the staged
    /// folder, which is never made again here: `StagedFolder.makeFolders`).
    func makeFolder(for path: String) throws(ImageEncodingError) {
        let parent = (path as NSString).deletingLastPathComponent
        guard !madeFolders.contains(parent) else { return }
        guard parent.hasPrefix(root + "/") else {
            throw .cannotCreate(path: parent, reason: "not inside the pyramid's folder \(root)")
        }
        try StagedFolder.makeFolders(String(parent.dropFirst(root.count + 1)), in: root)
        madeFolders.insert(parent)
    }

    /// Queues `tile` to be written at `path` (its folder made first), unless it is blank;
    /// throws an earlier tile's failure.
    func write(_ tile: Bitmap, to path: String) throws(ImageEncodingError) {
        if let error = failure.withLock({ $0 }) { throw error }
        if let blank, tile.isFilled(with: blank) {
            skipped.withLock { $0 += 1 }
            return
        }
        try makeFolder(for: path)
        slots.wait()
        group.enter()
        queue.async { [self] in
            defer {
                slots.signal()
                group.leave()
            }
            do throws(ImageEncodingError) {
                switch format {
                case .png: try tile.writeTile(to: path, hasAlpha: hasAlpha, compressionLevel: compressionLevel)
                case .jpeg(let quality): try tile.writeJPEG(to: path, quality: quality)
                }
                written.withLock { $0 += 1 }
                if let previous, StagedFolder.keepUnchanged(path.dropFirst(root.count + 1), staged: root, previous: previous) {
                    unchanged.withLock { $0 += 1 }
                }
                if let recordedFolder {
                    // The bytes as they reached the file.
                    guard let data = FileManager.default.contents(atPath: path) else {
                        throw .cannotCreate(path: path, reason: "the tile just written cannot be read back")
                    }
                    let checksum = ShardRecord.checksum(data)
                    checksums.withLock { $0[String(path.dropFirst(recordedFolder.count + 1))] = checksum }
                }
            } catch {
                failure.withLock { if $0 == nil { $0 = error } }
            }
        }
    }

    /// Waits for every queued tile; throws the first failure.
    func wait() throws(ImageEncodingError) {
        group.wait()
        if let error = failure.withLock({ $0 }) { throw error }
    }
}

extension Bitmap {
    /// A tile as PNG, written directly (its folder is renamed into place as a whole), with
    /// no Software text: the same bytes for the same pixels.
    func writeTile(to path: String, hasAlpha: Bool, compressionLevel: Int) throws(ImageEncodingError) {
        let writer = try PNGWriter(
            path: path, width: width, height: height, hasAlpha: hasAlpha, compressionLevel: compressionLevel, software: nil)
        try writer.write(self)
        try writer.finish()
    }

    /// Whether every pixel is `color` (premultiplied bytes).
    func isFilled(with color: RGBA) -> Bool {
        let word = [color.red, color.green, color.blue, color.alpha]
        return pixels.withUnsafeBufferPointer { p in
            var i = 0
            while i < p.count {
                if p[i] != word[0] || p[i + 1] != word[1] || p[i + 2] != word[2] || p[i + 3] != word[3] { return false }
                i += 4
            }
            return true
        }
    }
}
