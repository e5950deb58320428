import Foundation
import MosaicImage

/// What a cache folder holds, for `mosaic cache`, and its upkeep: trimming to the size
/// limit (least recently used first) and clearing.
public struct CacheUsage: Sendable, Equatable {
    /// Card entries and their bytes.
    public var entries = 0
    public var bytes = 0
    /// This machine's identity index entries.
    public var indexed = 0

    /// Reads the folder's listing (no entry is opened).
    public init(folder: String) {
        for (_, status) in Self.files(in: folder + "/cards") {
            entries += 1
            bytes += Int(status.st_size)
        }
        indexed = Self.files(in: folder + "/hosts/" + CardCache.machineID() + "/identity").count
    }

    /// The regular files two levels below `folder` (`ab/abcdef...`), with their status.
    static func files(in folder: String) -> [(path: String, status: stat)] {
        var result: [(String, stat)] = []
        for fan in FileNames.contentsOfDirectory(folder) ?? [] where fan.count == 2 {
            let sub = folder + "/" + fan
            for name in FileNames.contentsOfDirectory(sub) ?? [] {
                let path = sub + "/" + name
                var status = stat()
                guard FileNames.withSystemPath(path, { lstat($0, &status) }) == 0, (status.st_mode & S_IFMT) == S_IFREG else { continue }
                result.append((path, status))
            }
        }
        return result
    }

    /// Removes the least recently used card entries until they hold at most `limit` bytes
    /// (nine tenths of it, so that the next runs do not trim again at once), and temporary
    /// files older than an hour (a killed writer's); returns how many entries went.
    @discardableResult
    public static func trim(folder: String, limit: Int) -> Int {
        var files = Self.files(in: folder + "/cards")
        let now = Int(Date().timeIntervalSince1970)
        var removed = 0
        files.removeAll { file in
            let name = (file.path as NSString).lastPathComponent
            guard name.hasPrefix(".") else { return false }
            if now - Int(file.status.st_mtim.tv_sec) > 3600 { CacheFiles.remove(file.path) }
            return true
        }
        var total = files.reduce(0) { $0 + Int($1.status.st_size) }
        guard total > limit else { return 0 }
        files.sort { ($0.status.st_mtim.tv_sec, $0.path) < ($1.status.st_mtim.tv_sec, $1.path) }
        let target = limit / 10 * 9
        for file in files where total > target {
            CacheFiles.remove(file.path)
            total -= Int(file.status.st_size)
            removed += 1
        }
        return removed
    }

    /// Removes every entry and index of the cache at `folder` (the folder and its tag stay);
    /// returns how many files went.
    @discardableResult
    public static func clear(folder: String) -> Int {
        var removed = 0
        for sub in ["cards", "hosts"] {
            let path = folder + "/" + sub
            guard FileNames.status(path) != nil else { continue }
            removed += Self.countFiles(path)
            try? FileManager.default.removeItem(atPath: path)
        }
        return removed
    }

    static func countFiles(_ folder: String) -> Int {
        var count = 0
        let enumerator = FileManager.default.enumerator(atPath: folder)
        while let next = enumerator?.nextObject() as? String {
            if !FileNames.isFolder(folder + "/" + next) { count += 1 }
        }
        return count
    }
}

extension CardCache {
    /// Trims the cards to the size limit when this run's entries may have passed it. The
    /// folder's total is kept in `size` (an estimate: runs add what they stored; a trim,
    /// which lists every entry, sets it exactly), so a run does not list 100,000 entries
    /// to learn that nothing needs to go.
    public func trimIfNeeded() {
        let stored = state.withLock { $0.storedBytes }
        guard stored > 0 else { return }
        let record = folder + "/size"
        var estimate: Int
        if let (bytes, _) = CacheFiles.read(record, limit: 64), let value = Int(String(decoding: bytes, as: UTF8.self)) {
            estimate = value + stored
        } else {
            estimate = CacheUsage(folder: folder).bytes
        }
        if estimate > sizeLimit {
            CacheUsage.trim(folder: folder, limit: sizeLimit)
            estimate = CacheUsage(folder: folder).bytes
        }
        _ = CacheFiles.write(Array(String(estimate).utf8), to: record)
    }
}
