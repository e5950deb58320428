import Foundation
import Mosaic
import Testing

/// The output kinds through the command line: each picked by its suffix (or --format for
/// standard output), its settings refused by the kinds that do not take them, the same
/// safety rules as PNG pages, and a board past a format's limit paginated with a note.
@Suite struct OutputKindTests {
    static let font = ["--font", "/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf", "--no-progress"]

    /// PSNR of `path` decoded against the PNG render `reference`, in dB.
    static func psnr(_ path: String, against reference: String) throws -> Double {
        let a = try ImageDecoder().decode(reference).bitmap, b = try ImageDecoder().decode(path).bitmap
        try #require(a.width == b.width && a.height == b.height)
        var sum = 0.0
        for i in 0..<a.pixels.count where i % 4 != 3 {
            let d = Double(a.pixels[i]) - Double(b.pixels[i])
            sum += d * d
        }
        let mse = sum / Double(a.pixels.count / 4 * 3)
        return 10 * log10(255 * 255 / max(mse, 1e-9))
    }

    @Test(arguments: ["jpg", "webp", "avif"])
    func eachSuffixWritesItsKind(suffix: String) throws {
        let dir = CLI.temporaryDirectory("kind-\(suffix)")
        let png = try CLI.run(["render", CLI.sampleImages, "-o", dir + "/sheet.png"] + Self.font)
        #expect(png.status == 0, "\(png.stderr)")
        let result = try CLI.run(["render", CLI.sampleImages, "-o", dir + "/sheet." + suffix] + Self.font)
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stderr.contains("-> \(dir)/sheet.\(suffix) (1800x"))
        #expect(try Self.psnr(dir + "/sheet." + suffix, against: dir + "/sheet.png") >= 35)
        // A second run replaces its own file; a file of someone else's at the default name is kept.
        #expect(try CLI.run(["render", CLI.sampleImages, "-o", dir + "/sheet." + suffix] + Self.font).status == 0)
        let left = try FileManager.default.contentsOfDirectory(atPath: dir).sorted()
        #expect(left == ["sheet.\(suffix)", "sheet.png"].sorted(), "\(left)")
    }

    @Test func standardOutputTakesAnyPagedKind() throws {
        let dir = CLI.temporaryDirectory()
        let result = try CLI.run(["render", CLI.sampleImages, "-o", "-", "--format", "jpeg"] + Self.font, in: dir)
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdout.utf8.starts(with: [0xEF, 0xBF, 0xBD, 0xEF, 0xBF, 0xBD]) || result.stdout.utf8.count > 1000)
        #expect(try FileManager.default.contentsOfDirectory(atPath: dir).isEmpty)
    }

    @Test func settingsAKindDoesNotTakeAreUsageErrors() throws {
        let dir = CLI.temporaryDirectory()
        let quality = try CLI.run(["render", CLI.sampleImages, "-o", dir + "/s.png", "--quality", "50"] + Self.font)
        #expect(quality.status == 64)
        #expect(quality.stderr.contains("--quality is not for png output (it is for jpeg, webp, avif)"))
        let lossless = try CLI.run(["render", CLI.sampleImages, "-o", dir + "/s.jpg", "--lossless"] + Self.font)
        #expect(lossless.status == 64)
        #expect(lossless.stderr.contains("--lossless is not for jpeg output (it is for webp, avif)"))
        let range = try CLI.run(["render", CLI.sampleImages, "-o", dir + "/s.webp", "--quality", "0"] + Self.font)
        #expect(range.status == 64 && range.stderr.contains("--quality must be 1 to 100, got 0"))
        let alpha = try CLI.run(["render", CLI.sampleImages, "-o", dir + "/s.jpg", "--background", "transparent"] + Self.font)
        #expect(alpha.status == 64 && alpha.stderr.contains("JPEG has no alpha"))
        let unknown = try CLI.run(["render", CLI.sampleImages, "-o", dir + "/s.gif"] + Self.font)
        #expect(unknown.status == 64)
        #expect(unknown.stderr.contains("\"\(dir)/s.gif\" does not end in .png (or .jpg for JPEG; .webp for WebP; .avif for AVIF; .dzi for a Deep Zoom pyramid; --format iiif for a IIIF folder)"))
        let format = try CLI.run(["render", CLI.sampleImages, "-o", dir + "/s.png", "--format", "gif"] + Self.font)
        #expect(format.status == 64 && format.stderr.contains("--format: \"gif\" is not a format (use png, jpeg, webp, avif, dzi, iiif)"))
        #expect(try FileManager.default.contentsOfDirectory(atPath: dir).isEmpty)
    }

    /// WebP's sides stop at 16,383 px: a taller board is written as pages, with a note.
    @Test func aBoardPastWebPsLimitIsPaginated() throws {
        let dir = CLI.temporaryDirectory()
        // Narrow columns of tall cards: far past 16,383 px.
        let result = try CLI.run(
            ["render", CLI.sampleImages, CLI.sampleImages, CLI.sampleImages, "--columns", "1", "--width", "1500", "-o", dir + "/tall.webp", "--caption", "none"]
                + Self.font)
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stderr.contains("note: the board is longer than WEBP's 16383 px: written as"))
        let files = try FileManager.default.contentsOfDirectory(atPath: dir).sorted()
        #expect(files.count >= 2 && files.allSatisfy { $0.hasPrefix("tall-") && $0.hasSuffix(".webp") }, "\(files)")
        for file in files {
            let info = try ImageDecoder().probe(dir + "/" + file)
            #expect(info.height <= 16383)
        }
    }
}
