import Foundation
import Mosaic
import Testing

/// Messages that misled (issue 24, item 16), each with its exact text now; and the
/// refusals of --strict, which name every input (item 12).
@Suite struct MessageTests {
    static let font = InputTrustTests.font

    @Test func sizeOptionsStateBothBounds() throws {
        let result = try CLI.run(["layout", CLI.sampleImages, "--font-size", "1000"])
        #expect(result.status == 64)
        #expect(result.stderr.hasPrefix("Error: --font-size must be above 0 and below 1000 pixels, got 1000.0\n"))
        let header = try CLI.run(["layout", CLI.sampleImages, "--header-size", "0"])
        #expect(header.stderr.hasPrefix("Error: --header-size must be above 0 and below 1000 pixels, got 0.0\n"))
    }

    @Test func shardSaysWhichPartIsWrong() throws {
        func error(_ shard: String) throws -> String {
            let result = try CLI.run(["render", CLI.sampleImages, "-o", CLI.temporaryDirectory() + "/b.dzi", "--shard", shard])
            #expect(result.status == 64)
            return String(result.stderr.prefix { $0 != "\n" })
        }
        #expect(try error("0/1000000") == "Error: --shard: at most 10000 shards, got 1000000")
        #expect(try error("-1/4") == "Error: --shard -1/4: K must be 0 to 3 (K counts from 0), got -1")
        #expect(try error("4/4") == "Error: --shard 4/4: K must be 0 to 3 (K counts from 0), got 4")
        #expect(try error("half") == "Error: --shard must be K/N with 0 <= K < N (K from 0) and N at most 10000, got \"half\"")
    }

    @Test func filesFromSaysWhatIsWrongWithTheList() throws {
        let empty = try CLI.run(["render", "--files-from", "/dev/null"])
        #expect(empty.status == 64)
        #expect(empty.stderr.hasPrefix("Error: --files-from: /dev/null lists no files\n"))
        let folder = CLI.temporaryDirectory()
        let notAList = try CLI.run(["render", "--files-from", folder])
        #expect(notAList.stderr.hasPrefix("Error: --files-from: cannot read \(folder): Is a directory\n"))
        let missing = try CLI.run(["render", "--files-from", folder + "/none.txt"])
        #expect(missing.stderr.hasPrefix("Error: --files-from: cannot read \(folder)/none.txt: No such file or directory\n"))
    }

