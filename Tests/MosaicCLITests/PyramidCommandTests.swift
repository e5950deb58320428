import Foundation
import Mosaic
import MosaicTestSupport
import Testing

/// `mosaic render -o board.dzi` and `--format iiif`: the files, the options, the refusals.
@Suite struct PyramidCommandTests {
    @Test func aDeepZoomPyramidOfTheSamples() throws {
        let dir = CLI.temporaryDirectory()
        let result = try CLI.run(["render", CLI.sampleImages + "/manifest.json", "-o", dir + "/board.dzi", "--json", dir + "/board.json"])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stderr.contains("-> \(dir)/board.dzi (1800x"), "\(result.stderr)")
        let dzi = try String(contentsOfFile: dir + "/board.dzi", encoding: .utf8)
        #expect(dzi.contains("Format=\"jpeg\" Overlap=\"1\" TileSize=\"254\""))
        #expect(FileManager.default.fileExists(atPath: dir + "/board_files/11/0_0.jpeg"))
        #expect(FileManager.default.fileExists(atPath: dir + "/board_files/0/0_0.jpeg"))
        #expect(FileManager.default.fileExists(atPath: dir + "/board.json"))
        // Again: the pyramid mosaic wrote is replaced.
        let again = try CLI.run(["render", CLI.sampleImages + "/manifest.json", "-o", dir + "/board.dzi", "--tile-format", "png", "--tile-size", "510"])
        #expect(again.status == 0, "\(again.stderr)")
        #expect(FileManager.default.fileExists(atPath: dir + "/board_files/11/0_0.png"))
        #expect(!FileManager.default.fileExists(atPath: dir + "/board_files/11/0_0.jpeg"))
    }


    /// Drawn again with nothing changed, by one process or by shards and an assembly: no
    /// tile, descriptor or viewer file is rewritten, and the summary says how many changed.
    @Test func aPyramidDrawnAgainKeepsItsUnchangedFiles() throws {
        let dir = CLI.temporaryDirectory()
        let render = ["render", CLI.sampleImages + "/manifest.json", "-o", dir + "/board.dzi", "--tile-size", "126"]
        let first = try CLI.run(render)
        #expect(first.status == 0, "\(first.stderr)")
        #expect(!first.stderr.contains(" changed, "), "\(first.stderr)")
        let before = fileIdentities(dir)
        #expect(before.keys.contains("board.dzi") && before.keys.contains("board.html") && before.count > 100)
        let again = try CLI.run(render)
        #expect(again.status == 0 && again.stderr.contains(" tiles, 0 changed, "), "\(again.stderr)")
        #expect(fileIdentities(dir) == before)
        // Two shards and their assembly over it: the same pyramid, nothing rewritten.
        for shard in ["0/2", "1/2"] {
            let part = try CLI.run(render + ["--shard", shard])
            #expect(part.status == 0, "\(part.stderr)")
        }
        let assembled = try CLI.run(["assemble", dir + "/board.dzi"])
        #expect(assembled.status == 0 && assembled.stderr.contains(" tiles, 0 changed)"), "\(assembled.stderr)")
        #expect(fileIdentities(dir) == before)
    }

    @Test func aIIIFFolder() throws {
        let dir = CLI.temporaryDirectory()
        let result = try CLI.run(["render", CLI.sampleImages + "/manifest.json", "--format", "iiif", "-o", dir + "/board", "--iiif-id", "https://example.org/iiif/board"])
        #expect(result.status == 0, "\(result.stderr)")
        let info = try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: dir + "/board/info.json"))) as? [String: Any])
        #expect(info["id"] as? String == "https://example.org/iiif/board")
        #expect(FileManager.default.fileExists(atPath: dir + "/board/0,0,256,256/256,256/0/default.jpg"))
        // Again into its own folder: replaced (before: "--output names a folder, not a file").
        let again = try CLI.run(["render", CLI.sampleImages + "/manifest.json", "--format", "iiif", "-o", dir + "/board", "--tile-format", "png"])
        #expect(again.status == 0, "\(again.stderr)")
        #expect(FileManager.default.fileExists(atPath: dir + "/board/0,0,256,256/256,256/0/default.png"))
        #expect(!FileManager.default.fileExists(atPath: dir + "/board/0,0,256,256/256,256/0/default.jpg"))
        // A folder mosaic did not write, or a file, is never replaced.
        try FileManager.default.createDirectory(atPath: dir + "/photos", withIntermediateDirectories: true)
        try Data("keep".utf8).write(to: URL(fileURLWithPath: dir + "/photos/notes.txt"))
        try Data("keep".utf8).write(to: URL(fileURLWithPath: dir + "/plain"))
        for target in ["photos", "plain"] {
            let foreign = try CLI.run(["render", CLI.sampleImages + "/manifest.json", "--format", "iiif", "-o", dir + "/" + target])
            #expect(foreign.status == 1, "\(foreign.stderr)")
            #expect(foreign.stderr.contains("error: \(dir)/\(target) exists and mosaic did not write it"), "\(foreign.stderr)")
        }
        #expect(try String(contentsOfFile: dir + "/photos/notes.txt", encoding: .utf8) == "keep")
        #expect(try String(contentsOfFile: dir + "/plain", encoding: .utf8) == "keep")
        #expect(try FileManager.default.contentsOfDirectory(atPath: dir + "/photos") == ["notes.txt"])
    }

    @Test func refusals() throws {
        let dir = CLI.temporaryDirectory()
        let input = CLI.sampleImages + "/manifest.json"
        // Usage errors, before any work.
        for arguments in [
            ["-o", dir + "/b.dzi", "--max-height", "900"],
            ["-o", dir + "/b.dzi", "--tile-size", "8"],
            ["-o", dir + "/b.dzi", "--tile-quality", "0"],
            ["-o", dir + "/b.dzi", "--background", "transparent", "--tile-format", "jpeg"],
            ["-o", dir + "/b.png", "--format", "dzi"],
            ["-o", dir + "/b.txt"],
            ["-o", "-", "--format", "iiif"],
        ] {
            let result = try CLI.run(["render", input] + arguments)
            #expect(result.status == 64, "\(arguments): \(result.stderr)")
        }
        // A folder that mosaic did not write is never replaced, nor a .dzi beside none.
        try FileManager.default.createDirectory(atPath: dir + "/mine_files", withIntermediateDirectories: true)
        try Data("keep".utf8).write(to: URL(fileURLWithPath: dir + "/mine_files/notes.txt"))
        let foreign = try CLI.run(["render", input, "-o", dir + "/mine.dzi"])
        #expect(foreign.status == 1 && foreign.stderr.contains("mine_files"), "\(foreign.stderr)")
        #expect(try String(contentsOfFile: dir + "/mine_files/notes.txt", encoding: .utf8) == "keep")
        try Data("mine".utf8).write(to: URL(fileURLWithPath: dir + "/other.dzi"))
        let descriptor = try CLI.run(["render", input, "-o", dir + "/other.dzi"])
        #expect(descriptor.status == 1, "\(descriptor.stderr)")
        #expect(try String(contentsOfFile: dir + "/other.dzi", encoding: .utf8) == "mine")
        #expect(!FileManager.default.fileExists(atPath: dir + "/other_files"))
        // Nor a page or a script of the same names that mosaic did not write.
        for name in ["page.html", "page.map.js"] {
            try Data("mine".utf8).write(to: URL(fileURLWithPath: dir + "/" + name))
            let viewer = try CLI.run(["render", input, "-o", dir + "/page.dzi"])
            #expect(viewer.status == 1 && viewer.stderr.contains(name), "\(viewer.stderr)")
            #expect(try String(contentsOfFile: dir + "/" + name, encoding: .utf8) == "mine")
            try FileManager.default.removeItem(atPath: dir + "/" + name)
        }
        let leftovers = try FileManager.default.contentsOfDirectory(atPath: dir).filter { $0.hasPrefix(".") }
        #expect(leftovers.isEmpty)
    }
}

