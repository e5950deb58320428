import Foundation
import Mosaic
import Testing

/// Inputs that are not what they look like: each case here was silently mishandled, or
/// ended the whole run, before.
@Suite struct InputTrustTests {
    static let font = ["--font", "/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf"]
    static let fixed = font + ["--no-progress"]

    static func folder(_ name: String = #function, samples: [String] = ["coins.png", "chelsea.jpg"]) -> String {
        let dir = CLI.temporaryDirectory(name)
        for sample in samples {
            try! FileManager.default.copyItem(atPath: CLI.sampleImages + "/" + sample, toPath: dir + "/" + sample)
        }
        return dir
    }

    static func map(_ output: String) throws -> [[String: Any]] {
        let object = try JSONSerialization.jsonObject(with: Data(output.utf8)) as? [String: Any]
        return try #require(object?["elements"] as? [[String: Any]])
    }

    /// A 1x10000 strip (and a 2x30000 PNG) no longer makes a card over the output limit:
    /// the default aspect clamp (16) crops it, and the run goes on.
    @Test func anExtremeStripIsDrawnWithinTheDefaultClamp() throws {
        let dir = Self.folder()
        try Bitmap(width: 1, height: 10_000, fill: .black).writePNG(to: dir + "/strip.png")
        try Bitmap(width: 2, height: 30_000, fill: .white).writePNG(to: dir + "/tall.png")
        let result = try CLI.run(["render", dir, "-o", dir + "/../strip-sheet.png", "--json", "-"] + Self.fixed)
        #expect(result.status == 0, "\(result.stderr)")
        let cards = try Self.map(result.stdout).filter { $0["kind"] as? String == "card" }
        #expect(cards.count == 4)
        for card in cards where (card["source"] as? String)?.hasSuffix("strip.png") == true || (card["source"] as? String)?.hasSuffix("tall.png") == true {
            let frame = try #require(card["imageFrame"] as? [String: [String: Int]])
            let width = frame["size"]?["width"] ?? 0, height = frame["size"]?["height"] ?? 0
            #expect(abs(height - width * 16) <= 1, "\(frame)")
        }
    }

    /// A subfolder that cannot be listed is left out with a warning; the run goes on. (Run
    /// as the unprivileged user `nobody` when the tests run as root, who may list anything.)
    @Test func anUnreadableSubfolderIsAWarning() throws {
        let dir = Self.folder()
        try FileManager.default.createDirectory(atPath: dir + "/closed", withIntermediateDirectories: true)
        try FileManager.default.copyItem(atPath: CLI.sampleImages + "/coffee.jpg", toPath: dir + "/closed/coffee.jpg")
        chmod(dir + "/closed", 0)
        chmod(dir, 0o777)
        defer { chmod(dir + "/closed", 0o755) }
        let (status, stderr) = try Self.runUnprivileged(["render", dir, "--recursive", "-o", dir + "/s.png"] + Self.fixed)
        #expect(status == 0, "\(stderr)")
        #expect(stderr.contains("warning: \(dir)/closed: cannot list the folder: "))
        #expect(stderr.contains("rendered 2 images"))
        // --strict refuses it, as it refuses any input that cannot be read. Before: exit 0.
        let (strictStatus, strictError) = try Self.runUnprivileged(["render", dir, "--recursive", "--strict", "-o", dir + "/t.png"] + Self.fixed)
        #expect(strictStatus == 1)
        #expect(strictError.hasSuffix("error: 1 input failed (strict mode, nothing written):\n  \(dir)/closed: cannot read: Permission denied\n"))
        #expect(!FileManager.default.fileExists(atPath: dir + "/t.png"))
    }

