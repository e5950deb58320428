import Foundation
import Mosaic
import Testing

@testable import MosaicCLI

/// A folder as people have them (a Photoshop file, a BMP, a JPEG 2000; a JPEG XL until
/// mosaic read them):
/// images in formats mosaic cannot read yet are named in the summary with their format,
/// not counted among "other files", and `--strict` fails on them. Before: "rendered 1
/// image; skipped 3 other files", exit 0, under `--strict` too.
@Suite struct UnreadableFormatTests {
    /// The first bytes of each format, as the files start.
    static let heads: [(name: String, bytes: [UInt8], format: String)] = [
        ("coffee.jp2", [0, 0, 0, 0x0C] + Array("jP  ".utf8) + [0x0D, 0x0A, 0x87, 0x0A] + Array("ftypjp2 ".utf8), "JPEG 2000"),
        ("coffee.bmp", Array("BM".utf8) + [0x46, 0, 0, 0, 0, 0, 0, 0, 0x36, 0, 0, 0, 0x28, 0], "BMP"),
        ("coffee.psd", Array("8BPS".utf8) + [0, 1, 0, 0, 0, 0, 0, 0], "Photoshop"),
    ]

    static func folder() throws -> String {
        let dir = CLI.temporaryDirectory()
        for head in heads { try Data(head.bytes + [UInt8](repeating: 0, count: 64)).write(to: URL(fileURLWithPath: dir + "/" + head.name)) }
        try "notes".write(toFile: dir + "/notes.txt", atomically: true, encoding: .utf8)
        try FileManager.default.copyItem(atPath: CLI.sampleImages + "/coffee.jpg", toPath: dir + "/coffee.jpg")
        return dir
    }

    @Test func eachFormatIsKnownByItsSignature() {
        for head in Self.heads { #expect(ImageSignatures.unreadableFormat(head.bytes) == head.format, "\(head.name)") }
        #expect(ImageSignatures.unreadableFormat(Array("notes".utf8)) == nil)
        #expect(ImageSignatures.unreadableFormat([]) == nil)
    }

    @Test func theSummaryNamesThemWithTheirFormats() throws {
        let dir = try Self.folder()
        let result = try CLI.run(["render", dir, "-o", dir + "/../sheet-\(UUID().uuidString.prefix(6)).png", "--no-progress"])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stderr.contains("rendered 1 image"))
        #expect(result.stderr.contains("left out 3 images in formats mosaic cannot read: "))
        for head in Self.heads { #expect(result.stderr.contains("\(dir)/\(head.name) (\(head.format))"), "\(head.name)") }
        #expect(result.stderr.contains("skipped 1 other file"))
    }

    @Test func strictFailsOnThem() throws {
        let dir = try Self.folder()
        let output = dir + "/../strict-\(UUID().uuidString.prefix(6)).png"
        let result = try CLI.run(["render", dir, "-o", output, "--no-progress", "--strict"])
        #expect(result.status != 0)
        #expect(result.stderr.contains("3 inputs failed (strict mode, nothing written)"))
        #expect(result.stderr.contains("\(dir)/coffee.jp2: a JPEG 2000 image: mosaic reads RAW, JPEG, PNG, WebP, GIF, HEIF, AVIF, TIFF, JPEG XL or video only"))
        #expect(!FileManager.default.fileExists(atPath: output))
        let layout = try CLI.run(["layout", dir, "--strict"])
        #expect(layout.status != 0)
    }

    @Test func aFolderOfOnlyThoseSaysSo() throws {
        let dir = CLI.temporaryDirectory()
        let head = Self.heads[0]
        try Data(head.bytes).write(to: URL(fileURLWithPath: dir + "/" + head.name))
        #expect(throws: CatalogError.noImages(path: dir, skipped: 0, unreadable: [
            CardProblem(path: dir + "/coffee.jp2", error: .unsupportedFormat(path: dir + "/coffee.jp2", signature: Array(head.bytes.prefix(16)), readable: CodecRegistry.standard.names))
        ], readable: CodecRegistry.standard.names)) { try Catalog.folder(dir) }
        let result = try CLI.run(["render", dir, "-o", dir + "/../only-\(UUID().uuidString.prefix(6)).png", "--no-progress"])
        #expect(result.status != 0)
        #expect(result.stderr.contains("no RAW, JPEG, PNG, WebP, GIF, HEIF, AVIF, TIFF, JPEG XL or video images: \(dir)/coffee.jp2: a JPEG 2000 image"))
    }

    /// WebP and GIF are read now: a folder's WebP and GIF files (here the fuzzers' seeds:
    /// lossy, lossless with alpha, interlaced with transparency, animations) are cards like
    /// any photo.
    @Test func webPAndGIFFilesAreCards() throws {
        let dir = CLI.temporaryDirectory()
        for name in ["webp/lossy.webp", "webp/lossless-alpha.webp", "webp/animated.webp", "gif/interlaced.gif", "gif/animated.gif"] {
            let file = String(name.split(separator: "/")[1])
            try FileManager.default.copyItem(atPath: CLI.repository.path + "/Fuzz/seeds-" + name, toPath: dir + "/" + file)
        }
        let map = dir + "/../webp-\(UUID().uuidString.prefix(6)).json"
        let result = try CLI.run(["render", dir, "-o", map.replacingOccurrences(of: ".json", with: ".png"), "--json", map, "--no-progress"])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stderr.contains("rendered 5 images"))
        let json = try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: map))) as? [String: Any]
        let cards = (json?["elements"] as? [[String: Any]] ?? []).filter { $0["kind"] as? String == "card" }
        #expect(cards.count == 5 && cards.allSatisfy { $0["failure"] == nil })
    }
}