/// A single PNG too large for common viewers is named before anything is drawn, with what
/// to do instead (before: nothing said; ImageMagick's identify then refuses a 1800x50857
/// sheet without a word).
@Suite struct LargeSheetTests {
    @Test func aPageTooLargeForViewersIsNamed() throws {
        let wide = try CLI.run(["layout", CLI.sampleImages + "/manifest.json", "--width", "16100", "--columns", "40"])
        #expect(wide.status == 0)
        #expect(wide.stderr.contains("warning: sheet.png would be 16100x"), "\(wide.stderr)")
        #expect(wide.stderr.contains("over 16000 px wide") && wide.stderr.contains("--width 16000 or less") && wide.stderr.contains("-o NAME.dzi"))
        let dir = CLI.temporaryDirectory()
        for n in 0..<120 { try FileManager.default.linkItem(atPath: CLI.sampleImages + "/coffee.jpg", toPath: dir + "/\(n).jpg") }
        let tall = try CLI.run(["layout", dir, "--width", "400", "--columns", "1"])
        #expect(tall.stderr.contains("px tall") && tall.stderr.contains("--max-height 16000"), "\(tall.stderr)")
        let fine = try CLI.run(["layout", CLI.sampleImages + "/manifest.json"])
        #expect(!fine.stderr.contains("warning"), "\(fine.stderr)")
        // 90 MP: Pillow's warning.
        let sheet = try ContactSheet(
            catalog: Catalog.manifest(CLI.sampleImages + "/manifest.json"),
            options: { var o = SheetOptions(); o.width = 15_000; o.columns = 2; return o }(),
            typesetter: Typesetter(fonts: try FontLibrary(systemFallback: false)))
        let large = try #require(sheet.pagesTooLargeForViewers.first)
        #expect(large.reasons.contains { $0.contains("Pillow") }, "\(large)")
    }
}

