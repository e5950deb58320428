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

    /// Installs SIGINT and SIGTERM handlers that remove every temporary file being
    /// written (the destinations stay untouched) and exit with 128 + the signal.
    public static func removeOnInterrupt() { mosaic_install_interrupt_cleanup() }
}
