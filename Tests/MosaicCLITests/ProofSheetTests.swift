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


/// Captions, headers and file names as real text in a PDF (issue 37): the shaped glyphs
/// from embedded font subsets with a ToUnicode map, read back by poppler.
@Suite struct ProofSheetTextTests {
    /// Captions in Latin, Arabic, Hebrew, Japanese, Chinese and Korean, and a colour emoji.
    static let captions: [(title: String, description: String)] = [
        ("IMG_0412", "plain Latin, naïve façade"), ("مرحبا بالعالم", "שלום עולם"), ("東京の写真", "咖啡 와 커피"), ("Cat \u{1F431}\u{FE0F} café", "office"),
    ]

    /// A manifest of four sample photos with `captions`, a title and a header.
    static func manifest(in dir: String) throws -> String {
        let photos = ["astronaut.jpg", "rocket.jpg", "coffee.jpg", "chelsea.jpg"]
        let items = zip(photos, captions).map { photo, caption in
            ["path": CLI.sampleImages + "/" + photo, "title": caption.title, "description": caption.description]
        }
        let manifest: [String: Any] = ["title": "Proof sheet", "sections": [["header": "Day one", "items": items]]]
        let path = dir + "/manifest.json"
        try JSONSerialization.data(withJSONObject: manifest).write(to: URL(fileURLWithPath: path))
        return path
    }

    /// poppler's text without the bidi embedding marks it puts around right-to-left words.
    static func plain(_ text: String) -> String {
        String(String.UnicodeScalarView(text.unicodeScalars.filter { !(0x202A...0x202E).contains($0.value) }))
    }

    /// Before: `pdftotext` of a proof sheet gave nothing (the captions were pixels). Every
    /// caption, the title and the header come back, right-to-left ones in reading order.
    @Test(.enabled(if: Poppler.isInstalled, "needs poppler-utils (pdftotext, pdffonts)"))
    func everyCaptionComesBack() throws {
        let dir = CLI.temporaryDirectory()
        let result = try CLI.run(["render", try Self.manifest(in: dir), "-o", dir + "/proof.pdf", "--page-size", "a4", "--columns", "3", "--no-progress"])
        #expect(result.status == 0, "\(result.stderr)")
        let text = Self.plain(try Poppler.text(dir + "/proof.pdf"))
        for (title, description) in Self.captions {
            #expect(text.contains(title), "\(title) in \(text)")
            #expect(text.contains(description), "\(description) in \(text)")
        }
        #expect(text.contains("Proof sheet") && text.contains("Day one"))
        // Every font embedded, a subset, with a ToUnicode map.
        let fonts = try Poppler.run("pdffonts", [dir + "/proof.pdf"]).split(separator: "\n").dropFirst(2)
        #expect(fonts.count >= 3)
        for font in fonts { #expect(font.contains("CID TrueType") && font.contains("Identity-H") && font.contains("yes yes yes"), "\(font)") }
    }

    /// The text is drawn once: the page's image holds no caption (only the colour emoji),
    /// and poppler draws the captions from the embedded fonts.
    @Test(.enabled(if: Poppler.isInstalled, "needs poppler-utils (pdfimages, pdftoppm)"))
    func theTextIsNotAlsoInTheImage() throws {
        let dir = CLI.temporaryDirectory()
        let result = try CLI.run(
            ["render", try Self.manifest(in: dir), "-o", dir + "/proof.pdf", "--page-size", "a4", "--dpi", "100", "--columns", "3", "--lossless", "--json",
             dir + "/map.json", "--no-progress"])
        #expect(result.status == 0, "\(result.stderr)")
        _ = try Poppler.run("pdfimages", ["-png", dir + "/proof.pdf", dir + "/image"])
        let image = try ImageDecoder().decode(dir + "/image-000.png").bitmap
        let drawn = try Poppler.page(dir + "/proof.pdf", dpi: 100)
        let map = try #require(JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: dir + "/map.json"))) as? [String: Any])
        let cards = try #require(map["elements"] as? [[String: Any]]).filter { $0["kind"] as? String == "card" }
        #expect(cards.count == 4)
        for card in cards where !(card["title"] as? String ?? "").hasPrefix("Cat") {
            let frame = try #require(card["captionFrame"] as? [String: [String: Int]])
            let (x, y) = (try #require(frame["origin"]?["x"]), try #require(frame["origin"]?["y"]))
            let (width, height) = (try #require(frame["size"]?["width"]), try #require(frame["size"]?["height"]))
            var inImage = 0, onPage = 0
            for py in y..<(y + height) {
                for px in x..<(x + width) {
                    if image[px, py].red < 200 { inImage += 1 }
                    if drawn[px, py].red < 200 { onPage += 1 }
                }
            }
            #expect(inImage == 0, "\(card["title"] ?? ""): \(inImage) dark pixels of caption in the page's image")
            #expect(onPage > 20, "\(card["title"] ?? ""): the caption is not drawn")
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
