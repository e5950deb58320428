import Foundation
import Mosaic
import Testing

/// Nothing mosaic writes may replace a file the user gave it, and a run's outputs appear
/// together or not at all. Each case here replaced or lost a file before.
@Suite struct OutputSafetyTests {
    static let fixed = ["--font", "/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf", "--no-progress"]

    static func folder(_ name: String = #function) -> String {
        let dir = CLI.temporaryDirectory(name)
        for sample in ["coins.png", "chelsea.jpg"] {
            try! FileManager.default.copyItem(atPath: CLI.sampleImages + "/" + sample, toPath: dir + "/" + sample)
        }
        return dir
    }

    static func contents(_ path: String) -> Data? { FileManager.default.contents(atPath: path) }

    @Test func theMapNeverReplacesAnInput() throws {
        let dir = Self.folder()
        let photo = Self.contents(dir + "/chelsea.jpg")
        let result = try CLI.run(["render", dir + "/coins.png", dir + "/chelsea.jpg", "-o", dir + "/o.png", "--json", dir + "/chelsea.jpg"] + Self.fixed)
        #expect(result.status == 1)
        #expect(result.stderr == "error: \(dir)/chelsea.jpg: the output would overwrite one of the inputs\n")
        #expect(Self.contents(dir + "/chelsea.jpg") == photo)
        #expect(!FileManager.default.fileExists(atPath: dir + "/o.png"))
        // A file in a folder being rendered is an input too, image or not.
        try Data("notes".utf8).write(to: URL(fileURLWithPath: dir + "/notes.txt"))
        let inFolder = try CLI.run(["render", dir, "-o", dir + "/../o.png", "--json", dir + "/notes.txt"] + Self.fixed)
        #expect(inFolder.status == 1)
        #expect(Self.contents(dir + "/notes.txt") == Data("notes".utf8))
    }

    /// Inputs are known by file identity, not by name: a hard link or a symbolic link to an
    /// input is that input.
    @Test func aLinkToAnInputIsThatInput() throws {
        let dir = Self.folder()
        let photo = Self.contents(dir + "/chelsea.jpg")
        try FileManager.default.linkItem(atPath: dir + "/chelsea.jpg", toPath: dir + "/hard.json")
        try FileManager.default.createSymbolicLink(atPath: dir + "/soft.json", withDestinationPath: dir + "/chelsea.jpg")
        for link in ["hard.json", "soft.json"] {
            let result = try CLI.run(["render", dir + "/coins.png", dir + "/chelsea.jpg", "-o", dir + "/o.png", "--json", dir + "/" + link] + Self.fixed)
            #expect(result.status == 1)
            #expect(result.stderr == "error: \(dir)/\(link): the output would overwrite one of the inputs\n")
        }
        #expect(Self.contents(dir + "/chelsea.jpg") == photo)
        #expect(!FileManager.default.fileExists(atPath: dir + "/o.png"))
    }

