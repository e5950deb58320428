import Foundation
import Mosaic
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

    @Test func aIIIFFolder() throws {
        let dir = CLI.temporaryDirectory()
        let result = try CLI.run(["render", CLI.sampleImages + "/manifest.json", "--format", "iiif", "-o", dir + "/board", "--iiif-id", "https://example.org/iiif/board"])
        #expect(result.status == 0, "\(result.stderr)")
        let info = try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: dir + "/board/info.json"))) as? [String: Any])
        #expect(info["id"] as? String == "https://example.org/iiif/board")
        #expect(FileManager.default.fileExists(atPath: dir + "/board/0,0,256,256/256,256/0/default.jpg"))
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
