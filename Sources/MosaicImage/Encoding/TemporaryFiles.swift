import CMosaicShims
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
    public static func register(_ path: String) { _ = mosaic_temp_register(path) }
    /// Forgets `path` (it was renamed into place or removed).
    public static func unregister(_ path: String) { mosaic_temp_unregister(path) }

    /// `dir/.name.mosaic-PID-N.tmp` for a file to be written at `path`: beside it, so the
    /// rename stays on one file system, and hidden.
    public static func path(for path: String) -> String { PNGWriter.temporaryPath(for: path) }

    /// Installs SIGINT, SIGTERM, SIGHUP and SIGPIPE handlers that remove every temporary
    /// file being written (the destinations stay untouched) and exit with 128 + the signal.
    public static func removeOnInterrupt() { mosaic_install_interrupt_cleanup() }

    /// Removes what `path(for:)` named for `destination` and a process that is gone left
    /// behind (a run killed with SIGKILL, or a machine that lost power): files
    /// `.NAME.mosaic-PID-N.tmp` beside it whose PID is not running. Returns their paths.
    @discardableResult
    public static func removeLeftovers(besides destination: String) -> [String] {
        let slash = destination.lastIndex(of: "/")
        let directory = slash.map { String(destination[...$0]) } ?? ""
        let name = slash.map { String(destination[destination.index(after: $0)...]) } ?? destination
        let prefix = "." + name + ".mosaic-"
        guard let folder = opendir(directory.isEmpty ? "." : directory) else { return [] }
        defer { closedir(folder) }
        var removed: [String] = []
        while let entry = readdir(folder) {
            let file = withUnsafeBytes(of: entry.pointee.d_name) { raw in
                String(decoding: raw.prefix { $0 != 0 }, as: UTF8.self)
            }
            guard file.hasPrefix(prefix), file.hasSuffix(".tmp") else { continue }
            let digits = file.dropFirst(prefix.count).prefix { $0.isASCII && $0.isNumber }
            guard let pid = pid_t(digits), pid > 0, pid != getpid() else { continue }
            // ESRCH: no such process. EPERM means it runs under another user: leave it.
            if kill(pid, 0) != 0 && errno == ESRCH, unlink(directory + file) == 0 { removed.append(directory + file) }
        }
        return removed
    }
}
