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

    @Test(arguments: ["jpg", "webp", "avif", "jxl"])
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
        #expect(quality.stderr.contains("--quality is not for png output (it is for jpeg, webp, avif, jxl, pdf)"))
        let lossless = try CLI.run(["render", CLI.sampleImages, "-o", dir + "/s.jpg", "--lossless"] + Self.font)
        #expect(lossless.status == 64)
        #expect(lossless.stderr.contains("--lossless is not for jpeg output (it is for webp, avif, jxl, pdf)"))
        let range = try CLI.run(["render", CLI.sampleImages, "-o", dir + "/s.webp", "--quality", "0"] + Self.font)
        #expect(range.status == 64 && range.stderr.contains("--quality must be 1 to 100, got 0"))
        let alpha = try CLI.run(["render", CLI.sampleImages, "-o", dir + "/s.jpg", "--background", "transparent"] + Self.font)
        #expect(alpha.status == 64 && alpha.stderr.contains("JPEG has no alpha"))
        let unknown = try CLI.run(["render", CLI.sampleImages, "-o", dir + "/s.gif"] + Self.font)
        #expect(unknown.status == 64)
        #expect(unknown.stderr.contains("\"\(dir)/s.gif\" does not end in .png (or .jpg for JPEG; .webp for WebP; .avif for AVIF; .jxl for JPEG XL; .pdf for a PDF; .dzi for a Deep Zoom pyramid; --format iiif for a IIIF folder)"))
        let format = try CLI.run(["render", CLI.sampleImages, "-o", dir + "/s.png", "--format", "gif"] + Self.font)
        #expect(format.status == 64 && format.stderr.contains("--format: \"gif\" is not a format (use png, jpeg, webp, avif, jxl, pdf, dzi, iiif)"))
        #expect(try FileManager.default.contentsOfDirectory(atPath: dir).isEmpty)
    }

    /// Every declared setting reaches its kind through `--output-setting NAME=VALUE` (a new
    /// kind's included, with no flag of its own), as the older flags do, with the same bytes;
    /// refusals name the setting as it was given.
    @Test func outputSettingGivesAnyDeclaredSetting() throws {
        let dir = CLI.temporaryDirectory()
        let flag = try CLI.run(["render", CLI.sampleImages, "-o", dir + "/a.webp", "--quality", "60", "--width", "600"] + Self.font)
        #expect(flag.status == 0, "\(flag.stderr)")
        let setting = try CLI.run(["render", CLI.sampleImages, "-o", dir + "/b.webp", "--output-setting", "quality=60", "--width", "600"] + Self.font)
        #expect(setting.status == 0, "\(setting.stderr)")
        #expect(try Data(contentsOf: URL(fileURLWithPath: dir + "/a.webp")) == Data(contentsOf: URL(fileURLWithPath: dir + "/b.webp")))
        let cases: [([String], String)] = [
            (["-o", dir + "/s.png", "--output-setting", "shades=3"], "--output-setting shades: no output kind has a setting \"shades\" (they have quality, lossless,"),
            (["-o", dir + "/s.pdf", "--output-setting", "dpi=5000"], "--output-setting dpi must be 36 to 1200, got 5000"),
            (["-o", dir + "/s.pdf", "--dpi", "5000"], "--dpi must be 36 to 1200, got 5000"),
            (["-o", dir + "/s.png", "--output-setting", "quality=50"], "--output-setting quality is not for png output (it is for jpeg, webp, avif, jxl, pdf)"),
            (["-o", dir + "/s.webp", "--output-setting", "quality=high"], "--output-setting quality: \"high\" is not a whole number"),
            (["-o", dir + "/s.png", "--tile-size", "128"], "--tile-size is not for png output (it is for dzi, iiif)"),
            (["-o", dir + "/s.dzi", "--tile-format", "gif"], "--tile-format: \"gif\" is not one of png, jpeg"),
            (["-o", dir + "/s.png", "--no-viewer"], "--no-viewer is not for png output (it is for dzi, iiif)"),
            (["-o", dir + "/t", "--format", "iiif", "--overlap", "2"], "--overlap is not for iiif output (it is for dzi)"),
        ]
        for (arguments, message) in cases {
            let result = try CLI.run(["render", CLI.sampleImages] + arguments + Self.font)
            #expect(result.status == 64 && result.stderr.contains(message), "\(arguments): \(result.stderr)")
        }
        #expect(try FileManager.default.contentsOfDirectory(atPath: dir).sorted() == ["a.webp", "b.webp"])
        // The help lists the kinds' settings, from the registry.
        let help = try CLI.run(["render", "--help"]).stdout
        #expect(help.contains("pageSize (pdf); dpi (pdf)") && help.contains("iiifID (iiif)"))
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

/// PDF: the paper and resolution set the sheet's width and page height; one PDF page per
/// sheet page at the physical size; the same bytes every run.
@Suite struct PDFOutputTests {
    @Test func aPaperSizedPDF() throws {
        let dir = CLI.temporaryDirectory()
        let arguments = ["render", CLI.sampleImages, "-o", dir + "/sheets.pdf", "--page-size", "a4", "--dpi", "100", "--json", dir + "/map.json"] + OutputKindTests.font
        let result = try CLI.run(arguments)
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stderr.contains("-> \(dir)/sheets.pdf ("))
        let pdf = try Data(contentsOf: URL(fileURLWithPath: dir + "/sheets.pdf"))
        let text = String(decoding: pdf, as: UTF8.self)
        #expect(text.hasPrefix("%PDF-1."))
        let map = try #require(JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: dir + "/map.json"))) as? [String: Any])
        let pages = try #require(map["pages"] as? [[String: Any]])
        // A4 at 100 dpi: 827 x 1169 pixels; every page that wide, none taller.
        #expect(pages.allSatisfy { $0["width"] as? Int == 827 && ($0["height"] as? Int ?? 0) <= 1169 })
        // One PDF page per sheet page, each A4 (595.28 x 841.89 points).
        #expect(text.components(separatedBy: "/Type /Page ").count - 1 == pages.count)
        #expect(text.components(separatedBy: "/MediaBox [0 0 595.28 841.89]").count - 1 == pages.count)
        // The same bytes again.
        #expect(try CLI.run(arguments).status == 0)
        #expect(try Data(contentsOf: URL(fileURLWithPath: dir + "/sheets.pdf")) == pdf)
    }

    @Test func paperSettingsAreChecked() throws {
        let dir = CLI.temporaryDirectory()
        let size = try CLI.run(["render", CLI.sampleImages, "-o", dir + "/s.pdf", "--page-size", "a5"] + OutputKindTests.font)
        #expect(size.status == 64 && size.stderr.contains("--page-size: \"a5\" is not a4, letter, WIDTHxHEIGHTmm or WIDTHxHEIGHTin"))
        let dpi = try CLI.run(["render", CLI.sampleImages, "-o", dir + "/s.pdf", "--dpi", "5000"] + OutputKindTests.font)
        #expect(dpi.status == 64 && dpi.stderr.contains("--dpi must be 36 to 1200, got 5000"))
        let png = try CLI.run(["render", CLI.sampleImages, "-o", dir + "/s.png", "--page-size", "a4"] + OutputKindTests.font)
        #expect(png.status == 64 && png.stderr.contains("--page-size is not for png output (it is for pdf)"))
        #expect(try FileManager.default.contentsOfDirectory(atPath: dir).isEmpty)
    }

    /// A card taller than the paper (a 1280x12000 screenshot, one column) was clipped: the
    /// page showed its top 15%, exit 0, with a warning that said "drawn whole" and advised
    /// --max-height, which PDF refuses (issue 35 item 10). The page is scaled to fit the
    /// paper, centred across, and the warning says so.
    @Test func aCardTallerThanThePaperIsScaledToFitIt() throws {
        let dir = CLI.temporaryDirectory()
        try FileManager.default.createDirectory(atPath: dir + "/in", withIntermediateDirectories: true)
        try Bitmap(width: 1280, height: 12000, fill: .black).writePNG(to: dir + "/in/tall.png")
        let result = try CLI.run(
            ["render", dir + "/in", "-o", dir + "/s.pdf", "--columns", "1", "--caption", "none", "--dpi", "100", "--lossless", "--inset", "32", "--padding", "8"]
                + OutputKindTests.font)
        #expect(result.status == 0, "\(result.stderr)")
        // A4 at 100 dpi is 827x1169 px: the 1280x12000 image in a 747 px column (inset 32,
        // padding 8) is a card 7019 px long, a page of 7083.
        #expect(result.stderr.contains("warning: page 1 is 7083 px long, over the paper's 1169: \(dir)/in/tall.png is longer than a page, so the page is scaled to 16% to fit the paper"))
        #expect(!result.stderr.contains("drawn whole"))
        #expect(!result.stderr.contains("--max-height"))
        let text = String(decoding: try Data(contentsOf: URL(fileURLWithPath: dir + "/s.pdf")), as: UTF8.self)
        // The image is 827x7083 px; 841.89 pt tall on the paper, 98.3 pt wide, centred.
        #expect(text.contains("/Width 827 /Height 7083"))
        #expect(text.contains("q\n98.3 0 0 841.89 248.49 0 cm\n/Im0 Do\nQ\n"), "\(text.suffix(600))")
    }

    /// --width was ignored: the paper sets a PDF sheet's width. It is a usage error.
    @Test func widthIsRefused() throws {
        let dir = CLI.temporaryDirectory()
        let result = try CLI.run(["render", CLI.sampleImages, "-o", dir + "/s.pdf", "--width", "1000"] + OutputKindTests.font)
        #expect(result.status == 64)
        #expect(result.stderr.contains("--width: a PDF's sheet is as wide as --page-size at --dpi (2480 px for a4 at 300 dpi); drop it, or set --dpi"))
        #expect(try FileManager.default.contentsOfDirectory(atPath: dir).isEmpty)
    }
}
