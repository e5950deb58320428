import ArgumentParser
import Mosaic

@main
struct MosaicCommand: ParsableCommand {
    /// An interrupted run removes its temporary files; the previous outputs stay as they were.
    static func main() {
        TemporaryFiles.removeOnInterrupt()
        do {
            var command = try parseAsRoot()
            try command.run()
        } catch {
            exit(withError: error)
        }
    }

    static let configuration = CommandConfiguration(
        commandName: "mosaic",
        abstract: "Masonry contact sheets of photos, as PNG.",
        subcommands: [RenderCommand.self, LayoutCommand.self, DiffCommand.self, ProbeCommand.self])
}
