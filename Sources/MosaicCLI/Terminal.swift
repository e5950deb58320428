import ArgumentParser
import Foundation
import Mosaic
import MosaicSync

/// Everything the command writes to standard output and standard error goes through here:
/// text is escaped for a terminal (`TerminalText`), and a write that fails (a full disk,
/// `>/dev/full`, a closed descriptor) is an error, never a trap. A failed write to
/// standard output throws (the command stops with "error: standard output: ..." and exit
/// 1); a failed write to standard error is remembered, and the command exits 1 at its end.
enum Terminal {
    /// Set when a write to standard error failed.
    static let errorStreamFailed = Locked(false)
    /// Standard descriptors that were closed when the process started.
    static let closedAtStart = Locked(Set<Int32>())

    /// Before anything is opened: a standard descriptor that is closed (`2>&-`) gets
    /// /dev/null, so that no file mosaic opens takes its number and receives messages or
    /// the PNG; writes meant for it still fail, as "Bad file descriptor".
    static func reserveStandardDescriptors() {
        for descriptor in [STDIN_FILENO, STDOUT_FILENO, STDERR_FILENO] where fcntl(descriptor, F_GETFD) == -1 {
            let null = open("/dev/null", O_RDWR)
            if null >= 0 && null != descriptor {
                dup2(null, descriptor)
                close(null)
            }
            closedAtStart.withLock { _ = $0.insert(descriptor) }
        }
    }

    /// Writes `text` and a newline to standard error, escaped.
    static func printError(_ text: String) {
        writeError(Data((TerminalText.escaped(text) + "\n").utf8))
    }

    /// Writes `text` and a newline to standard output, escaped.
    ///
    /// - Throws: `Failure` naming standard output and the system's reason.
    static func print(_ text: String) throws {
        try writeOutput(Data((TerminalText.escaped(text) + "\n").utf8))
    }

    /// Writes bytes as they are (a PNG, a JSON document) to standard output.
    ///
    /// - Throws: `Failure` naming standard output and the system's reason.
    static func writeOutput(_ data: Data) throws {
        if let failure = write(data, to: STDOUT_FILENO) {
            throw Failure(description: "standard output: cannot write: \(failure)")
        }
    }

    /// A JSON stream into standard output (the image map, streamed).
    ///
    /// - Throws: `Failure` when standard output was closed when the process started.
    static func standardOutputStream() throws -> JSONStream {
        if closedAtStart.withLock({ $0.contains(STDOUT_FILENO) }) {
            throw Failure(description: "standard output: cannot write: \(String(cString: strerror(EBADF)))")
        }
        return JSONStream(descriptor: STDOUT_FILENO, name: "standard output")
    }

    /// Writes raw bytes (the progress bar's own control sequences) to standard error.
    static func writeError(_ data: Data) {
        if write(data, to: STDERR_FILENO) != nil { errorStreamFailed.withLock { $0 = true } }
    }

    /// Writes all of `data` to `descriptor`; the system's message when it fails.
    static func write(_ data: Data, to descriptor: Int32) -> String? {
        if closedAtStart.withLock({ $0.contains(descriptor) }) { return String(cString: strerror(EBADF)) }
        return data.withUnsafeBytes { JSONStream.writeAll($0, to: descriptor) }
    }

    /// Ends the process after a command: ArgumentParser's message for `error` (help,
    /// usage, "Error: ...") escaped line by line, on standard output for help and
    /// version, standard error otherwise; exit 1 when standard output or error could not
    /// be written.
    static func exit(with error: (any Error)?) -> Never {
        var code = error.map { MosaicCommand.exitCode(for: $0).rawValue } ?? 0
        if let error {
            let message = MosaicCommand.fullMessage(for: error)
            if !message.isEmpty {
                let lines = message.split(separator: "\n", omittingEmptySubsequences: false).map { TerminalText.escaped(String($0)) }
                let text = Data((lines.joined(separator: "\n") + "\n").utf8)
                if code == 0 {
                    if let failure = write(text, to: STDOUT_FILENO) {
                        printError("error: standard output: cannot write: \(failure)")
                        code = 1
                    }
                } else {
                    writeError(text)
                }
            }
        }
        if code == 0 && errorStreamFailed.withLock({ $0 }) { code = 1 }
        // Folders made for outputs that were not written after all.
        OutputFolders.removeEmptyCreated()
        Glibc.exit(code)
    }
}
