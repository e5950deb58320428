import Foundation

/// Sends a finished file to standard output.
enum StandardOutput {
    /// Sends the file at `path` to standard output, a block at a time, and removes it.
    ///
    /// - Throws: `OutputError.cannotSend` when the file cannot be read back,
    ///   `.output(.streamFailed)` when the write fails (a closed pipe, a full disk) with
    ///   the system's reason.
    static func send(file path: String) throws(OutputError) {
        // Registered, so that a closed pipe (SIGPIPE) or Ctrl-C while sending removes it.
        TemporaryFiles.register(path)
        defer {
            unlink(path)
            TemporaryFiles.unregister(path)
        }
        let input = open(path, O_RDONLY | O_CLOEXEC)
        guard input >= 0 else { throw .cannotSend(path: path) }
        defer { close(input) }
        // JSONStream's checked write loop, named "standard output" in its error.
        let output = JSONStream(descriptor: STDOUT_FILENO, name: "standard output")
        var buffer = [UInt8](repeating: 0, count: 1 << 16)
        while true {
            let count = buffer.withUnsafeMutableBytes { read(input, $0.baseAddress, $0.count) }
            if count < 0 && errno == EINTR { continue }
            guard count >= 0 else { throw .cannotSend(path: path) }
            if count == 0 { break }
            try output.write(data: Data(buffer[0..<count]))
        }
        try output.flush()
    }
}