/// `--shard K/N` and `mosaic assemble`: N processes and an assembly give the same bytes as
/// one process; a missing shard is named; a shard run again replaces its own part; shards
/// of different boards are refused.
@Suite struct ShardTests {
    /// Every file under `folder` (relative path: bytes).
    static func files(_ folder: String) -> [String: Data] {
        var out: [String: Data] = [:]
        let enumerator = FileManager.default.enumerator(atPath: folder)
        while let relative = enumerator?.nextObject() as? String {
            var isFolder: ObjCBool = false
            if FileManager.default.fileExists(atPath: folder + "/" + relative, isDirectory: &isFolder), !isFolder.boolValue {
                out[relative] = FileManager.default.contents(atPath: folder + "/" + relative)
            }
        }
        return out
    }

    /// Runs `mosaic` with each argument list at once, as separate processes.
    static func runTogether(_ runs: [[String]]) throws -> [CommandResult] {
        let dir = CLI.temporaryDirectory()
        var processes: [Process] = []
        for (n, arguments) in runs.enumerated() {
            let process = Process()
            process.executableURL = CLI.productsDirectory.appendingPathComponent("mosaic")
            process.arguments = arguments
            _ = FileManager.default.createFile(atPath: dir + "/\(n).err", contents: nil)
            process.standardOutput = FileHandle.nullDevice
            process.standardError = try FileHandle(forWritingTo: URL(fileURLWithPath: dir + "/\(n).err"))
            try process.run()
            processes.append(process)
        }
        return processes.enumerated().map { n, process in
            process.waitUntilExit()
            let stderr = (try? String(contentsOfFile: dir + "/\(n).err", encoding: .utf8)) ?? ""
            return CommandResult(status: process.terminationStatus, stdout: "", stderr: stderr)
        }
    }

    @Test(arguments: [("dzi", "png"), ("dzi", "jpeg"), ("iiif", "jpeg")])
    func fourShardsAndAnAssemblyAreOneRender(kind: String, tiles: String) throws {
        let dir = CLI.temporaryDirectory()
        let manifest = CLI.sampleImages + "/manifest.json"
        for side in ["one", "four"] { try FileManager.default.createDirectory(atPath: dir + "/" + side, withIntermediateDirectories: true) }
        func output(_ side: String) -> [String] { kind == "dzi" ? ["-o", dir + "/\(side)/board.dzi"] : ["--format", "iiif", "-o", dir + "/\(side)/board"] }
        let target = kind == "dzi" ? dir + "/four/board.dzi" : dir + "/four/board"
        let one = try CLI.run(["render", manifest, "--tile-format", tiles, "--tile-size", "126"] + output("one"))
        #expect(one.status == 0, "\(one.stderr)")
        // Shards 0, 1 and 3 at once; 2 not yet: assemble names it and touches nothing.
        let first = try Self.runTogether([0, 1, 3].map { ["render", manifest, "--tile-format", tiles, "--tile-size", "126", "--shard", "\($0)/4", "--jobs", "1"] + output("four") })
        #expect(first.allSatisfy { $0.status == 0 }, "\(first.map(\.stderr))")
        let incomplete = try CLI.run(["assemble", target])
        #expect(incomplete.status == 1)
        #expect(incomplete.stderr.contains("1 of 4 shards missing (2/4)"), "\(incomplete.stderr)")
        #expect(!FileManager.default.fileExists(atPath: dir + "/four/board.html"))
        // Shard 2 rendered from other inputs is refused; run again right, it replaces its part.
        let wrong = try CLI.run(["render", manifest, "--tile-format", tiles, "--tile-size", "126", "--shard", "2/4", "--caption", "name"] + output("four"))
        #expect(wrong.status == 0)
        let disagree = try CLI.run(["assemble", target])
        #expect(disagree.status == 1 && disagree.stderr.contains("shard 2 rendered another board"), "\(disagree.stderr)")
        let again = try CLI.run(["render", manifest, "--tile-format", tiles, "--tile-size", "126", "--shard", "2/4"] + output("four"))
        #expect(again.status == 0, "\(again.stderr)")
        let assembled = try CLI.run(["assemble", target])
        #expect(assembled.status == 0, "\(assembled.stderr) \(again.stderr)")
        // The same bytes, every file.
        let a = Self.files(dir + "/one"), b = Self.files(dir + "/four")
        #expect(a.count > 20 && a.keys.sorted() == b.keys.sorted())
        #expect(a == b)
        #expect(!FileManager.default.fileExists(atPath: dir + "/four/board.shards"))
    }

    @Test func shardUsageErrors() throws {
        let manifest = CLI.sampleImages + "/manifest.json"
        for arguments in [["--shard", "4/4", "-o", "b.dzi"], ["--shard", "1/0", "-o", "b.dzi"], ["--shard", "x", "-o", "b.dzi"], ["--shard", "0/2", "-o", "b.png"]] {
            #expect(try CLI.run(["render", manifest] + arguments).status == 64, "\(arguments)")
        }
        let none = try CLI.run(["assemble", CLI.temporaryDirectory() + "/b.dzi"])
        #expect(none.status == 1 && none.stderr.contains("no shard's record found"), "\(none.stderr)")
    }
}
