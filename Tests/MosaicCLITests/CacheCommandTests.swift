import Foundation
import MosaicTestSupport
import Testing

/// `mosaic render` with the card cache, `--each` with unchanged sheets, and `mosaic cache`.
@Suite(.serialized) struct CacheCommandTests {
    static func folder(_ name: String) throws -> String {
        let dir = NSTemporaryDirectory() + "mosaic-cache-cli-\(name)-\(getpid())"
        try? FileManager.default.removeItem(atPath: dir)
        for album in ["a", "b", "c"] {
            try FileManager.default.createDirectory(atPath: "\(dir)/albums/\(album)", withIntermediateDirectories: true)
            for file in ["coffee.jpg", "coins.png"] {
                try FileManager.default.copyItem(atPath: CLI.sampleImages + "/" + file, toPath: "\(dir)/albums/\(album)/\(file)")
            }
        }
        return dir
    }

    @Test func aSecondRenderLeavesTheSheetAndSaysSo() throws {
        let dir = try Self.folder("render")
        let environment = ["MOSAIC_CACHE": "on", "XDG_CACHE_HOME": dir + "/xdg"]
        let first = try CLI.run(["render", dir + "/albums/a", "-o", dir + "/a.png"], environment: environment)
        #expect(first.status == 0, "\(first.stderr)")
        #expect(FileManager.default.fileExists(atPath: dir + "/xdg/mosaic/CACHEDIR.TAG"))
        let second = try CLI.run(["render", dir + "/albums/a", "-o", dir + "/a.png"], environment: environment)
        #expect(second.status == 0)
        #expect(second.stderr.contains("unchanged: 2 images ->") && second.stderr.contains("left as it was"), "\(second.stderr)")
        let plain = try CLI.run(["render", dir + "/albums/a", "-o", dir + "/plain.png", "--no-cache"], environment: environment)
        #expect(plain.status == 0)
        #expect(try Data(contentsOf: URL(fileURLWithPath: dir + "/a.png")) == Data(contentsOf: URL(fileURLWithPath: dir + "/plain.png")))
        let shown = try CLI.run(["cache"], environment: environment)
        #expect(shown.status == 0 && shown.stdout.contains("cards: 2"), "\(shown.stdout)")
        let cleared = try CLI.run(["cache", "--clear"], environment: environment)
        #expect(cleared.status == 0 && cleared.stdout.contains("cleared"))
        #expect(try CLI.run(["cache"], environment: environment).stdout.contains("cards: 0"))
    }

    @Test func eachRewritesOnlyTheSheetsWhoseInputsChanged() throws {
        let dir = try Self.folder("each")
        let environment = ["MOSAIC_CACHE": "on", "XDG_CACHE_HOME": dir + "/xdg"]
        let arguments = ["render", dir + "/albums", "--each", "-o", dir + "/sheets/{folder}.png"]
        #expect(try CLI.run(arguments, environment: environment).status == 0)
        let inodes = try ["a", "b", "c"].map { try FileManager.default.attributesOfItem(atPath: "\(dir)/sheets/\($0).png")[.systemFileNumber] as? Int }
        try FileManager.default.copyItem(atPath: CLI.sampleImages + "/horse.png", toPath: dir + "/albums/b/horse.png")
        let again = try CLI.run(arguments, environment: environment)
        #expect(again.status == 0)
        #expect(again.stderr.contains("3 of 3 sheets written (2 unchanged, left as they were)"), "\(again.stderr)")
        let after = try ["a", "b", "c"].map { try FileManager.default.attributesOfItem(atPath: "\(dir)/sheets/\($0).png")[.systemFileNumber] as? Int }
        #expect(after[0] == inodes[0] && after[2] == inodes[2] && after[1] != inodes[1])
    }

