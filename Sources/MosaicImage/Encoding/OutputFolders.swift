import CMosaicShims
import MosaicSync

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The folders above an output that are not there yet (`--html report/index.html` on a
/// fresh checkout), created when the run is about to write the output (as Playwright and
/// reg-cli do), never earlier: a run that fails first (a usage error, an input missing)
/// leaves no folder behind. Each is made with mode 0755 (less the umask), outermost first,
/// and remembered: one still empty when the program ends or is interrupted (nothing was
/// written into it after all) is removed again. A path through a file (`out/x.png` where
/// `out` is a file) is never written through: `blocker(above:)` names that file for the
/// check before any work.
public enum OutputFolders {
    /// The folders this process made, outermost first.
    static let created = Locked([String]())

    /// The first existing part of `path`'s folders, from the outermost, that is not a folder
    /// (following links): the file in the way. Nil when every existing part is a folder.
    public static func blocker(above path: String) -> String? {
        for folder in folders(above: path) {
            guard let status = FileNames.status(folder) else { return nil }
            if (status.st_mode & S_IFMT) != S_IFDIR { return folder }
        }
        return nil
    }

    /// Creates the folders above `path` that are missing. Failures are left to the write
    /// that follows, which names its file and the system's reason.
    public static func createParents(of path: String) {
        for folder in folders(above: path) where FileNames.status(folder) == nil {
            let made = makeFolder(folder, mode: 0o755)
            guard made else { return }
            created.withLock { $0.append(folder) }
            TemporaryFiles.register(emptyFolder: folder)
        }
    }

    /// Makes one folder (`mkdir`), unless an interrupt is being acted on: a thread still
    /// writing while another removes the run's temporary folders never makes one again
    /// (`mosaic_make_folder`). False with `errno` set when not made.
    public static func makeFolder(_ path: String, mode: mode_t) -> Bool {
        FileNames.withSystemPath(path) { mosaic_make_folder($0, UInt32(mode)) } == 0
    }

    /// Makes `folder` and its missing parents (each through `makeFolder`, remembered as
    /// `createParents` does); nothing when it is already a folder or empty.
    ///
    /// - Throws: `Failure` with the system's reason when it cannot be made.
    public static func make(_ folder: String) throws(Failure) {
        guard !folder.isEmpty, !FileNames.isFolder(folder) else { return }
        createParents(of: folder)
        if makeFolder(folder, mode: 0o755) {
            created.withLock { $0.append(folder) }
            TemporaryFiles.register(emptyFolder: folder)
        } else {
            let failure = Failure(path: folder, errno: errno)
            guard FileNames.isFolder(folder) else { throw failure }
        }
    }

    /// Why a folder could not be made: the folder and the system's reason.
    public struct Failure: Error, Equatable, Sendable, CustomStringConvertible {
        public let path: String
        public let errno: Int32
        public init(path: String, errno: Int32) { (self.path, self.errno) = (path, errno) }
        /// The system's reason (`strerror`).
        public var reason: String { String(cString: strerror(errno)) }
        public var description: String { "\(FileNames.display(path)): cannot make the folder: \(reason)" }
    }

    /// Removes the folders this process made that are still empty, innermost first (at the
    /// end of a run: nothing was written into them).
    public static func removeEmptyCreated() {
        let folders = created.withLock { folders in
            defer { folders.removeAll() }
            return folders
        }
        for folder in folders.reversed() {
            _ = FileNames.withSystemPath(folder) { rmdir($0) }
            TemporaryFiles.unregister(folder)
        }
    }

    /// The folders above `path`, outermost first ("a", "a/b" for "a/b/c.png"; "/x" for
    /// "/x/y.png"), leaving out "." and "/".
    static func folders(above path: String) -> [String] {
        var folders: [String] = []
        var prefix = ""
        let parts = path.split(separator: "/", omittingEmptySubsequences: false)
        for (i, part) in parts.dropLast().enumerated() {
            prefix += (i == 0 ? "" : "/") + part
            if part.isEmpty || part == "." { continue }
            folders.append(prefix)
        }
        return folders
    }
}
