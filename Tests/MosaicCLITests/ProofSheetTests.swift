import Foundation
import Mosaic
import Testing

/// Proof sheets that print (issue 37): lengths in points and millimetres for PDFs, the
/// print look as a PDF's default.
@Suite struct ProofSheetTests {
    static let font = OutputKindTests.font
    /// `mosaic layout` has no progress bar.
    static let layoutFont = Array(OutputKindTests.font.prefix(2))

    /// The first card's frame in `mosaic layout`'s map.
    static func firstFrame(_ arguments: [String]) throws -> (x: Int, y: Int, width: Int) {
        let result = try CLI.run(["layout", CLI.sampleImages] + arguments + layoutFont)
        #expect(result.status == 0, "\(result.stderr)")
        let map = try #require(JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any])
        let elements = try #require(map["elements"] as? [[String: Any]])
        let card = try #require(elements.first { $0["kind"] as? String == "card" })
        let frame = try #require(card["frame"] as? [String: Any])
        let origin = try #require(frame["origin"] as? [String: Int]), size = try #require(frame["size"] as? [String: Int])
        return (try #require(origin["x"]), try #require(origin["y"]), try #require(size["width"]))
    }

    /// A length on paper where there is none is a usage error naming the option.
    @Test func lengthsWithoutPaperAreRefused() throws {
        let dir = CLI.temporaryDirectory()
        let png = try CLI.run(["render", CLI.sampleImages, "-o", dir + "/s.png", "--inset", "10mm"] + Self.font)
        #expect(png.status == 64)
        #expect(png.stderr.contains("--inset 10mm: png output has no physical size; give --inset in pixels, or write a PDF (-o NAME.pdf)"), "\(png.stderr)")
        let pyramid = try CLI.run(["render", CLI.sampleImages, "-o", dir + "/b.dzi", "--font-size", "8pt"] + Self.font)
        #expect(pyramid.status == 64 && pyramid.stderr.contains("--font-size 8pt: dzi output has no physical size"), "\(pyramid.stderr)")
        let layout = try CLI.run(["layout", CLI.sampleImages, "--spacing", "4mm"] + Self.layoutFont)
        #expect(layout.status == 64)
        #expect(layout.stderr.contains("error: --spacing: 4mm is a length on paper: only a PDF (-o NAME.pdf, --page-size with mosaic layout) has one"), "\(layout.stderr)")
        let dpi = try CLI.run(["layout", CLI.sampleImages, "--dpi", "100"] + Self.layoutFont)
        #expect(dpi.status == 64 && dpi.stderr.contains("--dpi is the resolution of a PDF's pages: give --page-size too"))
        let fraction = try CLI.run(["layout", CLI.sampleImages, "--inset", "2.5"] + Self.layoutFont)
        #expect(fraction.status == 64 && fraction.stderr.contains("--inset takes whole pixels (or, for a PDF, 2.5mm or 7pt), got 2.5"))
        let negative = try CLI.run(["layout", CLI.sampleImages, "--padding", "-2pt"] + Self.layoutFont)
        #expect(negative.status == 64 && negative.stderr.contains("--padding must not be negative, got -2pt"))
        let size = try CLI.run(["layout", CLI.sampleImages, "--font-size", "0pt"] + Self.layoutFont)
        #expect(size.status == 64 && size.stderr.contains("--font-size must be above 0 and below 1000 pt, got 0.0"), "\(size.stderr)")
        #expect(try FileManager.default.contentsOfDirectory(atPath: dir).isEmpty)
    }

    /// On paper, lengths are converted at `--dpi`; a bare number stays pixels; the print
    /// defaults (10 mm margins) apply unless an option is given.
    @Test func lengthsOnPaper() throws {
        // A4 at 300 dpi is 2480 px wide; 10 mm is 118 px.
        let byDefault = try Self.firstFrame(["--page-size", "a4"])
        #expect(byDefault.x == 118 && byDefault.y == 118)
        let at600 = try Self.firstFrame(["--page-size", "a4", "--dpi", "600"])
        #expect(at600.x == 236)
        let given = try Self.firstFrame(["--page-size", "a4", "--inset", "5mm"])
        #expect(given.x == 59)
        let points = try Self.firstFrame(["--page-size", "a4", "--inset", "36pt"])
        #expect(points.x == 150)
        let pixels = try Self.firstFrame(["--page-size", "a4", "--inset", "20"])
        #expect(pixels.x == 20)
        // Without paper, the pixel defaults are as before.
        #expect(try Self.firstFrame([]).x == 32)
    }

    /// The same `-o proof.pdf --page-size a4` render, drawn by poppler: white paper
    /// around the cards (no grey sheet, no shadow).
    @Test(.enabled(if: Poppler.isInstalled, "needs poppler-utils (pdftoppm)"))
    func aPDFIsPrintWhiteByDefault() throws {
        let dir = CLI.temporaryDirectory()
        let result = try CLI.run(["render", CLI.sampleImages, "-o", dir + "/proof.pdf", "--page-size", "a4", "--dpi", "100", "--json", dir + "/map.json"] + Self.font)
        #expect(result.status == 0, "\(result.stderr)")
        let page = try Poppler.page(dir + "/proof.pdf", dpi: 100)
        #expect(page.width == 827)
        let map = try #require(JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: dir + "/map.json"))) as? [String: Any])
        let card = try #require((map["elements"] as? [[String: Any]])?.first { $0["kind"] as? String == "card" })
        let frame = try #require(card["frame"] as? [String: [String: Int]])
        let (x, y) = (try #require(frame["origin"]?["x"]), try #require(frame["origin"]?["y"]))
        let (width, height) = (try #require(frame["size"]?["width"]), try #require(frame["size"]?["height"]))
        // 10 mm at 100 dpi: 39 px of margin.
        #expect(x == 39 && y == 39)
        // The margin, and where the light theme's shadow fell (2 px below the card, 4 px
        // inside its sides): paper white.
        for (px, py) in [(5, 5), (x - 3, y + 10), (x + 4, y + height + 2), (x + width / 2, y + height + 3)] {
            let pixel = page[px, py]
            #expect(pixel.red >= 250 && pixel.green >= 250 && pixel.blue >= 250, "(\(px), \(py)): \(pixel)")
        }
    }
}

/// poppler-utils' command-line tools, as a reader of the PDFs.
enum Poppler {
    static var isInstalled: Bool {
        FileManager.default.isExecutableFile(atPath: "/usr/bin/pdftoppm") && FileManager.default.isExecutableFile(atPath: "/usr/bin/pdftotext")
    }

    /// Runs `tool` with `arguments`; its standard output.
    static func run(_ tool: String, _ arguments: [String]) throws -> String {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/" + tool)
        process.arguments = arguments
        let out = Pipe()
        process.standardOutput = out
        process.standardError = FileHandle.nullDevice
        try process.run()
        let data = out.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        #expect(process.terminationStatus == 0, "\(tool) \(arguments)")
        return String(decoding: data, as: UTF8.self)
    }

    /// Page `number` (from 1) of `pdf` drawn by pdftoppm at `dpi`.
    static func page(_ pdf: String, number: Int = 1, dpi: Int) throws -> Bitmap {
        let prefix = pdf + "-page"
        _ = try run("pdftoppm", ["-r", String(dpi), "-png", "-singlefile", "-f", String(number), "-l", String(number), pdf, prefix])
        defer { try? FileManager.default.removeItem(atPath: prefix + ".png") }
        return try ImageDecoder().decode(prefix + ".png").bitmap
    }

    /// The text pdftotext reads from `pdf`, in reading order (`-raw`: as the content
    /// stream has it, line by line).
    static func text(_ pdf: String, raw: Bool = false) throws -> String {
        try run("pdftotext", (raw ? ["-raw"] : []) + ["-enc", "UTF-8", pdf, "-"])
    }
}
