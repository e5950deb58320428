import Foundation
import Mosaic
import Testing

@testable import MosaicCLI

/// The `mosaic render` and `mosaic layout` commands, run as a user runs them.
@Suite struct RenderCommandTests {
    static let font = "/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf"
    /// Fixed fonts, so the pixels do not depend on what fontconfig finds here.
    static let fixed = ["--font", font]

    static func copySamples(_ names: [String], to dir: String) {
        for name in names { try! FileManager.default.copyItem(atPath: CLI.sampleImages + "/" + name, toPath: dir + "/" + name) }
    }

    static func decode(_ path: String) throws -> Bitmap { try ImageDecoder().decode(path).bitmap }

    /// The command draws exactly what the library draws in process (whose pixels
    /// `RenderGoldenTests` checks region by region against the reference).
    @Test func theCommandDrawsWhatTheLibraryDraws() throws {
        let dir = CLI.temporaryDirectory()
        let result = try CLI.run(["render", CLI.sampleImages + "/manifest.json", "-o", dir + "/sheet.png", "--width", "900", "--columns", "3", "--no-progress"] + Self.fixed)
        #expect(result.status == 0, "\(result.stderr)")
        var options = SheetOptions()
        options.width = 900
        options.columns = 3
        options.style.font = .file(Self.font)
        let sheet = try ContactSheet(
            catalog: try Catalog.manifest(CLI.sampleImages + "/manifest.json"), options: options, typesetter: Typesetter(fonts: try FontLibrary()))
        let sink = MemorySink()
        _ = try SheetRenderer(sheet: sheet).render(into: sink)
        let drawn = try #require(sink.pages.first)
        let written = try Self.decode(dir + "/sheet.png")
        #expect(written.width == drawn.width && written.height == drawn.height)
        #expect(written.pixels == drawn.pixels)
    }

    @Test func sameBytesWhateverTheJobs() throws {
        let dir = CLI.temporaryDirectory()
        let base = ["render", CLI.sampleImages, "--width", "700", "--columns", "3", "--no-progress"] + Self.fixed
        #expect(try CLI.run(base + ["-o", dir + "/one.png", "--jobs", "1"]).status == 0)
        #expect(try CLI.run(base + ["-o", dir + "/four.png", "--jobs", "4"]).status == 0)
        let one = FileManager.default.contents(atPath: dir + "/one.png")!
        #expect(one.count > 10_000)
        #expect(one == FileManager.default.contents(atPath: dir + "/four.png")!)
    }

    @Test func aCorruptFileBecomesAPlaceholderWithAWarning() throws {
        let dir = CLI.temporaryDirectory()
        Self.copySamples(["coins.png", "chelsea.jpg"], to: dir)
        let jpeg = FileManager.default.contents(atPath: CLI.sampleImages + "/rocket.jpg")!
        try jpeg.prefix(300).write(to: URL(fileURLWithPath: dir + "/broken.jpg"))
        let result = try CLI.run(["render", dir, "-o", dir + "/out/sheet.png", "--width", "600", "--columns", "3", "--no-progress", "--json", dir + "/map.json"] + Self.fixed, creating: dir + "/out")
        #expect(result.status == 0)
        #expect(result.stderr.contains("warning: \(dir)/broken.jpg: invalid JPEG: the file ends inside its headers (300 bytes)"))
        #expect(result.stderr.contains("rendered 2 images, 1 failed: \(dir)/broken.jpg"))
        let map = try JSONSerialization.jsonObject(with: FileManager.default.contents(atPath: dir + "/map.json")!) as! [String: Any]
        let elements = map["elements"] as! [[String: Any]]
        let placeholder = try #require(elements.first { ($0["source"] as? String)?.hasSuffix("broken.jpg") == true })
        #expect((placeholder["failure"] as? String)?.contains("ends inside its headers") == true)
        // The placeholder is drawn: reddish, not the sheet's background.
        let frame = placeholder["imageFrame"] as! [String: Any]
        let origin = frame["origin"] as! [String: Int], size = frame["size"] as! [String: Int]
        let sheet = try Self.decode(dir + "/out/sheet.png")
        let pixel = sheet[origin["x"]! + 4, origin["y"]! + size["height"]! / 4]
        #expect(pixel.red > pixel.blue + 10)
    }

