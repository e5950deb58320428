import Foundation

/// Runs the built `mosaic` executable, as a user would.
struct CommandResult {
    var status: Int32
    var stdout: String
    var stderr: String
}

enum CLI {
    /// The directory that holds the built products (the `mosaic` executable beside the tests).
    static let productsDirectory: URL = {
        let candidates = [
            Bundle.main.bundleURL,
            URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent(),
        ] + Bundle.allBundles.map { $0.bundleURL.deletingLastPathComponent() }
        for candidate in candidates where FileManager.default.isExecutableFile(atPath: candidate.appendingPathComponent("mosaic").path) {
            return candidate
        }
        return candidates[0]
    }()

    /// Runs `mosaic` with `arguments`. `timeout`: the child is killed (SIGKILL) after that
    /// many seconds, so a test of something that once hung fails instead of hanging (the
    /// status is then the signal, 9). `standardOutput`/`standardError`: a file to write to
    /// instead of a pipe (`/dev/full`); that stream's text is then empty.
    static func run(_ arguments: [String], in directory: String? = nil, creating folder: String? = nil, input: String? = nil,
        environment: [String: String] = [:], timeout: Double? = nil, standardOutput: String? = nil, standardError: String? = nil
    ) throws -> CommandResult {
        if let folder { try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true) }
        let process = Process()
        process.executableURL = productsDirectory.appendingPathComponent("mosaic")
        process.arguments = arguments
        // No card cache unless a test asks for one: each run decodes, as the tests expect.
        process.environment = ProcessInfo.processInfo.environment.merging(["MOSAIC_CACHE": "off"].merging(environment) { $1 }) { $1 }
        if let directory { process.currentDirectoryURL = URL(fileURLWithPath: directory) }
        let out = Pipe(), err = Pipe()
        process.standardOutput = try standardOutput.map { try FileHandle(forWritingTo: URL(fileURLWithPath: $0)) } ?? out
        process.standardError = try standardError.map { try FileHandle(forWritingTo: URL(fileURLWithPath: $0)) } ?? err
        let stdin = Pipe()
        if input != nil { process.standardInput = stdin }
        try process.run()
        if let timeout {
            let pid = process.processIdentifier
            DispatchQueue.global().asyncAfter(deadline: .now() + timeout) { if process.isRunning { kill(pid, SIGKILL) } }
        }
        if let input {
            stdin.fileHandleForWriting.write(Data(input.utf8))
            try stdin.fileHandleForWriting.close()
        }
        // Read both pipes to the end before waiting, so a large output cannot block.
        let outData = standardOutput == nil ? out.fileHandleForReading.readDataToEndOfFile() : Data()
        let errData = standardError == nil ? err.fileHandleForReading.readDataToEndOfFile() : Data()
        process.waitUntilExit()
        return CommandResult(
            status: process.terminationStatus, stdout: String(decoding: outData, as: UTF8.self),
            stderr: String(decoding: errData, as: UTF8.self))
    }

    /// Runs `script` with `/bin/sh -c`, `$0` the `mosaic` executable and `$1`... the
    /// arguments: for arguments whose bytes are not UTF-8 (`printf '\\351'`), which
    /// `Process` cannot pass.
    static func runInShell(_ script: String, arguments: [String]) throws -> CommandResult {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/bin/sh")
        process.arguments = ["-c", script, productsDirectory.appendingPathComponent("mosaic").path] + arguments
        process.environment = ProcessInfo.processInfo.environment.merging(["MOSAIC_CACHE": "off"]) { $1 }
        let out = Pipe(), err = Pipe()
        process.standardOutput = out
        process.standardError = err
        try process.run()
        let outData = out.fileHandleForReading.readDataToEndOfFile()
        let errData = err.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return CommandResult(
            status: process.terminationStatus, stdout: String(decoding: outData, as: UTF8.self),
            stderr: String(decoding: errData, as: UTF8.self))
    }

    static let repository: URL = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
    static let sampleImages = repository.appendingPathComponent("SampleImages").path

    static func temporaryDirectory(_ name: String = #function) -> String {
        let path = NSTemporaryDirectory() + "mosaic-cli-\(getpid())-\(name.filter { $0.isLetter })-\(UUID().uuidString.prefix(8))"
        try! FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
        return path
    }
}