    /// Runs mosaic as the unprivileged user `nobody` when the tests run as root (who may
    /// list anything), else as is: its status and standard error.
    static func runUnprivileged(_ arguments: [String]) throws -> (Int32, String) {
        var arguments = arguments
        var executable = CLI.productsDirectory.appendingPathComponent("mosaic").path
        if getuid() == 0 {
            try #require(FileManager.default.isExecutableFile(atPath: "/usr/bin/setpriv"), "setpriv (util-linux) is needed to drop root")
            arguments = ["--reuid=65534", "--regid=65534", "--clear-groups", executable] + arguments
            executable = "/usr/bin/setpriv"
        }
        let process = Process()
        process.executableURL = URL(fileURLWithPath: executable)
        process.arguments = arguments
        let err = Pipe()
        process.standardError = err
        process.standardOutput = FileHandle.nullDevice
        try process.run()
        let stderr = String(decoding: err.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        return (process.terminationStatus, stderr)
    }

    @Test func severalFoldersAreSections() throws {
        let a = Self.folder("severalA", samples: ["coins.png"])
        let b = Self.folder("severalB", samples: ["chelsea.jpg", "coffee.jpg"])
        let result = try CLI.run(["layout", a, b, "--font", "/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf"])
        #expect(result.status == 0, "\(result.stderr)")
        let elements = try Self.map(result.stdout)
        #expect(elements.filter { $0["kind"] as? String == "header" }.compactMap { $0["text"] as? String } == [a, b])
        #expect(elements.filter { $0["kind"] as? String == "card" }.compactMap { $0["failure"] }.isEmpty)
    }

    @Test func manifestsThatAreNotWhatTheyLookLike() throws {
        let dir = Self.folder()
        func write(_ name: String, _ text: String) throws { try Data(text.utf8).write(to: URL(fileURLWithPath: dir + "/" + name)) }
        try write("list.tsv", "path\ttitle\ncoins.png\tCoins\n")
        let tsv = try CLI.run(["layout", dir + "/list.tsv"] + Self.font)
        #expect(tsv.status == 1)
        #expect(tsv.stderr == "error: \(dir)/list.tsv: mosaic reads manifests in JSON or CSV; save this .tsv file as .csv\n")
        try write("open.csv", "path,title\ncoins.png,\"Coins\nchelsea.jpg,Cat\n")
        let quote = try CLI.run(["layout", dir + "/open.csv"] + Self.font)
        #expect(quote.status == 1)
        #expect(quote.stderr == "error: \(dir)/open.csv: line 2: a quoted field is never closed\n")
        try write("excel.csv", "\u{FEFF}path,title\r\ncoins.png,Coins\r\n")
        let bom = try CLI.run(["layout", dir + "/excel.csv"] + Self.font)
        #expect(bom.status == 0, "\(bom.stderr)")
        try write("typo.json", #"{"items": [{"path": "coins.png", "titel": "Coins"}]}"#)
        let typo = try CLI.run(["layout", dir + "/typo.json"] + Self.font)
        #expect(typo.status == 1)
        #expect(typo.stderr == "error: \(dir)/typo.json: unknown key \"titel\" in items[0] (did you mean \"title\"?)\n")
        try write("column.csv", "path,titel\ncoins.png,Coins\n")
        let column = try CLI.run(["layout", dir + "/column.csv"] + Self.font)
        #expect(column.status == 1)
        #expect(column.stderr.contains("unknown column \"titel\" (did you mean \"title\"?)"))
    }

    /// A "photo.jpg" that is empty or garbage is a failure to report (and fails --strict),
    /// not one of the "other files" skipped without a name.
    @Test func imageNamedFilesThatAreNotImagesAreFailures() throws {
        let dir = Self.folder()
        try Data().write(to: URL(fileURLWithPath: dir + "/empty.jpg"))
        try Data("not a picture".utf8).write(to: URL(fileURLWithPath: dir + "/garbage.png"))
        try Data("notes".utf8).write(to: URL(fileURLWithPath: dir + "/notes.txt"))
        let result = try CLI.run(["render", dir, "-o", dir + "/../named-sheet.png"] + Self.fixed)
        #expect(result.status == 0)
        #expect(result.stderr.contains("warning: \(dir)/empty.jpg: not an image: the file is empty"))
        #expect(result.stderr.contains("rendered 2 images, 2 failed: \(dir)/empty.jpg, \(dir)/garbage.png; skipped 1 other file"))
        let strict = try CLI.run(["render", dir, "-o", dir + "/../named-strict.png", "--strict"] + Self.fixed)
        #expect(strict.status == 1)
        #expect(!FileManager.default.fileExists(atPath: dir + "/../named-strict.png"))
    }

    @Test func aRunInWhichEveryInputFailedWritesNothing() throws {
        let dir = Self.folder(samples: [])
        let jpeg = try #require(FileManager.default.contents(atPath: CLI.sampleImages + "/rocket.jpg"))
        try jpeg.prefix(300).write(to: URL(fileURLWithPath: dir + "/a.jpg"))
        try jpeg.prefix(200).write(to: URL(fileURLWithPath: dir + "/b.jpg"))
        let result = try CLI.run(["render", dir, "-o", dir + "/../failed-sheet.png"] + Self.fixed)
        #expect(result.status == 1)
        #expect(result.stderr.hasSuffix("error: all 2 inputs failed; nothing written\n"))
        #expect(!FileManager.default.fileExists(atPath: dir + "/../failed-sheet.png"))
    }

    @Test func layoutHonoursStrict() throws {
        let dir = Self.folder()
        try Data([0xFF, 0xD8, 0xFF, 0xD9]).write(to: URL(fileURLWithPath: dir + "/broken.jpg"))
        let lenient = try CLI.run(["layout", dir] + Self.font)
        #expect(lenient.status == 0)
        let strict = try CLI.run(["layout", dir, "--strict"] + Self.font)
        #expect(strict.status == 1)
        #expect(strict.stderr.contains("error: 1 input failed (strict mode, nothing written)"))
        #expect(strict.stdout.isEmpty)
    }

    /// A file name that is not UTF-8 (Latin-1 "café.png") keeps its bytes: found in a
    /// folder, and named on the command line (before: "No such file or directory").
    @Test func fileNamesThatAreNotUTF8() throws {
        let dir = Self.folder(samples: ["chelsea.jpg"])
        let png = try #require(FileManager.default.contents(atPath: CLI.sampleImages + "/coins.png"))
        let latin1 = dir + "/caf" + "\u{10FFE9}" + ".png"  // the byte 0xE9, escaped
        let fd = FileNames.withSystemPath(latin1) { open($0, O_WRONLY | O_CREAT | O_TRUNC, 0o644) }
        try #require(fd >= 0)
        _ = png.withUnsafeBytes { write(fd, $0.baseAddress, $0.count) }
        close(fd)
        #expect(try FileManager.default.contentsOfDirectory(atPath: dir).count == 2)
        let folder = try CLI.run(["render", dir, "-o", dir + "/../latin1-sheet.png", "--caption", "name"] + Self.fixed)
        #expect(folder.status == 0, "\(folder.stderr)")
        #expect(folder.stderr.contains("rendered 2 images ->"))
        // Named as an argument, through a shell that passes the raw byte.
        let named = try CLI.runInShell(
            "exec \"$0\" render \"$(printf '%s/caf\\351.png' \"$1\")\" -o \"$1/../latin1-named.png\" --no-progress", arguments: [dir])
        #expect(named.status == 0, "\(named.stderr)")
        #expect(named.stderr.contains("rendered 1 image ->"))
    }

    /// An animated WebP declaring an 8000 x 8000 canvas (768 MB decoded: within the
    /// per-image limit) under a 600 MB address-space limit: the memory the decode needs is
    /// refused, and the warning says so. It said "invalid WebP: the animation: corrupt or
    /// invalid data".
    @Test func aDecodeTheSystemHasNoMemoryForIsNamedAsSuch() throws {
        let dir = CLI.temporaryDirectory()
        func le(_ v: Int, _ count: Int) -> [UInt8] { (0..<count).map { UInt8(v >> (8 * $0) & 0xFF) } }
        func chunk(_ tag: String, _ payload: [UInt8]) -> [UInt8] {
            Array(tag.utf8) + le(payload.count, 4) + payload + (payload.count % 2 == 1 ? [0] : [])
        }
        // A 1x1 lossless bitstream (libwebp's encoding of one opaque pixel).
        let pixel: [UInt8] = [0x2f, 0, 0, 0, 0, 0x07, 0x50, 0x8f, 0x22, 0x97, 0xa7, 0xff, 0x81, 0x88, 0xe8, 0x7f, 0]
        var body = chunk("VP8X", [0x02, 0, 0, 0] + le(7999, 3) + le(7999, 3)) + chunk("ANIM", [0, 0, 0, 0, 0, 0])
        for _ in 0..<2 { body += chunk("ANMF", le(0, 12) + le(100, 3) + [0] + chunk("VP8L", pixel)) }
        let file = Array("RIFF".utf8) + le(4 + body.count, 4) + Array("WEBP".utf8) + body
        try Data(file).write(to: URL(fileURLWithPath: dir + "/canvas.webp"))
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/bin/sh")
        let mosaic = CLI.productsDirectory.appendingPathComponent("mosaic").path
        process.arguments = ["-c", "ulimit -v 600000 && exec \"$0\" render \"$1\" -o \"$1/../oom.png\" --jobs 1 --no-progress", mosaic, dir]
        let err = Pipe()
        process.standardError = err
        try process.run()
        let stderr = String(decoding: err.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        #expect(process.terminationStatus == 1)
        #expect(stderr.contains("canvas.webp: out of memory: the system refused the memory decoding needs (733 MB)"), "\(stderr)")
        #expect(!FileManager.default.fileExists(atPath: dir + "/../oom.png"))
    }
}