    /// Two shards of one board, run at once and filling one `--cache` folder, assemble to
    /// the pyramid one process draws without a cache; run again, they draw from the cache
    /// and the assembly changes no tile.
    @Test func shardsSharingACacheAssembleToTheOneProcessPyramid() throws {
        let dir = try Self.folder("shards")
        let render = ["render", dir + "/albums", "--recursive", "-o", dir + "/board.dzi", "--tile-size", "62", "--tile-format", "png", "-q", "--cache", dir + "/shared"]
        for round in 0..<2 {
            // The two shards at once, each its own process.
            let shards = try ["0/2", "1/2"].map { shard in
                let process = Process()
                process.executableURL = CLI.productsDirectory.appendingPathComponent("mosaic")
                process.arguments = render + ["--shard", shard]
                process.environment = ProcessInfo.processInfo.environment.merging(["MOSAIC_CACHE": "on"]) { $1 }
                process.standardError = FileHandle.nullDevice
                try process.run()
                return process
            }
            for process in shards {
                process.waitUntilExit()
                #expect(process.terminationStatus == 0)
            }
            let assembled = try CLI.run(["assemble", dir + "/board.dzi"])
            #expect(assembled.status == 0, "\(assembled.stderr)")
            if round == 1 { #expect(assembled.stderr.contains(" changed)"), "\(assembled.stderr)") }
        }
        // Three albums of the same two photos at one card size: two entries.
        #expect(fileIdentities(dir + "/shared/cards").count == 2)
        let plain = try CLI.run(["render", dir + "/albums", "--recursive", "-o", dir + "/plain.dzi", "--tile-size", "62", "--tile-format", "png", "--no-cache", "-q"])
        #expect(plain.status == 0, "\(plain.stderr)")
        let board = fileIdentities(dir + "/board_files").keys.sorted(), reference = fileIdentities(dir + "/plain_files").keys.sorted()
        #expect(board == reference && board.count > 20)
        for tile in board {
            #expect(FileManager.default.contents(atPath: dir + "/board_files/" + tile) == FileManager.default.contents(atPath: dir + "/plain_files/" + tile), "\(tile)")
        }
    }

    @Test func badCacheOptionsAreUsageErrors() throws {
        let size = try CLI.run(["render", CLI.sampleImages, "--cache-size", "lots"])
        #expect(size.status == 64 && size.stderr.contains("--cache-size: not a size: lots"), "\(size.stderr)")
        let both = try CLI.run(["render", CLI.sampleImages, "--cache", "/tmp/x", "--no-cache"])
        #expect(both.status == 64 && both.stderr.contains("--no-cache and --cache"), "\(both.stderr)")
    }

    @Test func aCacheFolderOtherUsersCanWriteIsRefused() throws {
        let dir = try Self.folder("untrusted")
        try FileManager.default.createDirectory(atPath: dir + "/shared", withIntermediateDirectories: true)
        chmod(dir + "/shared", 0o777)
        let result = try CLI.run(["render", dir + "/albums/a", "-o", dir + "/a.png", "--cache", dir + "/shared"], environment: ["MOSAIC_CACHE": "on"])
        #expect(result.status != 0 && result.stderr.contains("other users can write it"), "\(result.stderr)")
        #expect(!FileManager.default.fileExists(atPath: dir + "/a.png"))
    }
}

/// `mosaic render --watch`: renders, then again after each change of its inputs.
@Suite struct WatchTests {
    @Test func aChangedFolderIsRenderedAgainAndCtrlCLeavesTheLastSheet() throws {
        let dir = NSTemporaryDirectory() + "mosaic-watch-\(getpid())"
        try? FileManager.default.removeItem(atPath: dir)
        try FileManager.default.createDirectory(atPath: dir + "/photos", withIntermediateDirectories: true)
        try FileManager.default.copyItem(atPath: CLI.sampleImages + "/coffee.jpg", toPath: dir + "/photos/coffee.jpg")
        let process = Process()
        process.executableURL = CLI.productsDirectory.appendingPathComponent("mosaic")
        process.arguments = ["render", dir + "/photos", "-o", dir + "/sheet.png", "--watch"]
        process.environment = ProcessInfo.processInfo.environment.merging(["MOSAIC_CACHE": "off"]) { $1 }
        let log = dir + "/log.txt"
        _ = FileManager.default.createFile(atPath: log, contents: nil)
        process.standardError = try FileHandle(forWritingTo: URL(fileURLWithPath: log))
        try process.run()
        defer { if process.isRunning { kill(process.processIdentifier, SIGKILL) } }
        func waitFor(_ text: String, count: Int) -> Bool {
            for _ in 0..<600 {
                let seen = (try? String(contentsOfFile: log, encoding: .utf8)) ?? ""
                if seen.components(separatedBy: text).count - 1 >= count { return true }
                usleep(100_000)
            }
            return false
        }
        #expect(waitFor("rendered 1 image", count: 1))
        try FileManager.default.copyItem(atPath: CLI.sampleImages + "/coins.png", toPath: dir + "/photos/coins.png")
        #expect(waitFor("rendered 2 images", count: 1), "\((try? String(contentsOfFile: log, encoding: .utf8)) ?? "")")
        let text = (try? String(contentsOfFile: log, encoding: .utf8)) ?? ""
        #expect(text.contains("changed: \(dir)/photos/coins.png"))
        kill(process.processIdentifier, SIGINT)
        process.waitUntilExit()
        #expect(process.terminationStatus == 130)
        let sheet = try #require(FileManager.default.contents(atPath: dir + "/sheet.png"))
        #expect(sheet.starts(with: [0x89, 0x50, 0x4E, 0x47]))
        let leftovers = try FileManager.default.contentsOfDirectory(atPath: dir).filter { $0.hasPrefix(".") }
        #expect(leftovers.isEmpty, "\(leftovers)")
    }

    @Test func watchWantsFilesItCanWatch() throws {
        let list = try CLI.run(["render", "--files-from", "-", "--watch"], input: CLI.sampleImages + "/coffee.jpg\n")
        #expect(list.status == 64 && list.stderr.contains("--watch"), "\(list.stderr)")
        let stdout = try CLI.run(["render", CLI.sampleImages, "-o", "-", "--watch"])
        #expect(stdout.status == 64 && stdout.stderr.contains("--watch"), "\(stdout.stderr)")
    }
}
