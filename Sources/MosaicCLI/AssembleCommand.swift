import ArgumentParser
import Foundation
import Mosaic

/// `mosaic assemble board.dzi`: the pyramid from its shards (`render --shard K/N`).
struct AssembleCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "assemble",
        abstract: "Finish a tile pyramid rendered in shards (render ... -o NAME.dzi --shard K/N): the levels above the shards', the descriptors, the viewer.",
        discussion: "Before it writes anything, every shard's record is read and every file it lists checked against its CRC-32; the shards' tiles are linked (copied across file systems), never moved, and the shards removed only once the pyramid is in place: an interrupted assembly loses nothing, run it again. A second assembly of the same shards, or one while a shard is being rendered, is refused (the shards' folder is locked). Folders missing above the descriptor are created (mode 0755 less the umask). Exit status: 0 when the pyramid is in place (the same bytes as a render in one process), 1 when it is not (shards missing, unreadable or damaged, named with the file; shards of different boards; another assembly running; a descriptor, folder or viewer mosaic did not write; a file that cannot be written), 64 for a usage error.")

    @Argument(help: ArgumentHelp("The pyramid the shards were rendered for: NAME.dzi, or the IIIF folder.", valueName: "output"))
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
                    "assembled \(summary.shards) shards -> \(summary.files.joined(separator: ", ")) (\(summary.width)x\(summary.height), \(summary.tiles) tiles) (\(String(format: "%.2f", Date().timeIntervalSince(started))) s)")
            }
        }
    }
}
