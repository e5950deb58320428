import Foundation
import Mosaic
import Testing

/// Outputs into folders not yet made (before: "the folder r does not exist", or the
/// system's "No such file or directory"): created when the run writes, 0755 less the umask;
/// a file in the way refused before any work, naming it; a run that fails first leaves no
/// folder behind.
@Suite struct OutputFoldersTests {
    /// A folder of three small images, and a working folder beside it.
    static func images() throws -> (dir: String, images: String) {
        let dir = CLI.temporaryDirectory()
        try FileManager.default.createDirectory(atPath: dir + "/images", withIntermediateDirectories: true)
        for (i, color) in [RGBA.black, .white, RGBA(red: 200, green: 30, blue: 30)].enumerated() {
            try Bitmap(width: 40 + i * 10, height: 30, fill: color).writePNG(to: dir + "/images/\(i).png")
        }
        try FileManager.default.createDirectory(atPath: dir + "/work", withIntermediateDirectories: true)
        return (dir + "/work", dir + "/images")
    }

    static func mode(_ path: String) -> Int {
        ((try? FileManager.default.attributesOfItem(atPath: path)[.posixPermissions]) as? Int) ?? -1
    }

    /// The mode a folder made with 0755 gets under the process's umask.
    static let expectedMode: Int = {
        let mask = umask(0)
        umask(mask)
        return 0o755 & ~Int(mask)
    }()

    /// The entries under `dir`, for "nothing new here".
    static func entries(_ dir: String) -> [String] {
        ((try? FileManager.default.subpathsOfDirectory(atPath: dir)) ?? []).sorted()
    }

    @Test func renderCreatesTheFoldersOfItsOutputs() throws {
        let (work, images) = try Self.images()
        let result = try CLI.run(["render", images, "-o", "out/sheets/sheet.png", "--json", "maps/deep/map.json", "-q"], in: work)
        #expect(result.status == 0, "\(result.stderr)")
        #expect(FileManager.default.fileExists(atPath: work + "/out/sheets/sheet.png") && FileManager.default.fileExists(atPath: work + "/maps/deep/map.json"))
        for folder in ["out", "out/sheets", "maps", "maps/deep"] { #expect(Self.mode(work + "/" + folder) == Self.expectedMode, "\(folder)") }
        // Other formats and pages: the same place does it.
        #expect(try CLI.run(["render", images, "-o", "pdf/a/sheet.pdf", "-q"], in: work).status == 0)
        #expect(try CLI.run(["render", images, "-o", "jpeg/a/sheet.jpg", "-q"], in: work).status == 0)
        #expect(FileManager.default.fileExists(atPath: work + "/pdf/a/sheet.pdf") && FileManager.default.fileExists(atPath: work + "/jpeg/a/sheet.jpg"))
        // A pyramid, whole and in shards, then assembled.
        #expect(try CLI.run(["render", images, "-o", "pyramid/a/board.dzi", "-q"], in: work).status == 0)
        #expect(FileManager.default.fileExists(atPath: work + "/pyramid/a/board.dzi") && FileManager.default.fileExists(atPath: work + "/pyramid/a/board_files"))
        for k in 0..<2 { #expect(try CLI.run(["render", images, "-o", "sharded/a/board.dzi", "--shard", "\(k)/2", "-q"], in: work).status == 0) }
        let assembled = try CLI.run(["assemble", "sharded/a/board.dzi"], in: work)
        #expect(assembled.status == 0, "\(assembled.stderr)")
        #expect(FileManager.default.fileExists(atPath: work + "/sharded/a/board.dzi"))
    }

    @Test func diffCreatesTheFoldersOfItsReports() throws {
        let (base, current) = try DiffCommandTests.folders()
        let work = (base as NSString).deletingLastPathComponent + "/work"
        try FileManager.default.createDirectory(atPath: work, withIntermediateDirectories: true)
        // The README's own example, and every other report.
        let result = try CLI.run(
            ["diff", base, current, "--html", "report/index.html", "--json", "json/a/r.json", "--junit", "junit/r.xml", "-o", "board/b.png", "-q"], in: work)
        #expect(result.status == 1, "\(result.stderr)")
        for file in ["report/index.html", "report/index_files", "json/a/r.json", "junit/r.xml", "board/b.png"] {
            #expect(FileManager.default.fileExists(atPath: work + "/" + file), "\(file)")
        }
        #expect(Self.mode(work + "/json/a") == Self.expectedMode)
        // The merge's reports too.
        #expect(try CLI.run(["diff", base, current, "--shard", "0/1", "--json", "parts/p0.json", "-q"], in: work).status == 1)
        #expect(try CLI.run(["diff", "--merge", "parts/p0.json", "--json", "merged/m.json", "-q"], in: work).status == 1)
        #expect(FileManager.default.fileExists(atPath: work + "/merged/m.json"))
    }

    /// A file where a folder should be: refused before any work, naming it; nothing written.
    @Test func aFileInTheWayIsRefused() throws {
        let (work, images) = try Self.images()
        try "not a folder".write(toFile: work + "/file", atomically: true, encoding: .utf8)
        let cases: [([String], String)] = [
            (["render", images, "-o", "file/sheet.png"], "file/sheet.png: --output goes through file, which is a file, not a folder"),
            (["render", images, "-o", "ok.png", "--json", "file/deeper/m.json"], "file/deeper/m.json: --json goes through file, which is a file, not a folder"),
            (["render", images, "-o", "file/board.dzi"], "file/board.dzi: --output goes through file, which is a file, not a folder"),
            (["diff", images, images, "--html", "file/r.html"], "file/r.html: --html goes through file, which is a file, not a folder"),
            (["diff", images, images, "--junit", "new/file/r.xml", "--json", "x/file/j.json"], "--json goes through x/file"),
        ]
        try FileManager.default.createDirectory(atPath: work + "/x", withIntermediateDirectories: true)
        try "".write(toFile: work + "/x/file", atomically: true, encoding: .utf8)
        let before = Self.entries(work)
        for (arguments, message) in cases {
            let result = try CLI.run(arguments, in: work)
            #expect(result.status != 0 && result.status != 64, "\(arguments)")
            #expect(result.stderr.contains(message), "\(result.stderr)")
            #expect(Self.entries(work) == before, "\(arguments) left \(Self.entries(work))")
        }
    }

    /// A usage error, or a run that fails before it writes, leaves no folder behind.
    @Test func aRunThatFailsFirstMakesNoFolder() throws {
        let (work, images) = try Self.images()
        let failing: [[String]] = [
            ["render", images, "-o", "new/sheet.png", "--columns", "0"],
            ["render", work + "/missing", "-o", "new/sheet.png", "--json", "new2/m.json"],
            ["diff", images, images, "--threshold", "5", "--html", "new/r.html"],
            ["diff", work + "/missing", images, "--html", "new/r.html", "--json", "new2/r.json", "-o", "new3/b.png"],
            ["diff", images, images + "/0.png", "--html", "new/r.html", "--junit", "new2/r.xml"],
            ["diff", "--merge", work + "/missing.json", "--html", "new/r.html", "--json", "new2/r.json"],
            ["render", images, "-o", "new/board.dzi", "--shard", "2/2"],
        ]
        for arguments in failing {
            let result = try CLI.run(arguments, in: work)
            #expect(result.status != 0, "\(arguments)")
            #expect(Self.entries(work).isEmpty, "\(arguments) left \(Self.entries(work))")
        }
    }
}
