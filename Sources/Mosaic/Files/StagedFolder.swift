import Foundation

/// A folder of outputs written under a hidden name beside its destination and renamed into
/// place when complete (a tile pyramid, a report's images). The destination's previous
/// folder is replaced only when mosaic wrote it (it holds the marker file); until
/// `commit()` the destination stays as it was, and a dropped or discarded folder leaves
/// nothing behind.
public final class StagedFolder {
    /// Where the folder goes.
    public let destination: String
    /// Where it is written meanwhile.
    public let path: String
    let marker: String
    var settled = false

    /// Before any work: `destination` is absent or a folder mosaic wrote (holding `marker`),
    /// and holds none of the inputs `reading` knows (the files and folders named, the
    /// catalog's images).
    ///
    /// - Throws: `OutputError.wouldReplaceAForeignFile` for a file or a folder of someone
    ///   else's, `.outputIsAnInput` when an input lies inside it.
    public static func check(_ destination: String, marker: String, reading: OutputCheck = OutputCheck()) throws(OutputError) {
        var isFolder: ObjCBool = false
        guard FileManager.default.fileExists(atPath: destination, isDirectory: &isFolder) else { return }
        guard isFolder.boolValue, FileManager.default.fileExists(atPath: destination + "/" + marker) else {
            throw .wouldReplaceAForeignFile(path: destination)
        }
        // Only a folder that is there can hold an input.
        let inside = OutputCheck.resolved(destination) + "/"
        try reading.forEachInput { input throws(OutputError) in
            if (OutputCheck.resolved(input) + "/").hasPrefix(inside) { throw .outputIsAnInput(path: destination) }
        }
    }

    /// Makes the folders of `relative` (folders inside the staged folder `root`) that are
    /// missing, one at a time under `root`, never `root` itself: a worker still writing
    /// tiles after an interrupt removed the staged folder fails instead of making it again
    /// (`withIntermediateDirectories` made it again, and the interrupted run left it).
    ///
    /// - Throws: `ImageEncodingError.cannotCreate` with the system's reason.
    static func makeFolders(_ relative: String, in root: String) throws(ImageEncodingError) {
        var path = root
        for component in relative.split(separator: "/") {
            path += "/" + component
            guard OutputFolders.makeFolder(path, mode: 0o777) || errno == EEXIST else {
                throw .cannotCreate(path: path, reason: String(cString: strerror(errno)))
            }
        }
    }

    /// Puts the previous run's file in place of the staged file `relative` when their bytes
    /// are the same: a hard link to it, so the file keeps its inode and time through the
    /// folder's rename (a sync that compares sizes and times sends nothing for it). Both
    /// folders are mosaic's; only a regular file is linked (never a link), and the file
    /// linked is the one compared (its inode checked after the link). False, with the
    /// staged file as written, when they differ or the file system cannot link.
    static func keepUnchanged(_ relative: Substring, staged root: String, previous: String) -> Bool {
        let staged = root + "/" + relative, old = previous + "/" + relative
        guard let before = FileComparison.sameBytes(staged, old) else { return false }
        let linkPath = staged + ".kept"
        guard FileNames.withSystemPath(old, { o in FileNames.withSystemPath(linkPath) { l in link(o, l) } }) == 0 else { return false }
        var linked = stat()
        guard FileNames.withSystemPath(linkPath, { lstat($0, &linked) }) == 0, (linked.st_mode & S_IFMT) == S_IFREG,
            linked.st_ino == before.st_ino, linked.st_dev == before.st_dev,
            FileNames.withSystemPath(linkPath, { l in FileNames.withSystemPath(staged) { s in rename(l, s) } }) == 0
        else {
            _ = FileNames.withSystemPath(linkPath) { unlink($0) }
            return false
        }
        return true
    }

