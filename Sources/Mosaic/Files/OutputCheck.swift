import Foundation

/// The files a run will write, checked before any work against what it reads and against
/// each other: nothing mosaic writes may replace a file the user gave it.
///
/// The check holds no list of every input: an output that exists is compared with each
/// input by file identity (device and inode, so a hard link or a symbolic link to an input
/// is caught too) as the catalog is walked; a folder named holds every file under it.
public struct OutputCheck: Sendable {
    /// Each output and the option that names it (`--json`), for messages.
    public var outputs: [(path: String, option: String)] = []
    /// The files the user named (a folder here is checked as a path only).
    public var inputs: [String] = []
    /// Folders read: each stands for every file under it.
    public var folders: [String] = []
    /// The catalog's images, walked when checked.
    public var catalog: Catalog?
    /// Outputs (resolved) that may replace a file under a folder named: a folder's own
    /// earlier sheet, which the catalog left out.
    var allowed: Set<String> = []

    /// An empty check: add what the run writes and reads, then `check()`.
    public init() {}

    /// Adds an output named by `option`.
    public mutating func write(_ path: String, by option: String) {
        outputs.append((path, option))
    }

    /// Adds files or folders the run reads (a folder: every file under it).
    public mutating func read(_ paths: [String]) {
        for path in paths {
            if FileNames.isFolder(path) { folders.append(path) } else { inputs.append(path) }
        }
    }

    /// Adds the images of `catalog`.
    public mutating func read(_ catalog: Catalog) {
        self.catalog = catalog
    }

    /// Lets the run replace `paths` although a folder read holds them (a folder's own
    /// earlier sheet, which the catalog left out).
    public mutating func allowReplacing(_ paths: [String]) {
        allowed.formUnion(paths.map(Self.resolved))
    }

    /// `path` made absolute, with `.`, `..` and symbolic links resolved (`realpath` when it
    /// exists; else as far as it goes).
    public static func resolved(_ path: String) -> String {
        FileNames.realPath(path) ?? URL(fileURLWithPath: path).standardizedFileURL.resolvingSymlinksInPath().path
    }

    /// Calls `body` with every input the check knows one by one, without a copy: the files
    /// and folders named, then the catalog's images (not the files under a folder read).
    public func forEachInput(_ body: (String) throws(OutputError) -> Void) throws(OutputError) {
        for input in inputs + folders { try body(input) }
        guard let catalog else { return }
        for entry in catalog.allEntries { try body(entry.path) }
    }

    /// Folders above an output that are missing are fine (they are created when the run
    /// writes, `OutputFolders`); one that is a file is not.
    ///
    /// - Throws: `OutputError.outputThroughAFile` for an output below a file,
    ///   `.outputIsAFolder` for an output that is an existing folder,
    ///   `.outputIsNotAFile` for a device, FIFO or socket (after symbolic links),
    ///   `.outputIsAnInput` for one that is a file the run reads, `.outputsCollide` for two
    ///   outputs that are the same file.
    public func check() throws(OutputError) {
        var written: [String: (path: String, option: String)] = [:]
        var existing: [FileIdentity: String] = [:]
        for (path, option) in outputs {
            if let file = OutputFolders.blocker(above: path) { throw .outputThroughAFile(path: path, option: option, file: file) }
            var isFolder: ObjCBool = false
            if FileManager.default.fileExists(atPath: path, isDirectory: &isFolder), isFolder.boolValue {
                throw .outputIsAFolder(path: path, option: option)
            }
            if let status = FileNames.status(path), (status.st_mode & S_IFMT) != S_IFREG {
                throw .outputIsNotAFile(path: path, option: option)
            }
            let target = Self.resolved(path)
            if let other = written[target] { throw .outputsCollide(path: path, options: [other.option, option]) }
            written[target] = (path, option)
            if let identity = FileIdentity(path) { existing[identity] = path }
        }
        // Inputs named that are not there yet (they become placeholder cards): by path.
        for input in inputs where FileIdentity(input) == nil {
            if let output = written[Self.resolved(input)] { throw .outputIsAnInput(path: output.path) }
        }
        // An output that does not exist yet replaces nothing.
        guard !existing.isEmpty else { return }
        // Under a folder named: by path, so that any file there counts (not only images).
        let folders = folders.map { Self.resolved($0) + "/" }
        for (target, output) in written where !allowed.contains(target) && folders.contains(where: { target.hasPrefix($0) }) {
            // Only an output that exists replaces a file there.
            if FileIdentity(output.path) != nil { throw .outputIsAnInput(path: output.path) }
        }
        try forEachInput { input throws(OutputError) in
            if let identity = FileIdentity(input), let output = existing[identity] { throw .outputIsAnInput(path: output) }
        }
    }
}

/// A file as the system knows it: its device and inode, the same through any link.
struct FileIdentity: Hashable, Sendable {
    let device: UInt64
    let inode: UInt64

    /// Nil when `path` does not exist (or cannot be looked at).
    init?(_ path: String) {
        guard let status = FileNames.status(path) else { return nil }
        device = UInt64(status.st_dev)
        inode = UInt64(status.st_ino)
    }

    /// The identity of a file looked at (`stat`, `fstat`).
    init(status: stat) {
        device = UInt64(status.st_dev)
        inode = UInt64(status.st_ino)
    }
}