    @Test func strictFailsAndWritesNothing() throws {
        let dir = CLI.temporaryDirectory()
        Self.copySamples(["coins.png"], to: dir)
        try Data([0xFF, 0xD8, 0xFF, 0xD9]).write(to: URL(fileURLWithPath: dir + "/empty.jpg"))
        try Data("previous".utf8).write(to: URL(fileURLWithPath: dir + "/../strict-sheet.png"))
        let output = (dir as NSString).deletingLastPathComponent + "/strict-sheet.png"
        let result = try CLI.run(["render", dir, "-o", output, "--strict", "--no-progress"] + Self.fixed)
        #expect(result.status == 1)
        #expect(result.stderr.contains("error: 1 input failed (strict mode, nothing written)"))
        #expect(String(decoding: FileManager.default.contents(atPath: output)!, as: UTF8.self) == "previous")
        // Each problem once: not a warning and then the same as the error.
        #expect(result.stderr.components(separatedBy: "empty.jpg").count - 1 == 1, "\(result.stderr)")
        // A file damaged in its data (found while decoding, not from its header): once too.
        let damaged = CLI.temporaryDirectory()
        Self.copySamples(["coins.png"], to: damaged)
        let jpeg = try #require(FileManager.default.contents(atPath: CLI.sampleImages + "/chelsea.jpg"))
        try jpeg.prefix(jpeg.count / 2).write(to: URL(fileURLWithPath: damaged + "/half.jpg"))
        let second = try CLI.run(["render", damaged, "-o", output, "--strict", "--no-progress"] + Self.fixed)
        #expect(second.status == 1)
        #expect(second.stderr.components(separatedBy: "half.jpg").count - 1 == 1, "\(second.stderr)")
    }

    @Test func aFailingRunLeavesThePreviousOutput() throws {
        let dir = CLI.temporaryDirectory()
        Self.copySamples(["coins.png"], to: dir)
        try Data("previous".utf8).write(to: URL(fileURLWithPath: dir + "/sheet.png"))
        // A font that is not there: the run fails before writing.
        let result = try CLI.run(["render", dir + "/coins.png", "-o", dir + "/sheet.png", "--font", "/no/such.ttf"])
        #expect(result.status == 1)
        #expect(result.stderr == "error: /no/such.ttf: no such font file\n")
        #expect(String(decoding: FileManager.default.contents(atPath: dir + "/sheet.png")!, as: UTF8.self) == "previous")
        #expect(try FileManager.default.contentsOfDirectory(atPath: dir).sorted() == ["coins.png", "sheet.png"])
    }

    @Test func aFoldersOwnSheetIsLeftOutWhenRunAgain() throws {
        let dir = CLI.temporaryDirectory()
        Self.copySamples(["coins.png", "cell.png"], to: dir)
        let first = try CLI.run(["render", dir, "-o", dir + "/sheet.png", "--no-progress"] + Self.fixed)
        #expect(first.status == 0)
        let second = try CLI.run(["render", dir, "-o", dir + "/sheet.png", "--no-progress", "--json", "-"] + Self.fixed)
        #expect(second.status == 0, "\(second.stderr)")
        #expect(second.stderr.contains("rendered 2 images; skipped 1 other file"))
        let map = try JSONSerialization.jsonObject(with: Data(second.stdout.utf8)) as! [String: Any]
        #expect((map["elements"] as! [[String: Any]]).filter { $0["kind"] as? String == "card" }.count == 2)
    }

    @Test func theOutputIsNeverAnInput() throws {
        let dir = CLI.temporaryDirectory()
        Self.copySamples(["coins.png", "cell.png"], to: dir)
        let before = FileManager.default.contents(atPath: dir + "/coins.png")!
        let result = try CLI.run(["render", dir, "-o", dir + "/coins.png"] + Self.fixed)
        #expect(result.status == 1)
        #expect(result.stderr == "error: \(dir)/coins.png: the output would overwrite one of the inputs\n")
        #expect(FileManager.default.contents(atPath: dir + "/coins.png")! == before)
    }

