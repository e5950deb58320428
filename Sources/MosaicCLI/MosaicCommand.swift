import ArgumentParser
import Mosaic

@main
struct MosaicCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "mosaic",
        abstract: "Masonry contact sheets of photos, as PNG.",
        subcommands: [RenderCommand.self, LayoutCommand.self, DiffCommand.self, ProbeCommand.self])
}
