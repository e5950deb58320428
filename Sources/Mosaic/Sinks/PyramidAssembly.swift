import Foundation

/// `mosaic assemble board.dzi`: the shards' parts made one pyramid. Every shard's record
/// must be there and describe the same board (else nothing is touched and the missing or
/// disagreeing shards are named); their tiles are moved into one folder, the levels above
/// the shards' are built from their hand-overs exactly as one process builds them, the
/// descriptors and the viewer written, and the folder renamed into place: the same bytes
/// as a render in one process.
public enum PyramidAssembly {
    /// What was assembled.
    public struct Summary: Sendable {
        public var shards: Int
        public var width: Int
        public var height: Int
        public var tiles: Int
        /// The files put in place: the descriptor (or the IIIF folder) and the viewer's.
        public var files: [String]
    }

    /// Assembles the pyramid whose shards were written for `destination`.
    ///
    /// - Throws: `SheetError.incompleteShards` naming the shards missing,
    ///   `.shardsDisagree` when their records describe different boards, `.output` when a
    ///   file cannot be moved or written.
    public static func assemble(_ destination: String, threads: Int = 1) throws(SheetError) -> Summary {
        let root = PyramidFiles.shardsFolder(for: destination)
        var records: [Int: (folder: String, record: ShardRecord)] = [:]
        var count: Int?
        let names = (try? FileManager.default.contentsOfDirectory(atPath: root)) ?? []
        for name in names where !name.hasPrefix(".") {
            let folder = root + "/" + name
            guard let data = FileManager.default.contents(atPath: folder + "/" + PyramidFiles.shardRecord),
                let record = try? JSONDecoder().decode(ShardRecord.self, from: data)
            else { continue }
            if let count, count != record.plan.count {
                throw .shardsDisagree(path: root, detail: "shards of \(count) and of \(record.plan.count) processes")
            }
            count = record.plan.count
            records[record.plan.index] = (folder, record)
        }
        guard let count else { throw .incompleteShards(path: root, missing: [], count: 0) }
        let missing = (0..<count).filter { records[$0] == nil }
        guard missing.isEmpty else { throw .incompleteShards(path: root, missing: missing, count: count) }
        let first = records[0]!.record  // present: none is missing
        for index in 1..<count where records[index]!.record.board != first.board {
            throw .shardsDisagree(path: root, detail: "shard \(index) rendered another board than shard 0 (other inputs, options or version)")
        }
        if first.kind == "iiif" {
            return try assemble(destination, format: IIIF(id: first.iiifID), records: records, count: count, threads: threads)
        }
        return try assemble(destination, format: DeepZoom(), records: records, count: count, threads: threads)
    }

    static func assemble<Format: PyramidFormat>(
        _ destination: String, format: Format, records: [Int: (folder: String, record: ShardRecord)], count: Int, threads: Int
    ) throws(SheetError) -> Summary {
        let first = records[0]!.record  // checked by the caller
        let options = first.options
        let base = Size(width: first.width, height: first.height)
        let folder = format.folder(for: destination)
        try StagedFolder.check(folder, marker: PyramidFiles.marker)
        let staged = try StagedFolder(destination: folder, marker: PyramidFiles.marker)
        // The shards' tiles, moved (a rename each: the shards share the storage).
        var tiles = 0
        let writer = TileWriter(
            format: options.format, hasAlpha: first.hasAlpha, compressionLevel: options.compressionLevel, threads: threads,
            blank: options.skipBlankTiles ? first.background : nil)
        for index in 0..<count {
            let shardFolder = records[index]!.folder
            let enumerator = FileManager.default.enumerator(atPath: shardFolder)
            while let relative = enumerator?.nextObject() as? String {
                let name = (relative as NSString).lastPathComponent
                guard !relative.hasPrefix("viewer"), name != PyramidFiles.shardRecord, name != PyramidFiles.handOver,
                    name != PyramidFiles.marker
                else { continue }
                var isFolder: ObjCBool = false
                guard FileManager.default.fileExists(atPath: shardFolder + "/" + relative, isDirectory: &isFolder), !isFolder.boolValue else { continue }
                let target = staged.path + "/" + relative
                do throws(ImageEncodingError) { try writer.makeFolder(for: target) } catch { throw .output(error) }
                guard rename(shardFolder + "/" + relative, target) == 0 else {
                    throw .output(.cannotRename(path: target, reason: String(cString: strerror(errno))))
                }
                tiles += 1
            }
        }
        // The levels above the shards', from their hand-overs, as one process builds them.
        let sizes = TilePyramid.levelSizes(width: base.width, height: base.height) { format.isLastLevel(width: $0, height: $1, tileSize: options.tileSize) }
        let shardLevels = first.plan.levels
        if shardLevels < sizes.count {
            let pyramid = TilePyramid(
                sizes: Array(sizes[(shardLevels - 1)...]), tileSize: options.tileSize, overlap: format.allowsOverlap ? options.overlap : 0,
                emittedLevels: 1..<(sizes.count - shardLevels + 1)
            ) { (tile) throws(ImageEncodingError) in
                let relative = format.tilePath(
                    level: tile.level + shardLevels - 1, levelCount: sizes.count, column: tile.column, row: tile.row, base: base, options: options)
                try writer.write(tile.bitmap, to: staged.path + "/" + relative)
            }
            let width = sizes[shardLevels - 1].width
            do throws(ImageEncodingError) {
                for index in 0..<count {
                    let (shardFolder, record) = records[index]!
                    guard record.handOverWidth == width,
                        let rows = FileManager.default.contents(atPath: shardFolder + "/" + PyramidFiles.handOver),
                        rows.count == record.plan.handedOver.count * width * 4
                    else {
                        throw .rowMismatch(path: shardFolder, message: "its hand-over is not \(record.plan.handedOver.count) rows of \(width) pixels")
                    }
                    // In bands, as the renderer hands rows over.
                    var start = 0
                    while start < record.plan.handedOver.count {
                        let n = min(256, record.plan.handedOver.count - start)
                        var band = Bitmap(width: width, height: n)
                        band.pixels = [UInt8](rows[(start * width * 4)..<((start + n) * width * 4)])
                        try pyramid.push(band)
                        start += n
                    }
                }
                try pyramid.finish()
                try writer.wait()
            } catch {
                throw .output(error)
            }
            tiles += writer.written.withLock { $0 }
        }
        // The descriptors, the viewer, and the folder in place; then the shards are gone.
        var pending = try PyramidFiles.place(
            format.descriptors(destination: destination, base: base, levelCount: sizes.count, options: options), in: staged.path)
        var files = [destination]
        let viewer = PyramidViewer(destination: destination)
        let viewerFolder = records[0]!.folder + "/viewer/"
        for (name, target) in [("page", viewer.page), ("map", viewer.mapScript)] {
            guard let data = FileManager.default.contents(atPath: viewerFolder + name) else { continue }
            guard PyramidViewer.mayReplace(target) else { throw .wouldReplaceAForeignFile(path: target) }
            pending.append(try PendingFile(data, at: target))
            files.append(target)
        }
        try staged.commit()
        for file in pending { try file.commit() }
        try? FileManager.default.removeItem(atPath: PyramidFiles.shardsFolder(for: destination))
        return Summary(shards: count, width: base.width, height: base.height, tiles: tiles, files: files)
    }
}
