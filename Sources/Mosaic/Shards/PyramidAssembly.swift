import Foundation

/// `mosaic assemble board.dzi`: the shards' parts made one pyramid. Under the shards'
/// folder's lock (a second assembly, or a shard being rendered, is refused), every shard's
/// record must be there, readable, and describe the same board, and every shard's files
/// must be those its record lists with the same checksums (else nothing is touched and the
/// missing, unreadable, damaged or disagreeing shards are named). Their tiles are linked
/// (copied across file systems) into a staged folder, never moved: the shards survive any
/// interrupt until the pyramid is in place, and a run again finishes the same pyramid. The
/// levels above the shards' are built from their hand-overs exactly as one process builds
/// them, the descriptors and the viewer written, the folder renamed into place, and then
/// the shards removed: the same bytes as a render in one process.
public enum PyramidAssembly {
    /// What was assembled.
    public struct Summary: Sendable {
        public var shards: Int
        public var width: Int
        public var height: Int
        public var tiles: Int
        /// The files put in place: the descriptor (or the IIIF folder) and the viewer's.
        public var files: [String]
        /// Of the tiles, those a previous pyramid at the destination held with the same
        /// bytes, kept as they were; nil when there was none.
        public var unchangedTiles: Int?
    }

    /// A shard's folder and its record.
    typealias Shard = (folder: String, record: ShardRecord)

    /// Assembles the pyramid whose shards were written for `destination`.
    ///
    /// - Throws: `AssemblyError.incompleteShards` naming the shards missing,
    ///   `.unreadableShard` for a record that cannot be used, `.damagedShard` for files
    ///   missing, corrupt or stray, `.shardsDisagree` when their records describe
    ///   different boards, `.shardsBusy` when another process holds the lock,
    ///   `.wouldReplaceAForeignFile` for a descriptor, folder or viewer mosaic did not
    ///   write, `.output` when a file cannot be linked or written.
    public static func assemble(_ destination: String, threads: Int = 1) throws(AssemblyError) -> Summary {
        let root = PyramidFiles.shardsFolder(for: destination)
        // A shards' folder an earlier assembly was removing when it was killed.
        StagedFolder.removeLeftovers(of: (root as NSString).lastPathComponent, in: parentFolder(of: root))
        let lock = try ShardsLock(root, exclusive: true)
        defer { lock.release() }
        // Shards' staged folders that a SIGKILL left (their processes gone).
        StagedFolder.removeAllLeftovers(in: root)
        let (shards, count) = try readShards(in: root)
        let first = shards[0].record
        for index in 1..<count where shards[index].record.board != first.board {
            throw .shardsDisagree(path: root, detail: "shard \(index) rendered another board than shard 0 (other inputs, options or version)")
        }
        for (index, shard) in shards.enumerated() {
            let damage = shard.record.damage(found: shard.record.found(in: shard.folder))
            if !damage.isEmpty { throw .damagedShard(path: root, shard: index, count: count, damage: damage) }
        }
        guard let format = PyramidFormats.restored(name: first.kind, id: first.formatID) else {
            throw .unreadableShard(path: root, shard: 0, count: count, problem: .inconsistent(detail: "kind \"\(first.kind)\""))
        }
        return try assemble(destination, format: format, shards: shards, lock: lock, threads: threads)
    }

    /// The folder `path` is in ("." for a bare name).
    static func parentFolder(of path: String) -> String {
        let parent = (path as NSString).deletingLastPathComponent
        return parent.isEmpty ? "." : parent
    }

    /// Every shard's folder and record, by index, and their count.
    ///
    /// - Throws: `AssemblyError.incompleteShards`, `.unreadableShard`, `.shardsDisagree`
    ///   (shards of different counts).
    static func readShards(in root: String) throws(AssemblyError) -> (shards: [Shard], count: Int) {
        var found: [Int: Shard] = [:]
        var count: Int?
        for name in (FileNames.contentsOfDirectory(root) ?? []).sorted() where !name.hasPrefix(".") {
            // "K-of-N", as render names a shard's folder.
            let parts = name.split(separator: "-", omittingEmptySubsequences: false)
            guard parts.count == 3, parts[1] == "of", let index = Int(parts[0]), let total = Int(parts[2]), (0..<total).contains(index),
                name == "\(index)-of-\(total)"
            else { continue }
            if let count, count != total { throw .shardsDisagree(path: root, detail: "shards of \(count) and of \(total) processes") }
            count = total
            let folder = root + "/" + name
            let record: ShardRecord
            do throws(ShardRecordError) {
                record = try ShardRecord.decode(ShardRecord.contents(of: folder + "/" + PyramidFiles.shardRecord))
            } catch {
                throw .unreadableShard(path: root, shard: index, count: total, problem: error)
            }
            guard record.plan.index == index, record.plan.count == total else {
                throw .unreadableShard(
                    path: root, shard: index, count: total,
                    problem: .inconsistent(detail: "its folder is shard \(index)/\(total)'s, its record shard \(record.plan.index)/\(record.plan.count)'s"))
            }
            found[index] = (folder, record)
        }
        guard let count else { throw .incompleteShards(path: root, missing: [], count: 0) }
        let missing = (0..<count).filter { found[$0] == nil }
        guard missing.isEmpty else { throw .incompleteShards(path: root, missing: missing, count: count) }
        return ((0..<count).compactMap { found[$0] }, count)
    }

