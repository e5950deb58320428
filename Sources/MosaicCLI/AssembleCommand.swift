import ArgumentParser
import Foundation
import Mosaic

/// `mosaic assemble board.dzi`: the pyramid from its shards (`render --shard K/N`).
struct AssembleCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "assemble",
        abstract: "Finish a tile pyramid rendered in shards (render --shard K/N).",
        discussion: "Exit status: 0 when the pyramid is in place, 1 when it is not (a shard missing or damaged, named), 64 for a usage error.")

    @Argument(help: ArgumentHelp(pyramidHelp(), valueName: "output"))
    var output: String

    @Option(parsing: .unconditional, help: "Threads encoding tiles (default: the number of cores).")
    var jobs: Int?

    @Flag(name: [.short, .long], help: "Print nothing but errors.")
    var quiet = false

    func validate() throws {
        if let jobs, jobs < 1 || jobs > 256 { throw ValidationError("--jobs must be between 1 and 256, got \(jobs)") }
    }

    func run() throws {
        let started = Date()
        try reportingErrors {
            let summary = try PyramidAssembly.assemble(output, threads: jobs ?? ProcessInfo.processInfo.activeProcessorCount)
            if !quiet {
                printError(
                    "assembled \(summary.shards) shards -> \(summary.files.joined(separator: ", ")) (\(summary.width)x\(summary.height), \(summary.tiles) tiles\(summary.unchangedTiles.map { ", \(summary.tiles - $0) changed" } ?? "")) (\(String(format: "%.2f", Date().timeIntervalSince(started))) s)")
            }
        }
    }
}

/// The pyramid `assemble` takes, named as `render` named it: each pyramid kind's hint, from
/// the registry.
func pyramidHelp() -> String {
    var hints: [String] = []
    for kind in OutputKinds.all where !kind.takesPages { hints.append(kind.hint) }
    return "The pyramid, named as render named it: " + hints.joined(separator: "; ") + "."
}