    @Test func pagination() throws {
        let dir = CLI.temporaryDirectory()
        let result = try CLI.run(["render", CLI.sampleImages, "-o", dir + "/sheet.png", "--width", "600", "--columns", "2", "--max-height", "900", "--no-progress"] + Self.fixed)
        #expect(result.status == 0)
        let pages = try FileManager.default.contentsOfDirectory(atPath: dir).sorted()
        #expect(pages.count >= 3)
        #expect(pages.allSatisfy { $0.hasPrefix("sheet-") && $0.hasSuffix(".png") })
        for page in pages {
            let info = try ImageDecoder().probe(dir + "/" + page)
            #expect(info.width == 600 && info.height <= 900, "\(page)")
        }
    }

    @Test func theMapMatchesThePixels() throws {
        let dir = CLI.temporaryDirectory()
        let result = try CLI.run(["render", CLI.sampleImages, "-o", dir + "/sheet.png", "--width", "800", "--columns", "3", "--json", "-", "--no-progress", "--background", "#ff00ff", "--shadow", "none"] + Self.fixed)
        #expect(result.status == 0)
        let map = try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as! [String: Any]
        #expect(map["schemaVersion"] as? Int == 4)
        let pages = map["pages"] as! [[String: Any]]
        #expect(pages.count == 1 && pages[0]["width"] as? Int == 800)
        let sheet = try Self.decode(dir + "/sheet.png")
        #expect(pages[0]["height"] as? Int == sheet.height)
        let cards = (map["elements"] as! [[String: Any]]).filter { $0["kind"] as? String == "card" }
        #expect(cards.count == 15)
        func rect(_ any: Any?) -> Rect {
            let r = any as! [String: Any], o = r["origin"] as! [String: Int], s = r["size"] as! [String: Int]
            return Rect(x: o["x"]!, y: o["y"]!, width: s["width"]!, height: s["height"]!)
        }
        let magenta = RGBA(red: 255, green: 0, blue: 255)
        for card in cards {
            let frame = rect(card["frame"]), image = rect(card["imageFrame"])
            #expect(frame.contains(image))
            // Inside the card: not the magenta background; just outside: the background.
            #expect(sheet[image.minX + image.width / 2, image.minY + image.height / 2] != magenta)
            #expect(sheet[frame.minX + frame.width / 2, frame.minY + 1] != magenta)
            #expect(sheet[frame.minX + frame.width / 2, max(0, frame.minY - 3)] == magenta)
        }
    }

    @Test func layoutIsADryRun() throws {
        let dir = CLI.temporaryDirectory()
        let result = try CLI.run(["layout", CLI.sampleImages + "/manifest.json", "--columns", "4"] + Self.fixed, in: dir)
        #expect(result.status == 0)
        let map = try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as! [String: Any]
        #expect((map["elements"] as! [[String: Any]]).filter { $0["kind"] as? String == "header" }.count == 4)  // title + 3 sections
        #expect(try FileManager.default.contentsOfDirectory(atPath: dir).isEmpty)
    }

    @Test func aFileNamedTwiceIsTwoCards() throws {
        let dir = CLI.temporaryDirectory()
        let coins = CLI.sampleImages + "/coins.png"
        let result = try CLI.run(["render", coins, coins, CLI.repository.path + "/README.md", "-o", dir + "/s.png", "--json", "-", "--no-progress"] + Self.fixed)
        #expect(result.status == 0)
        let map = try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as! [String: Any]
        let cards = (map["elements"] as! [[String: Any]]).filter { $0["kind"] as? String == "card" }
        #expect(cards.compactMap { $0["source"] as? String } == [coins, coins, CLI.repository.path + "/README.md"])
        // Named explicitly, a file that is not an image is a placeholder, not skipped.
        #expect((cards[2]["failure"] as? String) == CLI.repository.path + "/README.md: not a RAW, JPEG, PNG, WebP, GIF, HEIF, AVIF, TIFF, JPEG XL or video file")
        let problem = try #require(cards[2]["problem"] as? [String: String])
        #expect(problem == ["code": "unsupportedFormat", "reason": "not a RAW, JPEG, PNG, WebP, GIF, HEIF, AVIF, TIFF, JPEG XL or video file"])
    }