    static func assemble<Format: PyramidFormat>(
        _ destination: String, format: Format, shards: [Shard], lock: ShardsLock, threads: Int
    ) throws(AssemblyError) -> Summary {
        let first = shards[0].record  // readShards: one at least
        let options = first.options
        let base = Size(width: first.width, height: first.height)
        let folder = format.folder(for: destination)
        // Before any work: nothing mosaic did not write is replaced (as render refuses it).
        try AssemblyError.output { () throws(OutputError) in try PyramidFiles.checkReplaceable(format, destination: destination) }
        let viewer = PyramidViewer(destination: destination)
        let viewerFolder = shards[0].folder + "/" + PyramidFiles.viewerFolder + "/"
        let viewerFiles = [("page", viewer.page), ("map", viewer.mapScript)].filter { first.files[PyramidFiles.viewerFolder + "/" + $0.0] != nil }
        for (_, target) in viewerFiles where !PyramidViewer.mayReplace(target) { throw .output(.wouldReplaceAForeignFile(path: target)) }
        // The pyramid a previous assembly or render left here (checked above: mosaic's):
        // its tiles whose bytes are the same are kept, as a render keeps them.
        let previous = FileNames.isFolder(folder) && FileManager.default.fileExists(atPath: folder + "/" + PyramidFiles.marker) ? folder : nil
        let staged = try AssemblyError.output { () throws(OutputError) in try StagedFolder(destination: folder, marker: PyramidFiles.marker) }
        // The shards' tiles, linked (copied across file systems): the shards stay whole
        // until the pyramid is in place.
        var tiles = 0
        let writer = TileWriter(
            format: options.format, root: staged.path, hasAlpha: first.hasAlpha, compressionLevel: options.compressionLevel, threads: threads,
            blank: options.skipBlankTiles ? first.background : nil, previous: previous)
        for shard in shards {
            for relative in shard.record.files.keys.sorted() where PyramidFiles.isTile(relative) {
                let target = staged.path + "/" + relative
                do throws(ImageEncodingError) { try writer.makeFolder(for: target) } catch { throw .output(.write(error)) }
                try linkOrCopy(shard.folder + "/" + relative, to: target)
                if let previous, StagedFolder.keepUnchanged(relative[...], staged: staged.path, previous: previous) { writer.unchanged.withLock { $0 += 1 } }
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
                for (shardFolder, record) in shards {
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
                throw .output(.write(error))
            }
            tiles += writer.written.withLock { $0 }
        }
        // The descriptors, the viewer, and the folder in place; then the shards are removed.
        var pending = try AssemblyError.output { () throws(OutputError) in
            try PyramidFiles.place(
                format.descriptors(destination: destination, base: base, levelCount: sizes.count, options: options), in: staged.path, previous: previous)
        }
        if let previous { _ = StagedFolder.keepUnchanged(PyramidFiles.marker[...], staged: staged.path, previous: previous) }
        var files = [destination]
        for (name, target) in viewerFiles {
            guard let data = FileManager.default.contents(atPath: viewerFolder + name) else {
                throw .output(.write(.cannotCreate(path: target, reason: "shard 0's viewer file \(name) cannot be read")))
            }
            let file = try AssemblyError.output { () throws(OutputError) in try PendingFile(data, at: target) }
            file.keepsAnIdenticalFile = true
            pending.append(file)
            files.append(target)
        }
        try AssemblyError.output { () throws(OutputError) in
            try staged.commit()
            for file in pending { try file.commit() }
        }
        removeShards(PyramidFiles.shardsFolder(for: destination))
        return Summary(
            shards: shards.count, width: base.width, height: base.height, tiles: tiles, files: files,
            unchangedTiles: previous == nil ? nil : writer.unchanged.withLock { $0 })
    }

    /// A hard link of `source` at `target`, or where the file system cannot link (another
    /// device, no links), a copy.
    ///
    /// - Throws: `AssemblyError.output` (`.write(.cannotCreate)`) with the system's reason.
    static func linkOrCopy(_ source: String, to target: String) throws(AssemblyError) {
        let linked = FileNames.withSystemPath(source) { from in FileNames.withSystemPath(target) { to in link(from, to) } }
        if linked == 0 { return }
        let code = errno
        guard [EXDEV, EPERM, EMLINK, ENOTSUP, EOPNOTSUPP].contains(code) else {
            throw .output(.write(.cannotCreate(path: target, reason: String(cString: strerror(code)))))
        }
        do {
            try FileManager.default.copyItem(atPath: source, toPath: target)
        } catch {
            throw .output(.write(.cannotCreate(path: target, reason: (error as NSError).localizedDescription)))
        }
    }

    /// Removes the shards' folder once the pyramid is in place: renamed to a hidden name
    /// first, so that an interrupt never leaves part of the shards (a run again would find
    /// them damaged); the hidden folder goes on an interrupt too, or with the next run
    /// after a SIGKILL.
    static func removeShards(_ root: String) {
        let name = (root as NSString).lastPathComponent
        let hidden = parentFolder(of: root) + "/.\(name).mosaic-\(getpid()).tmp"
        let moved = TemporaryFiles.withInterruptsDeferred { () -> Bool in
            guard rename(root, hidden) == 0 else { return false }
            TemporaryFiles.register(folder: hidden)
            return true
        }
        guard moved else { return }
        try? FileManager.default.removeItem(atPath: hidden)
        TemporaryFiles.unregister(hidden)
    }
}
