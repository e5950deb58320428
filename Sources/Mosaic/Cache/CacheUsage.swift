import Foundation
import MosaicImage
import MosaicSync

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
        // Summed folder by folder: no list of every entry is made.
        for (count, size) in Self.eachFanFolder(of: folder + "/cards", { _, descriptor, listed in
            var count = 0, size = 0
            for entry in listed {
                guard let status = Self.regularStatus(of: entry, in: descriptor) else { continue }
                count += 1
                size += Int(status.st_size)
            }
            return [(count, size)]
        }) {
            entries += count
            bytes += size
        }
        indexed = Self.countFiles(fannedIn: folder + "/hosts/" + CardCache.machineID() + "/identity")
    }

    /// The regular files two levels below `folder` (`ab/abcdef...`), with their status.
    /// Each fan folder is read through its descriptor (`fstatat` on the names it lists, no
    /// path looked up again from the root), the 256 folders across the cores: a cache of
    /// 100,000 cards is listed in a fraction of a second.
    static func files(in folder: String) -> [(path: String, status: stat)] {
        eachFanFolder(of: folder) { sub, descriptor, entries in
            var found: [(path: String, status: stat)] = []
            found.reserveCapacity(entries.count)
            for entry in entries {
                guard let status = regularStatus(of: entry, in: descriptor) else { continue }
                found.append((sub + "/" + FileNames.string(fromBytes: entry.name.dropLast().map { UInt8(bitPattern: $0) }), status))
            }
            return found
        }
    }

    /// How many regular files lie two levels below `folder`: from the listings' file types
    /// where the file system gives them, else from each file's status.
    static func countFiles(fannedIn folder: String) -> Int {
        eachFanFolder(of: folder) { _, descriptor, entries in
            // A listed regular file needs no status; only an untyped listing asks for one.
            let count = entries.count { $0.type == UInt8(DT_REG) || ($0.type == UInt8(DT_UNKNOWN) && regularStatus(of: $0, in: descriptor) != nil) }
            return [count]
        }.reduce(0, +)
    }

    /// The status of a listed name that is a regular file (not followed if a link), nil
    /// for anything else; a name the listing types as something else is not asked about.
    static func regularStatus(of entry: ListedName, in descriptor: Int32) -> stat? {
        guard entry.type == UInt8(DT_REG) || entry.type == UInt8(DT_UNKNOWN) else { return nil }
        var status = stat()
        guard fstatat(descriptor, entry.name, &status, AT_SYMLINK_NOFOLLOW) == 0, (status.st_mode & S_IFMT) == S_IFREG else { return nil }
        return status
    }

    /// A name a folder lists (NUL-ended) and its type as the listing gives it (`DT_REG`,
    /// `DT_UNKNOWN` ...).
    struct ListedName: Sendable {
        var name: [CChar]
        var type: UInt8
    }

    /// `body`'s results for each two-character folder in `folder` (given its path, an open
    /// descriptor and its listing without "." and ".."), in the folders' order.
    private static func eachFanFolder<Result: Sendable>(
        of folder: String, _ body: @Sendable (String, Int32, [ListedName]) -> [Result]
    ) -> [Result] {
        let fans = (FileNames.contentsOfDirectory(folder) ?? []).filter { $0.utf8.count == 2 }.sorted()
        let results = Locked([[Result]](repeating: [], count: fans.count))
        DispatchQueue.concurrentPerform(iterations: fans.count) { n in
            let sub = folder + "/" + fans[n]
            guard let directory = FileNames.withSystemPath(sub, { opendir($0) }) else { return }
            defer { closedir(directory) }
            var entries: [ListedName] = []
            while let entry = readdir(directory) {
                let name = withUnsafeBytes(of: entry.pointee.d_name) { raw in raw.prefix { $0 != 0 }.map { CChar(bitPattern: $0) } + [0] }
                if name == [0x2E, 0] || name == [0x2E, 0x2E, 0] { continue }
                entries.append(ListedName(name: name, type: entry.pointee.d_type))
            }
            let made = body(sub, dirfd(directory), entries)
            results.withLock { $0[n] = made }
        }
        return results.withLock { $0.flatMap { $0 } }
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
