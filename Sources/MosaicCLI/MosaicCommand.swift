import ArgumentParser
import Foundation
import Mosaic

@main
struct MosaicCommand: ParsableCommand {
    /// An interrupted run removes its temporary files; the previous outputs stay as they were.
    static func main() {
        Terminal.reserveStandardDescriptors()
        TemporaryFiles.removeOnInterrupt()
        // Before any thread allocates (see Allocator).
        _ = Allocator.returnLargeBlocks
        do {
            // The arguments as bytes: a file name that is not UTF-8 keeps them (FileNames).
            let arguments = (1..<Int(CommandLine.argc)).map { index -> String in
                guard let argument = CommandLine.unsafeArgv[index] else { return "" }
                return FileNames.string(fromBytes: UnsafeBufferPointer(start: argument, count: strlen(argument)).map { UInt8(bitPattern: $0) })
            }
            var command = try parseAsRoot(arguments)
            try command.run()
        } catch {
            Terminal.exit(with: error)
        }
        Terminal.exit(with: nil)
    }

    /// What `mosaic --version` prints: the release and, when built from a git work tree,
    /// the commit (`0.6.0 (b40706f)`). The commit stays here: sheets, pyramids and shard
    /// identities record `MosaicVersion.string` alone, so they do not change with it.
    static let versionLine = MosaicVersion.string + (BuildCommit.hash.map { " (\($0))" } ?? "")

    static let configuration = CommandConfiguration(
        commandName: "mosaic",
        abstract: "Contact sheets and tile pyramids of photos, and visual diffs of images.",
        version: versionLine,
        subcommands: [RenderCommand.self, LayoutCommand.self, DiffCommand.self, ProbeCommand.self, AssembleCommand.self])
}
