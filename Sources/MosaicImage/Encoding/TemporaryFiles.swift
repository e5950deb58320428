import CMosaicShims
import MosaicSync
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The temporary files being written, so that an interrupted program can remove them.
/// The table and the signal handler live in the C shim: a handler must be
/// async-signal-safe, and Swift code may allocate or take runtime locks.
public enum TemporaryFiles {
    /// Remembers `path` as a temporary file to remove if the program is interrupted.
    /// (Paths go to the shim as the system knows them, `FileNames`: a name that is not
    /// UTF-8 is registered by its bytes.)
    public static func register(_ path: String) { _ = FileNames.withSystemPath(path) { mosaic_temp_register($0) } }
    /// Remembers `path` as a temporary folder to remove, with everything in it, if the
    /// program is interrupted.
    public static func register(folder path: String) { _ = mosaic_temp_register_folder(path) }
    /// Remembers `path` as a folder to remove if the program is interrupted and it is then
    /// empty.
    public static func register(emptyFolder path: String) { _ = mosaic_temp_register_empty_folder(path) }
    /// Forgets `path` (it was renamed into place or removed).
    public static func unregister(_ path: String) { FileNames.withSystemPath(path) { mosaic_temp_unregister($0) } }

    /// Runs `body` (renames that must not be cut in two) with interrupts held back: one
    /// that arrives meanwhile is acted on when `body` returns.
    public static func withInterruptsDeferred<T, E: Error>(_ body: () throws(E) -> T) throws(E) -> T {
        mosaic_defer_interrupts(1)
        defer { mosaic_defer_interrupts(0) }
        return try body()
    }

    /// Numbers the temporary files of this process.
    static let counter = Locked(0)

    /// `dir/.name.mosaic-PID-N.tmp` for a file about to be written at `path`: beside it, so
    /// the rename stays on one file system, and hidden. The folders above `path` that are
    /// missing are created now (`OutputFolders`): every file mosaic writes passes here just
    /// before it is created.
    public static func path(for path: String) -> String {
        OutputFolders.createParents(of: path)
        let (directory, name) = split(path)
        return directory + temporaryName(for: name)
    }

    /// `.name.mosaic-PID-N.tmp`: the name of a temporary file for the file `name` of the
    /// same folder (for a writer that works in a folder it holds open, and makes no folder).
    public static func temporaryName(for name: String) -> String {
        let n = counter.withLock { count in
            count += 1
            return count
        }
        return ".\(name).mosaic-\(getpid())-\(n).tmp"
    }

    /// The folder part (with its slash, or empty) and the name of `path`.
    static func split(_ path: String) -> (directory: String, name: String) {
        guard let slash = path.lastIndex(of: "/") else { return ("", path) }
        return (String(path[...slash]), String(path[path.index(after: slash)...]))
    }

    /// Installs SIGINT, SIGTERM, SIGHUP and SIGPIPE handlers that remove every temporary
    /// file being written (the destinations stay untouched) and exit with 128 + the signal.
    public static func removeOnInterrupt() { mosaic_install_interrupt_cleanup() }

    /// Tells the interrupt handler whether a progress line is on standard error: an
    /// interrupt then clears that line before the program exits.
    public static func progressLine(active: Bool) { mosaic_set_progress_line(active ? 1 : 0) }

    /// Removes what `path(for:)` named for `destinations` and a process that is gone left
    /// behind (a run killed with SIGKILL, or a machine that lost power): files
    /// `.NAME.mosaic-PID-N.tmp` beside them whose PID is not running. Each folder is listed
    /// once, however many destinations it holds. Returns the paths removed.
    @discardableResult
    public static func removeLeftovers(besides destinations: [String]) -> [String] {
        var prefixes: [String: Set<String>] = [:]  // folder -> ".NAME.mosaic-"
        for destination in destinations {
            let (directory, name) = split(destination)
            prefixes[directory, default: []].insert("." + name + ".mosaic-")
        }
        var removed: [String] = []
        for (directory, wanted) in prefixes {
            for file in FileNames.contentsOfDirectory(directory.isEmpty ? "." : directory) ?? [] where file.hasSuffix(".tmp") {
                guard let marker = file.firstRange(of: ".mosaic-"), wanted.contains(String(file[..<marker.upperBound])) else { continue }
                let digits = file[marker.upperBound...].prefix { $0.isASCII && $0.isNumber }
                guard let pid = pid_t(digits), pid > 0, pid != getpid() else { continue }
                // ESRCH: no such process. EPERM means it runs under another user: leave it.
                let path = directory + file
                if kill(pid, 0) != 0 && errno == ESRCH, FileNames.withSystemPath(path, { unlink($0) }) == 0 { removed.append(path) }
            }
        }
        return removed
    }
}
