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

    static func run(_ arguments: [String], in directory: String? = nil, creating folder: String? = nil) throws -> CommandResult {
        if let folder { try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true) }
        let process = Process()
        process.executableURL = productsDirectory.appendingPathComponent("mosaic")
        process.arguments = arguments
        if let directory { process.currentDirectoryURL = URL(fileURLWithPath: directory) }
        let out = Pipe(), err = Pipe()
        process.standardOutput = out
        process.standardError = err
        try process.run()
        // Read both pipes to the end before waiting, so a large output cannot block.
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
