import Foundation
import Mosaic
import Testing

#if canImport(Glibc)
import Glibc
#endif

/// `mosaic assemble` on the rare paths (issue 24): interrupted at any moment, damaged or
/// hostile shards, files it did not write, two at once; staged folders under SIGINT.
@Suite(.serialized) struct ShardTrustTests {
    static let manifest = CLI.sampleImages + "/manifest.json"
    /// A board of about 700 PNG tiles: an assembly long enough to be cut at several moments.
    static let board = ["--tile-size", "126", "--tile-format", "png", "--width", "3000"]

    /// A one-process render in `one/`, and three shards' parts in `dir/board.shards`
    /// (`dir` as deep as `one`: the viewer's map names the inputs relative to it).
    static func shardsAndReference(_ dir: String, one: String, count: Int = 3) throws {
        for folder in [dir, one] { try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true) }
        let single = try CLI.run(["render", manifest, "-o", one + "/board.dzi", "-q"] + board)
        #expect(single.status == 0, "\(single.stderr)")
        for index in 0..<count {
            let shard = try CLI.run(["render", manifest, "-o", dir + "/board.dzi", "--shard", "\(index)/\(count)", "-q"] + board)
            #expect(shard.status == 0, "\(shard.stderr)")
        }
    }

    /// The pyramid's files in `dir` (descriptor, viewer, tiles), relative path: bytes.
    static func pyramid(_ dir: String) -> [String: Data] {
        var out = ShardTests.files(dir + "/board_files").reduce(into: [String: Data]()) { $0["board_files/" + $1.key] = $1.value }
        for name in ["board.dzi", "board.html", "board.map.js"] { out[name] = FileManager.default.contents(atPath: dir + "/" + name) }
        return out
    }

    /// Starts `mosaic` with `arguments`; its standard error goes to a file.
    static func start(_ arguments: [String], errors: String) throws -> Process {
        let process = Process()
        process.executableURL = CLI.productsDirectory.appendingPathComponent("mosaic")
        process.arguments = arguments
        _ = FileManager.default.createFile(atPath: errors, contents: nil)
        process.standardOutput = FileHandle.nullDevice
        process.standardError = try FileHandle(forWritingTo: URL(fileURLWithPath: errors))
        try process.run()
        return process
    }

    /// Hidden entries (staged folders, temporary files) in `dir`.
    static func hidden(_ dir: String) -> [String] {
        ((try? FileManager.default.contentsOfDirectory(atPath: dir)) ?? []).filter { $0.hasPrefix(".") }.sorted()
    }

    /// Item 1 (before: SIGINT or SIGKILL 20 ms in left 370 of 709 shard tiles moved into the
    /// staged folder; the next assemble exited 0 with 348 tiles and other bytes). Cut at
    /// several moments by SIGKILL and SIGINT, the shards are whole (their bytes unchanged,
    /// or the pyramid already in place); a run again gives the one-process pyramid.
    @Test func anInterruptedAssemblyLosesNoShard() throws {
        let top = CLI.temporaryDirectory(), dir = top + "/three"
        try Self.shardsAndReference(dir, one: top + "/one")
        let reference = Self.pyramid(top + "/one")
        #expect(reference.count > 600)
        try FileManager.default.copyItem(atPath: dir + "/board.shards", toPath: dir + "/saved.shards")
        let shards = ShardTests.files(dir + "/saved.shards")
        var cut = 0  // assemblies interrupted before they were done
        for signal in [SIGKILL, SIGINT] {
            for delay in [0, 15, 40, 90] {
                try? FileManager.default.removeItem(atPath: dir + "/board.shards")
                try FileManager.default.copyItem(atPath: dir + "/saved.shards", toPath: dir + "/board.shards")
                for name in ["board.dzi", "board.html", "board.map.js", "board_files"] { try? FileManager.default.removeItem(atPath: dir + "/" + name) }
                let process = try Self.start(["assemble", dir + "/board.dzi"], errors: dir + "/err")
                usleep(useconds_t(delay * 1000))
                kill(process.processIdentifier, signal)
                process.waitUntilExit()
                let done = !FileManager.default.fileExists(atPath: dir + "/board.shards")
                if !done { cut += 1 }
                if done {
                    let same = Self.pyramid(dir) == reference
                    #expect(same, "signal \(signal) at \(delay) ms: finished, other bytes")
                } else {
                    let whole = ShardTests.files(dir + "/board.shards") == shards
                    #expect(whole, "signal \(signal) at \(delay) ms: the shards changed")
                }
                if signal == SIGINT {
                    #expect(Self.hidden(dir).isEmpty, "SIGINT at \(delay) ms left \(Self.hidden(dir))")
                }
                let again = try CLI.run(["assemble", dir + "/board.dzi"])
                #expect(again.status == (done ? 1 : 0), "signal \(signal) at \(delay) ms: \(again.stderr)")
                let same = Self.pyramid(dir) == reference
                #expect(same, "signal \(signal) at \(delay) ms, then again: other bytes")
                #expect(Self.hidden(dir).isEmpty, "signal \(signal) at \(delay) ms, then again: left \(Self.hidden(dir))")
            }
        }
        #expect(cut >= 2, "no assembly was cut before it was done")
    }

    /// Item 3 (before: a missing, corrupt or stray tile, a zeroed hand-over, a zeroed
    /// shard.json all exited 0 with other bytes, or "missing"). Each is named, with its
    /// shard, and nothing is written.
    @Test func damagedShardsAreNamedAndNothingIsWritten() throws {
        let dir = CLI.temporaryDirectory()
        let manifest = Self.manifest
        for index in 0..<2 {
            #expect(try CLI.run(["render", manifest, "-o", dir + "/board.dzi", "--shard", "\(index)/2", "--tile-size", "126", "-q"]).status == 0)
        }
        try FileManager.default.copyItem(atPath: dir + "/board.shards", toPath: dir + "/saved.shards")
        let shard1 = dir + "/board.shards/1-of-2"
        let record = try ShardRecord.decode(Data(contentsOf: URL(fileURLWithPath: shard1 + "/shard.json")))
        let tile = try #require(record.files.keys.sorted().first { !$0.hasPrefix("viewer") && $0 != "handover.rgba" })
        let damages: [(String, (String) throws -> Void, String)] = [
            ("missing tile", { try FileManager.default.removeItem(atPath: $0 + "/" + tile) }, "shard 1 damaged: \(tile) missing"),
            ("corrupt tile", { try Data([0xFF, 0xD8, 0]).write(to: URL(fileURLWithPath: $0 + "/" + tile)) }, "shard 1 damaged: \(tile) corrupt (not the bytes the shard wrote)"),
            ("stray tile", { try Data([1]).write(to: URL(fileURLWithPath: $0 + "/10/77_77.jpeg")) }, "shard 1 damaged: 10/77_77.jpeg stray (the shard did not write it)"),
            ("FIFO", { _ = mkfifo($0 + "/10/77_77.jpeg", 0o644) }, "shard 1 damaged: 10/77_77.jpeg stray (the shard did not write it)"),
            ("zeroed hand-over", { path in
                let size = try #require(FileManager.default.contents(atPath: path + "/handover.rgba")).count
                try Data(count: size).write(to: URL(fileURLWithPath: path + "/handover.rgba"))
            }, "shard 1 damaged: handover.rgba corrupt (not the bytes the shard wrote)"),
            ("zeroed record", { try Data(count: 4096).write(to: URL(fileURLWithPath: $0 + "/shard.json")) }, "shard 1 unreadable: shard.json is 4096 zero bytes; render it again with --shard 1/2"),
            ("no record", { try FileManager.default.removeItem(atPath: $0 + "/shard.json") }, "shard 1 unreadable: no shard.json"),
            ("cut record", { path in
                let data = try #require(FileManager.default.contents(atPath: path + "/shard.json"))
                try data.prefix(100).write(to: URL(fileURLWithPath: path + "/shard.json"))
            }, "shard 1 unreadable: shard.json is not JSON (100 bytes:"),
            ("record of shard 0", { path in
                try FileManager.default.removeItem(atPath: path + "/shard.json")
                try FileManager.default.copyItem(atPath: dir + "/saved.shards/0-of-2/shard.json", toPath: path + "/shard.json")
            }, "shard 1 unreadable: shard.json describes no shard a render writes: its folder is shard 1/2's, its record shard 0/2's"),
            ("record as a FIFO", { try FileManager.default.removeItem(atPath: $0 + "/shard.json"); _ = mkfifo($0 + "/shard.json", 0o644) }, "shard 1 unreadable: shard.json cannot be read: not a regular file"),
        ]
        for (name, damage, message) in damages {
            try? FileManager.default.removeItem(atPath: dir + "/board.shards")
            try FileManager.default.copyItem(atPath: dir + "/saved.shards", toPath: dir + "/board.shards")
            try damage(shard1)
            let result = try CLI.run(["assemble", dir + "/board.dzi"])
            #expect(result.status == 1, "\(name): \(result.stderr)")
            #expect(result.stderr.contains("error: \(dir)/board.shards: \(message)"), "\(name): \(result.stderr)")
            #expect(!FileManager.default.fileExists(atPath: dir + "/board.dzi") && !FileManager.default.fileExists(atPath: dir + "/board_files"), "\(name)")
            #expect(FileManager.default.fileExists(atPath: dir + "/board.shards/0-of-2/shard.json"), "\(name)")
        }
    }

    /// A shard's record is the same bytes when the shard is rendered again.
    @Test func aShardRecordIsTheSameBytesEveryRun() throws {
        let dir = CLI.temporaryDirectory()
        var records: [Data] = []
        for _ in 0..<2 {
            #expect(try CLI.run(["render", Self.manifest, "-o", dir + "/board.dzi", "--shard", "0/2", "--tile-size", "126", "-q"]).status == 0)
            records.append(try Data(contentsOf: URL(fileURLWithPath: dir + "/board.shards/0-of-2/shard.json")))
        }
        #expect(records[0] == records[1] && records[0].count > 1000)
        let record = try ShardRecord.decode(records[0])
        #expect(record.files.count == record.tiles + 3)  // the hand-over and the viewer's two files
    }

    /// Item 2 (before: assemble replaced a board.dzi that mosaic did not write, which
    /// render refuses). Refused before any work; the shards stay.
    @Test func assembleReplacesNothingMosaicDidNotWrite() throws {
        let dir = CLI.temporaryDirectory()
        for index in 0..<2 {
            #expect(try CLI.run(["render", Self.manifest, "-o", dir + "/board.dzi", "--shard", "\(index)/2", "--tile-size", "126", "-q"]).status == 0)
        }
        for name in ["board.dzi", "board.html", "board.map.js"] {
            try Data("mine".utf8).write(to: URL(fileURLWithPath: dir + "/" + name))
            let result = try CLI.run(["assemble", dir + "/board.dzi"])
            #expect(result.status == 1, "\(name): \(result.stderr)")
            #expect(result.stderr.contains("error: \(dir)/\(name) exists and mosaic did not write it"), "\(name): \(result.stderr)")
            #expect(try String(contentsOfFile: dir + "/" + name, encoding: .utf8) == "mine")
            #expect(!FileManager.default.fileExists(atPath: dir + "/board_files") && Self.hidden(dir).isEmpty)
            try FileManager.default.removeItem(atPath: dir + "/" + name)
        }
        #expect(try CLI.run(["assemble", dir + "/board.dzi"]).status == 0)
    }

    /// Item 20 (before: two assemblies on the same shards ran interleaved). The shards'
    /// folder is locked: a second assembly, or a shard rendered meanwhile, is refused.
    @Test func aSecondAssemblyIsRefused() throws {
        let dir = CLI.temporaryDirectory()
        for index in 0..<2 {
            #expect(try CLI.run(["render", Self.manifest, "-o", dir + "/board.dzi", "--shard", "\(index)/2", "--tile-size", "126", "-q"]).status == 0)
        }
        let busy = "error: \(dir)/board.shards: another mosaic is assembling these shards or rendering one of them"
        do {
            // As an assembly holds it.
            let lock = try ShardsLock(dir + "/board.shards", exclusive: true)
            let second = try CLI.run(["assemble", dir + "/board.dzi"])
            #expect(second.status == 1 && second.stderr.contains(busy), "\(second.stderr)")
            let shard = try CLI.run(["render", Self.manifest, "-o", dir + "/board.dzi", "--shard", "1/2", "--tile-size", "126"])
            #expect(shard.status == 1 && shard.stderr.contains(busy), "\(shard.stderr)")
            lock.release()
        }
        do {
            // As a shard being rendered holds it.
            let lock = try ShardsLock(dir + "/board.shards", exclusive: false)
            let assembly = try CLI.run(["assemble", dir + "/board.dzi"])
            #expect(assembly.status == 1 && assembly.stderr.contains(busy), "\(assembly.stderr)")
            lock.release()
        }
        #expect(!FileManager.default.fileExists(atPath: dir + "/board.dzi"))
        // Two at once: one assembles, the other is refused (busy, or the shards are gone).
        let both = try ShardTests.runTogether([["assemble", dir + "/board.dzi"], ["assemble", dir + "/board.dzi"]])
        #expect(both.filter { $0.status == 0 }.count == 1, "\(both.map(\.stderr))")
        #expect(both.allSatisfy { $0.status == 0 || $0.stderr.contains(busy) || $0.stderr.contains("no shard's record found") }, "\(both.map(\.stderr))")
    }

    /// Item 17: the first shard interrupted leaves neither its staged folder nor the shards'
    /// folder it made (before: both stayed until the next run).
    @Test func anInterruptedFirstShardLeavesNothing() throws {
        let dir = CLI.temporaryDirectory()
        let process = try Self.start(["render", Self.manifest, "-o", dir + "/board.dzi", "--shard", "0/2", "--tile-size", "64", "--tile-format", "png", "--width", "3000"], errors: dir + "/err")
        defer { try? FileManager.default.removeItem(atPath: dir + "/err") }
        var waited = 0
        while waited < 20_000, process.isRunning,
            ShardTests.files(dir + "/board.shards/" + (Self.hidden(dir + "/board.shards").first ?? "none")).count < 20
        {
            usleep(2000)
            waited += 2
        }
        #expect(process.isRunning, "finished before it could be interrupted")
        kill(process.processIdentifier, SIGINT)
        process.waitUntilExit()
        #expect(process.terminationStatus == 128 + SIGINT)
        #expect(!FileManager.default.fileExists(atPath: dir + "/board.shards") && Self.hidden(dir).isEmpty)
    }

    /// Issue 35 item 20 (before: a SIGKILLed shard's staged folder stayed until that shard
    /// ran again; another shard's run and an assembly left it). Shard 1/3 killed while it
    /// writes tiles: the assembly (refused, shard 1 missing) removes its staged folder; killed
    /// again, the next run of shard 2 does.
    @Test func aKilledShardsStagedFolderIsRemovedByTheNextRun() throws {
        let dir = CLI.temporaryDirectory()
        let shards = dir + "/board.shards"
        let arguments = ["render", Self.manifest, "-o", dir + "/board.dzi", "--tile-size", "64", "--tile-format", "png", "--width", "3000", "-q"]
        #expect(try CLI.run(arguments + ["--shard", "0/3"]).status == 0)
        func killShardOne() throws {
            let process = try Self.start(arguments + ["--shard", "1/3"], errors: dir + "/err")
            var waited = 0
            while waited < 20_000, process.isRunning, ShardTests.files(shards + "/" + (Self.hidden(shards).first ?? "none")).count < 20 {
                usleep(2000)
                waited += 2
            }
            #expect(process.isRunning, "finished before it could be killed")
            kill(process.processIdentifier, SIGKILL)
            process.waitUntilExit()
            #expect(Self.hidden(shards) == [".1-of-3.mosaic-\(process.processIdentifier).tmp"])
        }
        try killShardOne()
        let assembly = try CLI.run(["assemble", dir + "/board.dzi"])
        #expect(assembly.status != 0 && assembly.stderr.contains("1/3"), "\(assembly.stderr)")
        #expect(Self.hidden(shards).isEmpty)
        try killShardOne()
        #expect(try CLI.run(arguments + ["--shard", "2/3"]).status == 0)
        #expect(Self.hidden(shards).isEmpty)
        try? FileManager.default.removeItem(atPath: dir + "/err")
    }

    /// Item 17 (before: the HTML report's staged folder of diff images was left after
    /// SIGINT until the next run). Interrupted once its staged folder exists, a diff leaves
    /// nothing.
    @Test func anInterruptedHTMLReportLeavesNothing() throws {
        let dir = CLI.temporaryDirectory()
        let images = try FileManager.default.contentsOfDirectory(atPath: CLI.sampleImages).filter { $0.hasSuffix(".jpg") }.sorted()
        for side in ["a", "b"] { try FileManager.default.createDirectory(atPath: dir + "/" + side, withIntermediateDirectories: true) }
        for (n, name) in images.enumerated() {
            for copy in 0..<3 {
                try FileManager.default.copyItem(atPath: CLI.sampleImages + "/" + name, toPath: dir + "/a/\(n)-\(copy).jpg")
                try FileManager.default.copyItem(atPath: CLI.sampleImages + "/" + images[images.count - 1 - n], toPath: dir + "/b/\(n)-\(copy).jpg")
            }
        }
        let process = try Self.start(["diff", dir + "/a", dir + "/b", "--html", dir + "/r.html"], errors: dir + "/err")
        defer { try? FileManager.default.removeItem(atPath: dir + "/err") }
        var waited = 0
        while waited < 20_000, process.isRunning, !Self.hidden(dir).contains(where: { $0.hasPrefix(".r_files.mosaic-") }) {
            usleep(1000)
            waited += 1
        }
        #expect(process.isRunning, "finished before it could be interrupted")
        kill(process.processIdentifier, SIGINT)
        process.waitUntilExit()
        #expect(process.terminationStatus == 128 + SIGINT)
        #expect(Self.hidden(dir).isEmpty, "left \(Self.hidden(dir))")
        #expect(!FileManager.default.fileExists(atPath: dir + "/r.html") && !FileManager.default.fileExists(atPath: dir + "/r_files"))
    }

    /// Item 17 (before: a pyramid's staged folder was left after SIGINT, SIGTERM or SIGHUP
    /// until the next run). Interrupted while its staged folder is being written, a render
    /// leaves nothing.
    @Test(arguments: [SIGINT, SIGTERM, SIGHUP])
    func anInterruptedPyramidRenderLeavesNothing(signal: Int32) throws {
        let dir = CLI.temporaryDirectory()
        let process = try Self.start(["render", Self.manifest, "-o", dir + "/board.dzi"] + Self.board, errors: dir + "/err")
        defer { try? FileManager.default.removeItem(atPath: dir + "/err") }
        // Until tiles are being written into the staged folder.
        var waited = 0
        while waited < 20_000, !Self.hidden(dir).contains(where: { $0.hasPrefix(".board_files.mosaic-") })
            || ShardTests.files(dir + "/" + (Self.hidden(dir).first ?? "")).count < 20
        {
            usleep(2000)
            waited += 2
        }
        #expect(process.isRunning, "finished before it could be interrupted")
        kill(process.processIdentifier, signal)
        process.waitUntilExit()
        #expect(process.terminationStatus == 128 + signal)
        #expect(Self.hidden(dir).isEmpty, "left \(Self.hidden(dir))")
        #expect(!FileManager.default.fileExists(atPath: dir + "/board.dzi") && !FileManager.default.fileExists(atPath: dir + "/board_files"))
    }
}