    /// `-o -` of a board the format's own limit splits into pages says so (it said "drop
    /// --max-height" when none was given); with --max-height, that advice stands.
    @Test func oneImageToStandardOutputSaysWhatSplitTheBoard() throws {
        for (format, width) in [("webp", "4000"), ("jpeg", "12000"), ("avif", "4000")] {
            let tall = try CLI.run(["render", CLI.sampleImages, "-o", "-", "--format", format, "--columns", "1", "--width", width, "--no-progress"] + Self.font)
            #expect(tall.status == 1, "\(tall.stderr)")
            #expect(!tall.stderr.contains("--max-height"), "\(tall.stderr)")
            let limit = ["webp": 16383, "jpeg": 65500, "avif": 32768][format] ?? 0
            #expect(tall.stderr.contains("--output - writes one \(format.uppercased()), and this board is longer than \(format.uppercased())'s \(limit) px, so it makes "),
                "\(tall.stderr)")
            #expect(tall.stderr.contains("pages; name a file to write them all, or make the board shorter (more --columns, a smaller --width)"))
            #expect(tall.stdout.isEmpty)
        }
        let cut = try CLI.run(["render", CLI.sampleImages, "-o", "-", "--format", "webp", "--max-height", "400", "--no-progress"] + Self.font)
        #expect(cut.status == 1)
        #expect(cut.stderr.contains("pages at --max-height; name a file, or drop --max-height"), "\(cut.stderr)")
    }

    @Test func aManifestsWrongNumberIsNamed() throws {
        let dir = CLI.temporaryDirectory()
        let coins = CLI.sampleImages + "/coins.png"
        try #"{"sections": [{"columns": 2.5, "items": [{"path": "\#(coins)"}]}]}"#.write(toFile: dir + "/half.json", atomically: true, encoding: .utf8)
        let half = try CLI.run(["layout", dir + "/half.json"] + Self.font)
        #expect(half.status == 1)
        #expect(half.stderr == "error: \(dir)/half.json: sections[0].columns must be a whole number, at least 1; got 2.5\n")
        // Valid JSON whose numbers no field holds: named with the field and its range (they
        // were "not valid JSON").
        for (name, json, message) in [
            ("span", #"{"items": [{"path": "\#(coins)", "span": 2.5}]}"#, "items[0].span must be a whole number, at least 1; got 2.5"),
            ("wide", #"{"sections": [{"columns": 1e400, "items": [{"path": "\#(coins)"}]}]}"#, "sections[0].columns must be a whole number, at least 1; got 1e400"),
            ("far", #"{"sections": [{"header": "x", "items": [{"path": "\#(coins)", "span": 1}]}, {"spacing": 1e300, "items": []}]}"#,
                "sections[1].spacing must be a whole number, at least 0; got 1e300"),
            ("big", #"{"sections": [{"inset": 18446744073709551616, "items": [{"path": "\#(coins)"}]}]}"#,
                "sections[0].inset must be a whole number, at least 0; got 18446744073709551616"),
        ] {
            try json.write(toFile: dir + "/\(name).json", atomically: true, encoding: .utf8)
            let result = try CLI.run(["layout", dir + "/\(name).json"] + Self.font)
            #expect(result.status == 1)
            #expect(result.stderr == "error: \(dir)/\(name).json: \(message)\n")
        }
        try #"{"sections": [{"columns": 99999999999, "items": [{"path": "\#(coins)"}]}]}"#.write(toFile: dir + "/huge.json", atomically: true, encoding: .utf8)
        let huge = try CLI.run(["layout", dir + "/huge.json"] + Self.font)
        #expect(huge.status == 1)
        #expect(huge.stderr == "error: layout: sections[0].style.columns.count is 99999999999, more than the limit of 1073741824\n")
        try #"{"items": [{"path": "\#(coins)"}], "#.write(toFile: dir + "/broken.json", atomically: true, encoding: .utf8)
        let broken = try CLI.run(["layout", dir + "/broken.json"] + Self.font)
        #expect(broken.stderr.hasPrefix("error: \(dir)/broken.json: not valid JSON"))
    }

    /// `-o` given: an existing file mosaic did not write beside the output (the viewer's
    /// page) is not replaced, and the advice is not "name the output with -o".
    @Test func theAdviceFitsWhetherOrNotOWasGiven() throws {
        let dir = CLI.temporaryDirectory()
        try Data("mine".utf8).write(to: URL(fileURLWithPath: dir + "/board.html"))
        let result = try CLI.run(["render", CLI.sampleImages + "/coins.png", "-o", dir + "/board.dzi"] + InputTrustTests.fixed)
        #expect(result.status == 1)
        #expect(result.stderr == "error: \(dir)/board.html exists and mosaic did not write it; move it away or choose another output name\n")
        #expect(try String(contentsOfFile: dir + "/board.html", encoding: .utf8) == "mine")
    }

    /// A file that is not an image: the message says so and never shows its bytes (a
    /// manifest could list `/etc/shadow`). Before: "(it starts with 72 6f 6f 74 ...)".
    @Test func aFileThatIsNotAnImageIsNeverEchoed() throws {
        let dir = CLI.temporaryDirectory()
        try Data("root:*:19000:0:99999:7:::\n".utf8).write(to: URL(fileURLWithPath: dir + "/shadow"))
        try #"{"items": [{"path": "shadow"}, {"path": "\#(CLI.sampleImages)/coins.png"}]}"#.write(toFile: dir + "/list.json", atomically: true, encoding: .utf8)
        let result = try CLI.run(["render", dir + "/list.json", "-o", dir + "/s.png", "--json", "-"] + InputTrustTests.fixed)
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stderr.hasPrefix("warning: \(dir)/shadow: not a RAW, JPEG, PNG, WebP, GIF, HEIF, AVIF, TIFF, JPEG XL or video file\n"))
        for output in [result.stdout, result.stderr] { #expect(!output.contains("72 6f") && !output.contains("root")) }
    }

    /// --strict with four truncated JPEGs names all four. Before: "1 input failed" and one.
    @Test func strictNamesEveryFailedInput() throws {
        let dir = InputTrustTests.folder(samples: ["coins.png"])
        let photo = try Data(contentsOf: URL(fileURLWithPath: CLI.sampleImages + "/chelsea.jpg"))
        for i in 1...4 { try photo.prefix(photo.count / 2).write(to: URL(fileURLWithPath: dir + "/cut\(i).jpg")) }
        let result = try CLI.run(["render", dir, "--strict", "-o", dir + "/../strict-four.png"] + InputTrustTests.fixed)
        #expect(result.status == 1)
        let lines = result.stderr.split(separator: "\n").map(String.init)
        #expect(lines.first == "error: 4 inputs failed (strict mode, nothing written):")
        #expect(lines.dropFirst().map { $0.prefix { $0 != ":" } } == (1...4).map { "  \(dir)/cut\($0).jpg" })
        #expect(!FileManager.default.fileExists(atPath: dir + "/../strict-four.png"))
        // With a file whose headers cannot be read as well: all five.
        try Data("garbage".utf8).write(to: URL(fileURLWithPath: dir + "/broken.png"))
        let mixed = try CLI.run(["render", dir, "--strict", "-o", dir + "/../strict-five.png"] + InputTrustTests.fixed)
        #expect(mixed.status == 1)
        #expect(mixed.stderr.hasPrefix("error: 5 inputs failed (strict mode, nothing written):\n  \(dir)/broken.png: not a RAW, JPEG, PNG, WebP, GIF, HEIF, AVIF, TIFF, JPEG XL or video file\n"))
    }
}