    @Test func theManifestIsNeverReplaced() throws {
        let dir = Self.folder()
        let manifest = dir + "/album.json"
        try Data(#"{"items": [{"path": "coins.png"}, {"path": "chelsea.jpg"}]}"#.utf8).write(to: URL(fileURLWithPath: manifest))
        let before = Self.contents(manifest)
        let map = try CLI.run(["render", manifest, "-o", dir + "/s.png", "--json", manifest] + Self.fixed)
        #expect(map.status == 1)
        #expect(map.stderr == "error: \(manifest): the output would overwrite one of the inputs\n")
        let sheet = try CLI.run(["render", manifest, "-o", manifest] + Self.fixed)
        #expect(sheet.status == 64)  // not a .png name
        #expect(Self.contents(manifest) == before)
    }

    @Test func twoOutputsAreNeverTheSameFile() throws {
        let dir = Self.folder()
        let result = try CLI.run(["render", dir + "/coins.png", "-o", dir + "/x.png", "--json", dir + "/x.png"] + Self.fixed)
        #expect(result.status == 1)
        #expect(result.stderr == "error: \(dir)/x.png: --output and --json would write the same file\n")
        #expect(!FileManager.default.fileExists(atPath: dir + "/x.png"))
    }

    @Test func diffReportsNeverReplaceTheImagesCompared() throws {
        let dir = Self.folder()
        let current = Self.contents(dir + "/chelsea.jpg")
        for option in ["--junit", "--json"] {
            let result = try CLI.run(["diff", dir + "/coins.png", dir + "/chelsea.jpg", option, dir + "/chelsea.jpg"])
            #expect(result.status == 2)
            #expect(result.stderr == "error: \(dir)/chelsea.jpg: the output would overwrite one of the inputs\n")
        }
        #expect(Self.contents(dir + "/chelsea.jpg") == current)
    }

    @Test func aFolderAsTheOutputIsRefusedBeforeAnyWork() throws {
        let dir = Self.folder()
        try FileManager.default.createDirectory(atPath: dir + "/out.png", withIntermediateDirectories: true)
        let result = try CLI.run(["render", CLI.sampleImages, "-o", dir + "/out.png"] + Self.fixed)
        #expect(result.status == 1)
        #expect(result.stderr == "error: \(dir)/out.png: --output names a folder, not a file\n")
        #expect(try FileManager.default.contentsOfDirectory(atPath: dir + "/out.png").isEmpty)
        let extensionless = try CLI.run(["render", CLI.sampleImages, "-o", dir + "/out.gif"] + Self.fixed)
        #expect(extensionless.status == 64)
        #expect(extensionless.stderr.contains("--output: \"\(dir)/out.gif\" does not end in .png (or .jpg for JPEG;"))
    }

    /// Pages of an earlier run that this run does not write go in the same commit, when
    /// mosaic wrote them; other files of those names stay.
    @Test func stalePagesGoWithTheCommit() throws {
        let dir = Self.folder()
        let out = dir + "/out"
        let paged = try CLI.run(["render", CLI.sampleImages, "-o", out + "/sheet.png", "--width", "600", "--columns", "2", "--max-height", "900"] + Self.fixed, creating: out)
        #expect(paged.status == 0)
        let pages = try FileManager.default.contentsOfDirectory(atPath: out).sorted()
        #expect(pages.count >= 3 && !pages.contains("sheet.png"))
        let foreign = Self.contents(dir + "/coins.png")
        try foreign?.write(to: URL(fileURLWithPath: out + "/sheet-\(pages.count + 1).png"))
        let single = try CLI.run(["render", CLI.sampleImages, "-o", out + "/sheet.png", "--width", "600"] + Self.fixed)
        #expect(single.status == 0)
        // The pages mosaic wrote are gone; the PNG it did not write (after a gap) stays.
        #expect(try FileManager.default.contentsOfDirectory(atPath: out).sorted() == ["sheet-\(pages.count + 1).png", "sheet.png"])
        let pagedAgain = try CLI.run(["render", CLI.sampleImages, "-o", out + "/sheet.png", "--width", "600", "--columns", "2", "--max-height", "900"] + Self.fixed)
        #expect(pagedAgain.status == 0)
        #expect(!FileManager.default.fileExists(atPath: out + "/sheet.png"))
    }

    /// The map is written beside its destination before the pages are renamed: when it
    /// cannot be written (a name too long for the file system: a missing folder is now
    /// created), the previous sheet stays.
    @Test func aMapThatCannotBeWrittenLeavesThePreviousSheet() throws {
        let dir = Self.folder()
        try Data("previous".utf8).write(to: URL(fileURLWithPath: dir + "/sheet.png"))
        let long = String(repeating: "m", count: 300) + ".json"
        let result = try CLI.run(["render", dir + "/coins.png", "-o", dir + "/sheet.png", "--json", dir + "/" + long] + Self.fixed)
        #expect(result.status == 1)
        #expect(result.stderr == "error: \(dir)/\(long): cannot create: File name too long\n")
        #expect(Self.contents(dir + "/sheet.png") == Data("previous".utf8))
        #expect(try FileManager.default.contentsOfDirectory(atPath: dir).sorted() == ["chelsea.jpg", "coins.png", "sheet.png"])
    }

    /// `sheet.png`, the default, replaces only a sheet mosaic wrote; `-o` replaces anything.
    @Test func theDefaultNameReplacesOnlyMosaicsOwnSheet() throws {
        let dir = Self.folder()
        let photo = Self.contents(dir + "/coins.png")
        try photo?.write(to: URL(fileURLWithPath: dir + "/sheet.png"))
        let refused = try CLI.run(["render", "coins.png"] + Self.fixed, in: dir)
        #expect(refused.status == 1)
        #expect(refused.stderr == "error: sheet.png exists and mosaic did not write it; name the output with -o to replace it\n")
        #expect(Self.contents(dir + "/sheet.png") == photo)
        let explicit = try CLI.run(["render", "chelsea.jpg", "-o", "sheet.png"] + Self.fixed, in: dir)
        #expect(explicit.status == 0)
        #expect(PNGSink.isMosaicSheet(dir + "/sheet.png"))
        let again = try CLI.run(["render", "chelsea.jpg"] + Self.fixed, in: dir)
        #expect(again.status == 0)
    }

    /// The reason a file cannot be created is the system's own (errno read at once, not
    /// after cleaning up: a folder one may not write in was "No such file or directory").
    @Test func theSystemsReasonIsKept() throws {
        let target = "/sys/mosaic-sheet.png"
        let fd = open(target, O_WRONLY | O_CREAT | O_EXCL, 0o644)
        let reason = String(cString: strerror(errno))
        try #require(fd < 0, "\(target) could be created here")
        #expect(reason != "No such file or directory")
        let result = try CLI.run(["render", CLI.sampleImages + "/coins.png", "-o", target] + Self.fixed)
        #expect(result.status == 1)
        #expect(result.stderr == "error: \(target): cannot create: \(reason)\n")
    }

    /// `-o -` sends the PNG to standard output: the same bytes as a file, one page only.
    @Test func theSheetToStandardOutput() throws {
        let dir = Self.folder()
        let file = try CLI.run(["render", dir + "/coins.png", "-o", dir + "/s.png"] + Self.fixed)
        #expect(file.status == 0)
        let process = Process()
        process.executableURL = CLI.productsDirectory.appendingPathComponent("mosaic")
        process.arguments = ["render", dir + "/coins.png", "-o", "-"] + Self.fixed
        let out = Pipe()
        process.standardOutput = out
        process.standardError = FileHandle.nullDevice
        try process.run()
        let bytes = out.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        #expect(process.terminationStatus == 0)
        #expect(bytes == Self.contents(dir + "/s.png"))
        let paged = try CLI.run(["render", CLI.sampleImages, "-o", "-", "--max-height", "600"] + Self.fixed)
        #expect(paged.status == 1)
        #expect(paged.stderr.contains("--output - writes one PNG, and this sheet has "))
        #expect(paged.stdout.isEmpty)
        let both = try CLI.run(["render", dir + "/coins.png", "-o", "-", "--json", "-"] + Self.fixed)
        #expect(both.status == 64)
    }
}
