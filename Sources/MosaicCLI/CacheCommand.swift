import ArgumentParser
import Foundation
import Mosaic

/// `mosaic cache`: what the card cache holds, and clearing it.
struct CacheCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "cache",
        abstract: "Show or clear the card cache that renders reuse.",
        discussion: "The cache keeps each card's image reduced to its size, keyed by the file's content and everything that changes its pixels; output with it is byte-identical to output without it. Exit status: 0, 2 when the folder cannot be used, 64 for a usage error.")

    @Option(help: ArgumentHelp("The cache's folder (default: $XDG_CACHE_HOME/mosaic, else ~/.cache/mosaic).", valueName: "dir"))
    var cache: String?
    @Flag(help: "Remove every entry.")
    var clear = false
    @Option(help: ArgumentHelp("Trim the entries to SIZE, least recently used first.", valueName: "size"))
    var trim: String?

    func validate() throws {
        if let trim {
            do throws(CacheError) { _ = try CacheSettings.size(trim) } catch { throw ValidationError("--trim: \(error)") }
        }
        if clear && trim != nil { throw ValidationError("--clear and --trim go not together") }
    }

    func run() throws {
        guard let folder = cache ?? CardCache.defaultFolder() else { throw ExitCode(2) }
        guard FileNames.status(folder) != nil else {
            print("\(FileNames.display(folder)): no cache yet")
            return
        }
        if clear {
            let removed = CacheUsage.clear(folder: folder)
            print("\(FileNames.display(folder)): cleared (\(removed) file\(removed == 1 ? "" : "s") removed)")
            return
        }
        if let trim, let limit = try? CacheSettings.size(trim) {
            let removed = CacheUsage.trim(folder: folder, limit: limit)
            print("\(FileNames.display(folder)): \(removed) entr\(removed == 1 ? "y" : "ies") removed")
        }
        let usage = CacheUsage(folder: folder)
        print("\(FileNames.display(folder))")
        print("  cards: \(usage.entries) (\(Self.bytes(usage.bytes)))")
        print("  files indexed on this machine: \(usage.indexed)")
    }

    static func bytes(_ count: Int) -> String {
        switch count {
        case ..<1000: return "\(count) bytes"
        case ..<1_000_000: return String(format: "%.1f kB", Double(count) / 1e3)
        case ..<1_000_000_000: return String(format: "%.1f MB", Double(count) / 1e6)
        default: return String(format: "%.2f GB", Double(count) / 1e9)
        }
    }
}
