import Foundation
import Testing

/// `mosaic render --each`: a sheet per folder or group, named by a template.
@Suite struct EachSheetTests {
    static let fixed = ["--no-progress", "--font", RenderCommandTests.font, "--caption", "none"]

    /// A folder of albums: "rome" (2 images), "paris" (1), a hidden one, a loose file.
    static func albums(_ name: String = #function) throws -> String {
        let root = CLI.temporaryDirectory(name) + "/albums"
        let fm = FileManager.default
        for (album, photos) in [("rome", ["coins.png", "horse.png"]), ("paris", ["cell.png"]), (".hidden", ["text.png"])] {
            try fm.createDirectory(atPath: root + "/" + album, withIntermediateDirectories: true)
            for photo in photos { try fm.copyItem(atPath: CLI.sampleImages + "/" + photo, toPath: root + "/" + album + "/" + photo) }
        }
        try fm.copyItem(atPath: CLI.sampleImages + "/text.png", toPath: root + "/loose.png")
        return root
    }

    @Test func aSheetPerSubfolder() throws {
        let root = try Self.albums()
        let out = (root as NSString).deletingLastPathComponent + "/sheets"
        let result = try CLI.run(["render", root, "--each", "-o", out + "/{index}-{folder}.png", "--json", out + "/{folder}.json"] + Self.fixed)
        #expect(result.status == 0, "\(result.stderr)")
        let files = try FileManager.default.contentsOfDirectory(atPath: out).sorted()
        #expect(files == ["1-paris.png", "2-rome.png", "paris.json", "rome.json"])
        #expect(result.stderr.contains("note: 1 file directly in \(root) is in no sheet"))
        #expect(result.stderr.contains("rendered 1 image -> \(out)/1-paris.png"))
        #expect(result.stderr.contains("rendered 2 images -> \(out)/2-rome.png"))
        #expect(result.stderr.contains("2 of 2 sheets written"))
        let map = try String(contentsOfFile: out + "/rome.json", encoding: .utf8)
        #expect(map.contains("coins.png") && map.contains("horse.png") && !map.contains("cell.png"))
        // Again: the sheets mosaic wrote are replaced.
        #expect(try CLI.run(["render", root, "--each", "-o", out + "/{index}-{folder}.png"] + Self.fixed).status == 0)
    }

    /// Several folders named: one sheet each; 12 sheets number 01...12; a paginated sheet's
    /// pages follow its name.
    @Test func aSheetPerFolderNamedWithPaddedNumbers() throws {
        let root = try Self.albums()
        var folders: [String] = []
        for i in 1...12 {
            let folder = root + "/n\(i)"
            try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
            try FileManager.default.copyItem(atPath: CLI.sampleImages + "/coins.png", toPath: folder + "/coins.png")
            folders.append(folder)
        }
        let out = root + "/../numbered"
        let result = try CLI.run(["render"] + folders + ["--each", "-o", out + "/{index}.png"] + Self.fixed)
        #expect(result.status == 0, "\(result.stderr)")
        let files = try FileManager.default.contentsOfDirectory(atPath: out).sorted()
        #expect(files == (1...12).map { String(format: "%02d.png", $0) })
        let paged = try CLI.run(["render", root + "/rome", root + "/paris", "--each", "-o", out + "/p/{folder}.png", "--columns", "1", "--max-height", "400"] + Self.fixed)
        #expect(paged.status == 0, "\(paged.stderr)")
        #expect(try FileManager.default.contentsOfDirectory(atPath: out + "/p").sorted() == ["paris.png", "rome-1.png", "rome-2.png"])
    }

    @Test func aSheetPerGroup() throws {
        let dir = try GroupByTests.album()
        let out = dir + "/../groups"
        let result = try CLI.run(["render", dir, "--group-by", "month", "--each", "-o", out + "/{group}.png"] + Self.fixed)
        #expect(result.status == 0, "\(result.stderr)")
        #expect(try FileManager.default.contentsOfDirectory(atPath: out).sorted() == ["January 2024.png", "March 2024.png", "May 2024.png", "Undated.png"])
    }