    /// A failing file whose name holds colons is named whole: in the warning, the closing
    /// line and the map (the summary once cut paths at the first colon).
    @Test func aFailingFileWithColonsIsNamedWhole() throws {
        let dir = CLI.temporaryDirectory()
        Self.copySamples(["coins.png"], to: dir)
        let jpeg = FileManager.default.contents(atPath: CLI.sampleImages + "/rocket.jpg")!
        let broken = dir + "/IMG 10:42:07.jpg"
        try jpeg.prefix(300).write(to: URL(fileURLWithPath: broken))
        let result = try CLI.run(["render", dir, "-o", dir + "/out/s.png", "--json", dir + "/map.json", "--no-progress"] + Self.fixed, creating: dir + "/out")
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stderr.contains("warning: \(broken): invalid JPEG: the file ends inside its headers (300 bytes)\n"))
        #expect(result.stderr.contains("rendered 1 image, 1 failed: \(broken) -> "))
        let map = try JSONSerialization.jsonObject(with: FileManager.default.contents(atPath: dir + "/map.json")!) as! [String: Any]
        let card = try #require((map["elements"] as! [[String: Any]]).first { ($0["source"] as? String) == broken })
        #expect(card["failure"] as? String == "\(broken): invalid JPEG: the file ends inside its headers (300 bytes)")
        #expect(card["problem"] as? [String: String] == ["code": "codec", "format": "jpeg", "reason": "invalid JPEG: the file ends inside its headers (300 bytes)"])
    }

    /// `--layout grid`: equal cells in rows, in the map and in the pixels.
    @Test func aGridSheet() throws {
        let dir = CLI.temporaryDirectory()
        let result = try CLI.run(["render", CLI.sampleImages, "--layout", "grid", "--columns", "4", "--width", "800", "-o", dir + "/grid.png", "--json", "-", "--no-progress"] + Self.fixed)
        #expect(result.status == 0, "\(result.stderr)")
        let map = try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as! [String: Any]
        let cards = (map["elements"] as! [[String: Any]]).filter { $0["kind"] as? String == "card" }
        #expect(cards.count == 15)
        let frames = cards.map { ($0["frame"] as! [String: [String: Int]]) }
        #expect(Set(frames.map { $0["size"]!["height"]! }).count == 1)
        #expect(Set(frames.map { $0["origin"]!["y"]! }).count == 4)  // 15 cards in rows of 4
        #expect(Set(frames.map { $0["origin"]!["x"]! }).count == 4)
        let bad = try CLI.run(["render", CLI.sampleImages, "--layout", "spiral", "-o", dir + "/x.png"])
        #expect(bad.status == 64)
        #expect(bad.stderr.contains("--layout: \"spiral\" is not a layout (use masonry, grid or justified)"))
    }

    @Test func libraryOptionNamesBecomeFlags() {
        #expect(flag(forOption: "maxAspect") == "--max-aspect")
        #expect(flag(forOption: "width") == "--width")
        #expect(flag(forOption: "captionLines") == "--caption-lines")
    }

    /// The summary names three skipped files "and 4 more": -v names every one, and the
    /// --json map lists them all.
    @Test func everySkippedFileCanBeSeen() throws {
        let dir = CLI.temporaryDirectory() + "/in"
        try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
        try FileManager.default.copyItem(atPath: CLI.sampleImages + "/coins.png", toPath: dir + "/coins.png")
        let notes = (1...7).map { "note\($0).txt" }
        for note in notes { try "not an image".write(toFile: dir + "/" + note, atomically: true, encoding: .utf8) }
        let plain = try CLI.run(["render", dir, "-o", dir + "/../a.png", "--json", dir + "/../a.json", "--no-progress"])
        #expect(plain.status == 0, "\(plain.stderr)")
        #expect(plain.stderr.contains("skipped 7 other files: note1.txt, note2.txt, note3.txt and 4 more (-v names them all, as does the --json map's \"skipped\")"), "\(plain.stderr)")
        let map = try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: dir + "/../a.json"))) as? [String: Any]
        #expect(map?["skipped"] as? [String] == notes)
        let verbose = try CLI.run(["render", dir, "-o", dir + "/../b.png", "-v", "--no-progress"])
        #expect(verbose.status == 0, "\(verbose.stderr)")
        for note in notes { #expect(verbose.stderr.contains("skipped (not an image): \(note)\n"), "\(note)") }
        #expect(verbose.stderr.contains("and 4 more (named above)"))
    }

    @Test func missingAndEmptyInputs() throws {
        let dir = CLI.temporaryDirectory()
        let missing = try CLI.run(["render", dir + "/nothing"])
        #expect(missing.status == 1)
        #expect(missing.stderr == "error: \(dir)/nothing: no such file or folder\n")
        let empty = try CLI.run(["render", dir])
        #expect(empty.status == 1)
        #expect(empty.stderr == "error: \(dir): no images: the folder is empty\n")
        // A folder of subfolders only (it said "the folder is empty"): counted, and the way
        // to their images named.
        for folder in ["2024", "2025"] {
            try FileManager.default.createDirectory(atPath: dir + "/" + folder, withIntermediateDirectories: true)
            try FileManager.default.copyItem(atPath: CLI.sampleImages + "/coins.png", toPath: dir + "/" + folder + "/coins.png")
        }
        let nested = try CLI.run(["render", dir])
        #expect(nested.status == 1)
        #expect(nested.stderr == "error: \(dir): no images in the folder itself; it holds 2 subfolders: --recursive takes the images in them\n")
        #expect(throws: CatalogError.noImages(path: dir, skipped: 0, subfolders: 2, readable: CodecRegistry.standard.names)) { try Catalog.folder(dir) }
    }

    @Test func usageErrorsExit64() throws {
        for arguments in [["render"], ["render", "x", "--columns", "0"], ["render", "x", "--section-radius=-1"], ["render", "x", "--footer-color", "nope"], ["render", "x", "--background", "blurple"], ["render", "x", "--order", "random"], ["render", "x", "--columns", "2", "--column-width", "100"]] {
            let result = try CLI.run(arguments)
            #expect(result.status == 64, "\(arguments)")
            #expect(result.stderr.contains("Usage: mosaic render"), "\(arguments)")
        }
        #expect(try CLI.run(["render", "x", "--background", "blurple"]).stderr.contains("--background: \"blurple\" is not a colour"))
        // A negative number is the option's value, not another option (before: "Missing value").
        let negative = try CLI.run(["render", "x", "--columns", "-3"])
        #expect(negative.status == 64 && negative.stderr.contains("--columns must be at least 1, got -3"), "\(negative.stderr)")
    }

    /// The closing line names the skipped files and gives each page's size and the bytes
    /// written (before: "skipped 1 other file" and the paths alone).
    @Test func theSummaryNamesSkippedFilesAndPageSizes() throws {
        let dir = CLI.temporaryDirectory()
        Self.copySamples(["coins.png", "cell.png"], to: dir)
        try "notes".write(toFile: dir + "/notes.txt", atomically: true, encoding: .utf8)
        let one = try CLI.run(["render", dir, "-o", dir + "/out/s.png", "--no-progress"] + Self.fixed, creating: dir + "/out")
        #expect(one.stderr.range(of: #"skipped 1 other file: notes\.txt -> .*/s\.png \(1800x\d+, \d+ kB\)"#, options: .regularExpression) != nil, "\(one.stderr)")
        let pages = try CLI.run(["render", CLI.sampleImages + "/manifest.json", "--max-height", "900", "-o", dir + "/out/p.png", "--no-progress"] + Self.fixed)
        #expect(pages.stderr.range(of: #"-> 3 pages \(1800x\d+ at most, [0-9.]+ MB\): .*/p-1\.png, .*/p-2\.png, .*/p-3\.png"#, options: .regularExpression) != nil, "\(pages.stderr)")
    }

    /// The progress bar fits a 40-column terminal (before: it wrapped, a new line per
    /// update) and ends its line.
    @Test func theProgressBarFitsTheTerminal() throws {
        let dir = CLI.temporaryDirectory()
        let result = try CLI.run(
            ["render", CLI.sampleImages, "-o", dir + "/s.png", "--progress", "--font", RenderCommandTests.font], environment: ["COLUMNS": "40"])
        #expect(result.status == 0)
        // The bar's updates: what comes between carriage returns before the line is cleared
        // for the closing summary.
        let bar = result.stderr.components(separatedBy: "\r\u{1B}[K").dropLast().joined()
        let updates = bar.components(separatedBy: "\r").map { $0.replacingOccurrences(of: "\u{1B}[K", with: "") }.filter { !$0.isEmpty }
        #expect(!updates.isEmpty)
        for update in updates { #expect(update.count <= 39 && !update.contains("\n"), "\(update.debugDescription)") }
        #expect(updates.contains { $0.hasPrefix("[") && $0.contains("/15") })
    }

    /// Little-endian EXIF (TIFF structure) with Make, Model and DateTimeOriginal.
    static func exif(make: String, model: String, date: String) -> [UInt8] {
        func u16(_ v: Int) -> [UInt8] { [UInt8(v & 0xFF), UInt8(v >> 8)] }
        func u32(_ v: Int) -> [UInt8] { (0..<4).map { UInt8((v >> (8 * $0)) & 0xFF) } }
        let makeBytes = Array(make.utf8) + [0], modelBytes = Array(model.utf8) + [0], dateBytes = Array(date.utf8) + [0]
        // IFD0 at 8: 3 entries (2 + 36 + 4 bytes), then its strings, then the EXIF IFD.
        let ifd0End = 8 + 2 + 3 * 12 + 4
        let makeAt = ifd0End, modelAt = makeAt + makeBytes.count, exifAt = modelAt + modelBytes.count
        let dateAt = exifAt + 2 + 12 + 4
        var out: [UInt8] = [0x49, 0x49, 0x2A, 0x00] + u32(8) + u16(3)
        out += u16(0x010F) + u16(2) + u32(makeBytes.count) + u32(makeAt)
        out += u16(0x0110) + u16(2) + u32(modelBytes.count) + u32(modelAt)
        out += u16(0x8769) + u16(4) + u32(1) + u32(exifAt)
        out += u32(0) + makeBytes + modelBytes
        out += u16(1) + u16(0x9003) + u16(2) + u32(dateBytes.count) + u32(dateAt) + u32(0) + dateBytes
        return out
    }

    /// Caption templates with the file's size, the date taken and the camera (before:
    /// unknown placeholders).
    @Test func captionsWithSizeDateAndCamera() throws {
        let dir = CLI.temporaryDirectory()
        var jpeg = [UInt8](try Data(contentsOf: URL(fileURLWithPath: CLI.sampleImages + "/rocket.jpg")))
        let payload = Array("Exif".utf8) + [0, 0] + Self.exif(make: "Canon", model: "Canon EOS R5", date: "2023:07:14 18:22:05")
        jpeg.insert(contentsOf: [0xFF, 0xE1, UInt8((payload.count + 2) >> 8), UInt8((payload.count + 2) & 0xFF)] + payload, at: 2)
        try Data(jpeg).write(to: URL(fileURLWithPath: dir + "/shot.jpg"))
        try FileManager.default.copyItem(atPath: CLI.sampleImages + "/coins.png", toPath: dir + "/plain.png")
        let result = try CLI.run(["layout", dir + "/shot.jpg", dir + "/plain.png", "--caption", "{camera}\\n{date} · {size}"])
        #expect(result.status == 0, "\(result.stderr)")
        let map = try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any]
        let cards = ((map?["elements"] as? [[String: Any]]) ?? []).filter { $0["kind"] as? String == "card" }
        try #require(cards.count == 2)
        let size = try FileManager.default.attributesOfItem(atPath: dir + "/shot.jpg")[.size] as? Int ?? 0
        #expect(cards[0]["title"] as? String == "Canon EOS R5")
        #expect(cards[0]["description"] as? String == "2023-07-14 18:22 · \(String(format: "%.0f", Double(size) / 1000)) kB")
        // No EXIF: no camera (the title falls back to nothing), no date (issue 37: not the
        // file's time, which `{mtime}` gives).
        let plain = cards[1]["description"] as? String ?? ""
        // The separator beside the missing date goes with it.
        #expect(plain.range(of: #"^[0-9.]+ kB$"#, options: .regularExpression) != nil, "\(plain)")
    }

    /// Inputs from a list (before: only the command line, whose length is limited):
    /// newline- or NUL-separated, from a file or standard input; the list is never written.
    @Test func inputsFromAList() throws {
        let dir = CLI.temporaryDirectory()
        let photos = ["astronaut.jpg", "rocket.jpg", "coffee.jpg"].map { CLI.sampleImages + "/" + $0 }
        try (photos.joined(separator: "\r\n") + "\n\n").write(toFile: dir + "/list.txt", atomically: true, encoding: .utf8)
        try Data(photos.map { Array($0.utf8) + [0] }.joined()).write(to: URL(fileURLWithPath: dir + "/list0"))
        for (arguments, input) in [(["--files-from", dir + "/list.txt"], nil), (["--files-from", dir + "/list0", "-0"], nil), (["--files-from", "-"], photos.joined(separator: "\n"))] as [([String], String?)] {
            let result = try CLI.run(["layout"] + arguments, input: input)
            #expect(result.status == 0, "\(arguments): \(result.stderr)")
            let map = try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any]
            let cards = (map?["elements"] as? [[String: Any]])?.filter { $0["kind"] as? String == "card" }
            #expect(cards?.compactMap { $0["source"] as? String } == photos, "\(arguments)")
        }
        // The list is an input: no output may replace it.
        let clash = try CLI.run(["render", "--files-from", dir + "/list.txt", "-o", dir + "/s.png", "--json", dir + "/list.txt"])
        let list = try String(contentsOfFile: dir + "/list.txt", encoding: .utf8)
        #expect(clash.status != 0 && list.hasPrefix(photos[0]))
        let missing = try CLI.run(["layout", "--files-from", dir + "/nope.txt"])
        #expect(missing.status == 64 && missing.stderr.contains("--files-from: cannot read \(dir)/nope.txt"))
        #expect(try CLI.run(["layout", "-0", CLI.sampleImages]).status == 64)
    }

    /// Before: "--caption-lines must not be negative, got 0"; a horizontal board took
    /// --max-height as the limit of its pages' width.
    @Test func optionsSayWhatTheyLimit() throws {
        let lines = try CLI.run(["render", "x", "--caption-lines", "0"])
        #expect(lines.status == 64 && lines.stderr.contains("--caption-lines must be at least 1, got 0"))
        let height = try CLI.run(["render", "x", "--direction", "horizontal", "--max-height", "500"])
        #expect(height.status == 64 && height.stderr.contains("use --max-width"))
        let width = try CLI.run(["render", "x", "--max-width", "500"])
        #expect(width.status == 64 && width.stderr.contains("use --max-height"))
        // --max-width pages a horizontal board by width; a card longer than a page is named.
        let dir = CLI.temporaryDirectory()
        let pages = try CLI.run([
            "render", CLI.sampleImages + "/astronaut.jpg", CLI.sampleImages + "/rocket.jpg", CLI.sampleImages + "/moon-gray.jpg",
            "--direction", "horizontal", "--rows", "1", "--height", "300", "--max-width", "400", "-o", dir + "/h.png",
            "--no-progress", "--font", RenderCommandTests.font,
        ])
        #expect(pages.status == 0, "\(pages.stderr)")
        let files = try FileManager.default.contentsOfDirectory(atPath: dir).filter { $0.hasSuffix(".png") }.sorted()
        #expect(files == ["h-1.png", "h-2.png", "h-3.png"])
        let tall = try CLI.run([
            "render", CLI.sampleImages + "/astronaut-portrait-exif6.jpg", "--columns", "1", "--max-height", "300", "-o", dir + "/v.png",
            "--no-progress", "--font", RenderCommandTests.font,
        ])
        #expect(tall.status == 0)
        #expect(tall.stderr.contains("warning: page 1 is "))
        #expect(tall.stderr.contains("over --max-height 300: \(CLI.sampleImages)/astronaut-portrait-exif6.jpg is longer than a page (drawn whole)"))
    }
}