    /// Creates the hidden folder beside `destination`, with `marker` in it.
    ///
    /// - Throws: `OutputError.write(.cannotCreate)` with the system's reason.
    public init(destination: String, marker: String) throws(OutputError) {
        self.destination = destination
        self.marker = marker
        let parent = (destination as NSString).deletingLastPathComponent
        let name = (destination as NSString).lastPathComponent
        path = (parent.isEmpty ? "" : parent + "/") + ".\(name).mosaic-\(getpid()).tmp"
        try? FileManager.default.removeItem(atPath: path)
        OutputFolders.createParents(of: destination)
        Self.removeLeftovers(of: name, in: parent.isEmpty ? "." : parent)
        var isFolder: ObjCBool = false
        guard FileManager.default.fileExists(atPath: parent.isEmpty ? "." : parent, isDirectory: &isFolder), isFolder.boolValue else {
            throw .write(.cannotCreate(path: destination, reason: "the folder \(parent) cannot be created"))
        }
        do {
            // SIGINT, SIGTERM, SIGHUP: removed with everything in it (SIGKILL: by the next
            // run). Registered before it exists, so that no interrupt falls between the two.
            TemporaryFiles.register(folder: path)
            guard OutputFolders.makeFolder(path, mode: 0o755) else { throw OutputFolders.Failure(path: path, errno: errno) }
            try Data().write(to: URL(fileURLWithPath: path + "/" + marker))
        } catch {
            try? FileManager.default.removeItem(atPath: path)
            TemporaryFiles.unregister(path)
            throw .write(.cannotCreate(path: destination, reason: (error as? OutputFolders.Failure)?.reason ?? (error as NSError).localizedDescription))
        }
    }

    deinit { discard() }

    /// Hidden folders an interrupted or killed run left beside `name` (".NAME.mosaic-PID.tmp"
    /// and their ".old"), whose process is gone: removed, so they do not pile up. A running
    /// process's folder stays.
    static func removeLeftovers(of name: String, in parent: String) {
        removeLeftovers(in: parent, prefix: ".\(name).mosaic-")
    }

    /// Every staged folder in `parent` whose process is gone, whatever its destination's
    /// name: in a shards' folder, a SIGKILLed shard's (".2-of-4.mosaic-PID.tmp") is removed
    /// by the next shard run or assembly, not only by a run of that shard again.
    static func removeAllLeftovers(in parent: String) {
        guard let entries = try? FileManager.default.contentsOfDirectory(atPath: parent) else { return }
        for entry in entries where entry.hasPrefix(".") {
            guard let marker = entry.range(of: ".mosaic-", options: .backwards) else { continue }
            removeLeftovers(in: parent, prefix: String(entry[..<marker.upperBound]), only: entry)
        }
    }

    /// The entries of `parent` named `PREFIX` + a process ID + ".tmp" (and what follows,
    /// ".old"), whose process is gone (`only`: that entry alone).
    static func removeLeftovers(in parent: String, prefix: String, only: String? = nil) {
        guard let siblings = only.map({ [$0] }) ?? (try? FileManager.default.contentsOfDirectory(atPath: parent)) else { return }
        for sibling in siblings where sibling.hasPrefix(prefix) {
            let rest = sibling.dropFirst(prefix.count)
            guard let pid = Int32(rest.prefix { $0.isNumber }), rest.dropFirst(String(pid).count).hasPrefix(".tmp") else { continue }
            // Alive (or not ours to ask): kept.
            if pid == getpid() || kill(pid, 0) == 0 || errno == EPERM { continue }
            try? FileManager.default.removeItem(atPath: parent + "/" + sibling)
        }
    }

    /// Renames the folder into place, over the previous run's. An interrupt during the two
    /// renames waits for them: the destination is never left moved aside.
    ///
    /// - Throws: `OutputError.write(.cannotRename)` with the system's reason; the previous
    ///   folder is then put back.
    public func commit() throws(OutputError) {
        guard !settled else { return }
        let previous = path + ".old"
        let hadFolder = FileManager.default.fileExists(atPath: destination)
        try TemporaryFiles.withInterruptsDeferred { () throws(OutputError) in
            if hadFolder, rename(destination, previous) != 0 {
                throw .write(.cannotRename(path: destination, reason: String(cString: strerror(errno))))
            }
            guard rename(path, destination) == 0 else {
                let reason = String(cString: strerror(errno))
                if hadFolder { rename(previous, destination) }
                throw .write(.cannotRename(path: destination, reason: reason))
            }
            TemporaryFiles.unregister(path)
            if hadFolder { TemporaryFiles.register(folder: previous) }
        }
        settled = true
        if hadFolder {
            try? FileManager.default.removeItem(atPath: previous)
            TemporaryFiles.unregister(previous)
        }
    }

    /// Removes the hidden folder; the destination stays as it was.
    public func discard() {
        guard !settled else { return }
        settled = true
        try? FileManager.default.removeItem(atPath: path)
        TemporaryFiles.unregister(path)
    }
}