    /// Names that would collide, templates that name one file, placeholders without a
    /// value: usage errors, and nothing is written.
    @Test func badPlansAreUsageErrorsBeforeAnyWork() throws {
        let root = try Self.albums()
        let other = root + "/../other/rome"
        try FileManager.default.createDirectory(atPath: other, withIntermediateDirectories: true)
        try FileManager.default.copyItem(atPath: CLI.sampleImages + "/coins.png", toPath: other + "/coins.png")
        try FileManager.default.createDirectory(atPath: root + "/paris-2", withIntermediateDirectories: true)
        try FileManager.default.copyItem(atPath: CLI.sampleImages + "/coins.png", toPath: root + "/paris-2/coins.png")
        let out = root + "/../never"
        let cases: [([String], String)] = [
            ([root + "/rome", other, "-o", out + "/{folder}.png"], "--each: \"\(root)/rome\" and \"\(other)\" would both be written to \(out)/rome.png"),
            ([root, "-o", out + "/{folder}.png"], "--each: \"\(root)/paris-2\" would be written to \(out)/paris-2.png, the name of a page of \"\(root)/paris\""),
            ([root, "-o", out + "/sheet.png"], "names one file; with --each it needs {folder}, {group}, {stem} or {index}"),
            ([root, "-o", out + "/{group}.png"], "--output: {group} has no value here (use {folder} or {index})"),
            ([root, "-o", out + "/{folder}.png", "--json", out + "/map.json"], "--json \"\(out)/map.json\" names one file"),
            ([root, "-o", out + "/{fodler}.png"], "--output: {fodler} is not a placeholder"),
            ([root], "--each needs -o with {folder}, {group}, {stem} or {index}"),
            ([root, "-o", "-"], "--each writes files: not - (standard output)"),
            ([root + "/rome", CLI.sampleImages + "/coins.png", "-o", out + "/{folder}.png"], "is not a folder"),
            ([root + "/rome", "-o", out + "/{folder}.png"], "has none"),
        ]
        for (arguments, message) in cases {
            let result = try CLI.run(["render", "--each"] + arguments + Self.fixed)
            #expect(result.status == 64, "\(arguments): \(result.stderr)")
            #expect(result.stderr.contains(message), "\(arguments): \(result.stderr)")
        }
        #expect(!FileManager.default.fileExists(atPath: out))
    }

    /// Names made safe: a newline and a leading dot become "_"; a name holding "{index}"
    /// stays that name.
    @Test func unsafeNamesAreMadeSafe() throws {
        let root = CLI.temporaryDirectory()
        for name in ["a\nb", ".dots", "{index}"] {
            try FileManager.default.createDirectory(atPath: root + "/" + name, withIntermediateDirectories: true)
            try FileManager.default.copyItem(atPath: CLI.sampleImages + "/coins.png", toPath: root + "/" + name + "/coins.png")
        }
        let result = try CLI.run(["render", root + "/a\nb", root + "/.dots", root + "/{index}", "--each", "-o", root + "/out/{folder}.png"] + Self.fixed)
        #expect(result.status == 0, "\(result.stderr)")
        #expect(try FileManager.default.contentsOfDirectory(atPath: root + "/out").sorted() == ["_dots.png", "a_b.png", "{index}.png"])
    }

    /// A file at a templated name that mosaic did not write is not replaced: that sheet
    /// fails and is named, the others are written (exit 0); --strict ends the run there.
    @Test func aForeignFileIsNotReplaced() throws {
        let root = try Self.albums()
        let out = root + "/../kept"
        try FileManager.default.createDirectory(atPath: out, withIntermediateDirectories: true)
        try FileManager.default.copyItem(atPath: CLI.sampleImages + "/coins.png", toPath: out + "/paris.png")
        let original = try Data(contentsOf: URL(fileURLWithPath: out + "/paris.png"))
        let result = try CLI.run(["render", root, "--each", "-o", out + "/{folder}.png"] + Self.fixed)
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stderr.contains("warning: sheet paris not written: \(out)/paris.png exists and mosaic did not write it"), "\(result.stderr)")
        #expect(result.stderr.contains("1 of 2 sheets written; not written: paris"))
        #expect(FileManager.default.fileExists(atPath: out + "/rome.png"))
        #expect(try Data(contentsOf: URL(fileURLWithPath: out + "/paris.png")) == original)
        try FileManager.default.removeItem(atPath: out + "/rome.png")
        let strict = try CLI.run(["render", root, "--each", "-o", out + "/{folder}.png", "--strict"] + Self.fixed)
        #expect(strict.status == 1)
        #expect(!FileManager.default.fileExists(atPath: out + "/rome.png"))
    }

    /// --strict reads every folder before writing any sheet: a broken file in the last
    /// album leaves every sheet unwritten.
    @Test func strictReadsEveryFolderFirst() throws {
        let root = try Self.albums()
        try Data("not a png".utf8).write(to: URL(fileURLWithPath: root + "/rome/broken.png"))
        let out = root + "/../strict"
        let result = try CLI.run(["render", root, "--each", "-o", out + "/{folder}.png", "--strict"] + Self.fixed)
        #expect(result.status == 1)
        #expect(result.stderr.contains("broken.png"), "\(result.stderr)")
        #expect(!FileManager.default.fileExists(atPath: out + "/paris.png"))
        // Without --strict: a placeholder card, both sheets written.
        #expect(try CLI.run(["render", root, "--each", "-o", out + "/{folder}.png"] + Self.fixed).status == 0)
        #expect(FileManager.default.fileExists(atPath: out + "/paris.png") && FileManager.default.fileExists(atPath: out + "/rome.png"))
    }
}