@Suite struct InterruptTests {
    /// Ctrl-C (and a closed terminal, and a closed pipe) in the middle of writing: the
    /// temporary file goes, the previous sheet stays.
    @Test(arguments: [SIGINT, SIGHUP, SIGPIPE])
    func anInterruptedRunLeavesThePreviousOutput(signal: Int32) throws {
        let dir = CLI.temporaryDirectory()
        try Data("previous".utf8).write(to: URL(fileURLWithPath: dir + "/sheet.png"))
        let photos = try FileManager.default.contentsOfDirectory(atPath: CLI.sampleImages).filter { $0.hasSuffix(".jpg") || $0.hasSuffix(".png") }
        // Many cards at full size: long enough to interrupt.
        let inputs = (0..<4).flatMap { _ in photos.map { CLI.sampleImages + "/" + $0 } }
        let process = Process()
        process.executableURL = CLI.productsDirectory.appendingPathComponent("mosaic")
        process.arguments = ["render"] + inputs + ["-o", dir + "/sheet.png", "--width", "2400", "--columns", "3", "--jobs", "1", "--no-progress", "--font", RenderCommandTests.font]
        process.standardError = FileHandle.nullDevice
        try process.run()
        // Wait until the temporary file exists, then interrupt.
        let deadline = Date().addingTimeInterval(60)
        var sawTemporary = false
        while Date() < deadline && process.isRunning {
            if try FileManager.default.contentsOfDirectory(atPath: dir).contains(where: { $0.hasPrefix(".sheet.png.mosaic-") }) {
                sawTemporary = true
                break
            }
            usleep(2000)
        }
        usleep(200_000)  // mid-way through decoding and writing
        kill(process.processIdentifier, signal)
        // Never hang the test run: a process that ignores the interrupt is killed.
        let exitDeadline = Date().addingTimeInterval(30)
        while process.isRunning && Date() < exitDeadline { usleep(10_000) }
        if process.isRunning {
            kill(process.processIdentifier, SIGKILL)
            Issue.record("mosaic did not exit within 30 s of signal \(signal)")
        }
        process.waitUntilExit()
        #expect(sawTemporary)
        #expect(process.terminationStatus == 128 + signal)
        #expect(String(decoding: FileManager.default.contents(atPath: dir + "/sheet.png")!, as: UTF8.self) == "previous")
        #expect(try FileManager.default.contentsOfDirectory(atPath: dir) == ["sheet.png"])
    }
}

/// What an earlier run left behind when it could not clean up (SIGKILL, a power cut) is
/// removed by the next run to the same destination; a live process's files stay.
@Suite struct LeftoverTests {
    @Test func leftoversOfDeadRunsAreRemoved() throws {
        let dir = CLI.temporaryDirectory()
        let dead = dir + "/.sheet.png.mosaic-999999-1.tmp"
        let live = dir + "/.sheet.png.mosaic-\(getpid())-1.tmp"
        let deadMap = dir + "/.map.json.mosaic-999998-7.tmp"
        for path in [dead, live, deadMap] { try Data("partial".utf8).write(to: URL(fileURLWithPath: path)) }
        let result = try CLI.run(["render", CLI.sampleImages + "/coins.png", "-o", dir + "/sheet.png", "--json", dir + "/map.json", "--no-progress", "--font", RenderCommandTests.font])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(try FileManager.default.contentsOfDirectory(atPath: dir).sorted() == [".sheet.png.mosaic-\(getpid())-1.tmp", "map.json", "sheet.png"])
    }
}
