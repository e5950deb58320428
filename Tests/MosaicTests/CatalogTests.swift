import Foundation
@testable import Mosaic
import MosaicTestSupport
import Testing

@Suite struct CatalogTests {
    static func folder(_ name: String = #function) -> String {
        let path = NSTemporaryDirectory() + "mosaic-catalog-\(getpid())-\(name.filter(\.isLetter))-\(UUID().uuidString.prefix(6))"
        try! FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
        return path
    }

    static let samples = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent().appendingPathComponent("SampleImages").path

    static func copy(_ sample: String, to path: String) {
        try! FileManager.default.copyItem(atPath: samples + "/" + sample, toPath: path)
    }

    @Test func naturalOrder() {
        let names = ["img10.jpg", "img2.jpg", "IMG1.jpg", "img02b.jpg", "a.png", "img2a.jpg", "img001.jpg"]
        // Equal numbers compare by what follows; full ties fall back to byte order.
        #expect(names.sorted(by: naturalLess) == ["a.png", "IMG1.jpg", "img001.jpg", "img2.jpg", "img2a.jpg", "img02b.jpg", "img10.jpg"])
    }

    @Test func foldersSkipHiddenAndOtherFilesAndSortNaturally() throws {
        let dir = Self.folder()
        Self.copy("coins.png", to: dir + "/img10.png")
        Self.copy("chelsea.jpg", to: dir + "/img2.dat")  // found by signature, not extension
        Self.copy("coffee.jpg", to: dir + "/.hidden.jpg")
        try "notes".write(toFile: dir + "/notes.txt", atomically: true, encoding: .utf8)
        let catalog = try Catalog.folder(dir)
        #expect(catalog.entries.map(\.relativePath) == ["img2.dat", "img10.png"])
        #expect(catalog.skippedFiles == ["notes.txt"])
        #expect(catalog.hiddenCount == 1)
        #expect(try Catalog.folder(dir, sort: .natural, reverse: true).entries.map(\.relativePath) == ["img10.png", "img2.dat"])
        #expect(try Catalog.folder(dir, sort: .size).entries.map(\.relativePath) == ["img2.dat", "img10.png"])
    }

    @Test func subfoldersAreSectionsAndLoopsAreCaught() throws {
        let dir = Self.folder()
        try FileManager.default.createDirectory(atPath: dir + "/b/deep", withIntermediateDirectories: true)
        try FileManager.default.createDirectory(atPath: dir + "/a", withIntermediateDirectories: true)
        Self.copy("coins.png", to: dir + "/top.png")
        Self.copy("coins.png", to: dir + "/a/1.png")
        Self.copy("coins.png", to: dir + "/b/deep/2.png")
        try FileManager.default.createSymbolicLink(atPath: dir + "/b/deep/loop", withDestinationPath: dir + "/b")
        let catalog = try Catalog.folder(dir, recursive: true)
        #expect(catalog.sections.map(\.header) == [nil, "a", "b/deep"])
        #expect(catalog.entries.map(\.relativePath) == ["top.png", "a/1.png", "b/deep/2.png"])
        #expect(catalog.symlinkLoops == [dir + "/b/deep/loop"])
        // Not recursive: the subfolders are not entered.
        #expect(try Catalog.folder(dir).entries.map(\.relativePath) == ["top.png"])
    }

    @Test func brokenImagesStayAsFailures() throws {
        let dir = Self.folder()
        Self.copy("coins.png", to: dir + "/good.png")
        try Data([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A, 0, 0, 0]).write(to: URL(fileURLWithPath: dir + "/broken.png"))
        let catalog = try Catalog.folder(dir)
        let broken = try #require(catalog.entries.first { $0.name == "broken.png" })
        #expect(broken.info == nil)
        #expect(broken.problem == CardProblem(path: dir + "/broken.png", error: .codec(path: dir + "/broken.png", format: .png, message: "the file ends early")))
        #expect(broken.problem?.description == dir + "/broken.png: invalid PNG: the file ends early")
    }

    @Test func folderErrors() throws {
        let dir = Self.folder()
        #expect(throws: CatalogError.noImages(path: dir, skipped: 0, readable: CodecRegistry.standard.names)) { try Catalog.folder(dir) }
        try "x".write(toFile: dir + "/a.txt", atomically: true, encoding: .utf8)
        #expect(throws: CatalogError.noImages(path: dir, skipped: 1, readable: CodecRegistry.standard.names)) { try Catalog.folder(dir) }
        #expect(throws: CatalogError.notFound(path: dir + "/nope")) { try Catalog.folder(dir + "/nope") }
        #expect(throws: CatalogError.notADirectory(path: dir + "/a.txt")) { try Catalog.folder(dir + "/a.txt") }
        // The registry the catalog was given names what it reads (before: always the standard one's).
        let own = ImageDecoder(codecs: CodecRegistry(codecs: [PNGCodec(), GIFCodec()]))
        let error = #expect(throws: CatalogError.self) { try Catalog.folder(dir, decoder: own) }
        #expect(error == .noImages(path: dir, skipped: 1, readable: ["PNG", "GIF"]))
        #expect(error?.description == "\(dir): no PNG or GIF images (1 other files skipped)")
    }

    @Test func jsonManifest() throws {
        let catalog = try Catalog.manifest(Self.samples + "/manifest.json")
        #expect(catalog.title == "mosaic sample sheet")
        #expect(catalog.sections.map(\.header) == ["Space", "Everyday", "Science"])
        let first = catalog.sections[0].entries[0]
        #expect(first.relativePath == "astronaut.jpg" && first.title == "Astronaut")
        #expect(first.path == Self.samples + "/astronaut.jpg")
        #expect(catalog.entries.count == 15 && catalog.entries.allSatisfy { $0.info != nil })
    }

    @Test func csvManifestWithQuotesAndSections() throws {
        let dir = Self.folder()
        Self.copy("coins.png", to: dir + "/c.png")
        Self.copy("chelsea.jpg", to: dir + "/cat.jpg")
        let csv = "path,title,description,section\r\nc.png,\"Coins, old\",\"Said \"\"hello\"\"\",Money\ncat.jpg,Cat,,Animals\n"
        try csv.write(toFile: dir + "/m.csv", atomically: true, encoding: .utf8)
        let catalog = try Catalog.manifest(dir + "/m.csv")
        #expect(catalog.sections.map(\.header) == ["Money", "Animals"])
        #expect(catalog.entries[0].title == "Coins, old")
        #expect(catalog.entries[0].description == "Said \"hello\"")
        #expect(catalog.entries[1].description == nil)
    }

    @Test func manifestErrorsNameTheProblem() throws {
        let dir = Self.folder()
        try "{\"sections\": [{\"items\": [{\"title\": \"x\"}]}]}".write(toFile: dir + "/bad.json", atomically: true, encoding: .utf8)
        #expect(throws: CatalogError.manifest(path: dir + "/bad.json", message: "missing \"path\" at sections[0].items[0]")) {
            try Catalog.manifest(dir + "/bad.json")
        }
        try "{oops".write(toFile: dir + "/broken.json", atomically: true, encoding: .utf8)
        #expect {
            try Catalog.manifest(dir + "/broken.json")
        } throws: { error in
            guard case .manifest(let path, let message) = error as? CatalogError else { return false }
            return path == dir + "/broken.json" && message.hasPrefix("not valid JSON")
        }
        try "title\nx\n".write(toFile: dir + "/nopath.csv", atomically: true, encoding: .utf8)
        #expect(throws: CatalogError.manifest(path: dir + "/nopath.csv", message: "the header row has no \"path\" column (it has: title)")) {
            try Catalog.manifest(dir + "/nopath.csv")
        }
        // Invalid UTF-8 in a manifest is replaced, never a crash.
        try Data([0x70, 0x61, 0x74, 0x68, 0x0A, 0xFF, 0xFE, 0x2E, 0x6A, 0x70, 0x67, 0x0A]).write(to: URL(fileURLWithPath: dir + "/latin1.csv"))
        let odd = try Catalog.manifest(dir + "/latin1.csv")
        #expect(odd.entries.count == 1 && odd.entries[0].problem != nil && odd.entries[0].relativePath.contains("\u{FFFD}"))
    }

    @Test func colours() {
        #expect(Color(parsing: "#fff") == Color(red: 255, green: 255, blue: 255))
        #expect(Color(parsing: "#11223344") == Color(red: 0x11, green: 0x22, blue: 0x33, alpha: 0x44))
        #expect(Color(parsing: "#0003") == Color(red: 0, green: 0, blue: 0, alpha: 0x33))
        #expect(Color(parsing: "SteelBlue") == Color(red: 70, green: 130, blue: 180))
        #expect(Color(parsing: "transparent")?.alpha == 0)
        #expect(Color(parsing: "#12345") == nil && Color(parsing: "blurple") == nil && Color(parsing: "#ggg") == nil)
    }

    @Test func captionTemplates() throws {
        let catalog = try Catalog.manifest(Self.samples + "/manifest.json")
        let sheet = try ContactSheet(
            catalog: catalog,
            options: { var o = SheetOptions(); o.caption = .template("{index}. {stem} {width}x{height}\n{description}"); return o }(),
            typesetter: Typesetter(fonts: try FontLibrary(systemFallback: false)))
        let map = sheet.imageMap(output: nil)
        let portrait = try #require(map.elements.first { $0.source?.hasSuffix("astronaut-portrait-exif6.jpg") == true })
        #expect(portrait.title == "2. astronaut-portrait-exif6 300x512")
        #expect(portrait.description == "Stored sideways like a phone photo; it must appear upright.")
    }

    @Test func horizontalHeadersAreStripsAsWideAsTheirText() throws {
        let catalog = try Catalog.manifest(Self.samples + "/manifest.json")
        var options = SheetOptions()
        options.direction = .horizontal
        options.rows = 3
        options.height = 900
        let sheet = try ContactSheet(catalog: catalog, options: options, typesetter: Typesetter(fonts: try FontLibrary(systemFallback: false)))
        let headers = sheet.imageMap(output: nil).elements.filter { $0.kind == "header" }
        #expect(headers.map(\.text) == ["mosaic sample sheet", "Space", "Everyday", "Science"])
        for header in headers {
            #expect(header.frame.width > 20 && header.frame.width <= 720, "\(header.text ?? ""): \(header.frame)")
            #expect(header.frame.height == 900 - 2 * options.inset)
        }
        // Section labels wrap at 240 px; the title is set on one line (before: wrapped into
        // a 240 px strip and cut, "mosaic sample...").
        #expect(headers.dropFirst().allSatisfy { $0.frame.width <= 240 })
        let oneLine = try sheet.typesetter.layout("mosaic sample sheet", style: sheet.titleStyle, width: 10_000)
        #expect(headers[0].frame.width >= oneLine.lines[0].width)
        // Cards follow their section's header to the right.
        let cards = sheet.imageMap(output: nil).elements.filter { $0.kind == "card" && $0.section == 1 }
        #expect(cards.allSatisfy { $0.frame.minX >= headers[1].frame.maxX })
    }

    /// A horizontal board's footer is set at the foot of its strip, beside its section's
    /// last row (before: at the top, beside the next section's header).
    @Test func horizontalFootersSitAtTheFootOfTheirStrip() throws {
        let catalog = try Catalog.manifest(Self.samples + "/manifest.json")
        var options = SheetOptions()
        options.direction = .horizontal
        options.rows = 2
        options.height = 700
        let sheet = try ContactSheet(catalog: catalog, options: options, typesetter: Typesetter(fonts: try FontLibrary(systemFallback: false)))
        let sink = MemorySink()
        _ = try SheetRenderer(sheet: sheet).render(into: sink)
        let page = try #require(sink.pages.first)
        let footer = try #require(sheet.layout.elements(onPage: 0).first { $0.kind == .footer })
        let background = page[footer.frame.minX, footer.frame.minY]
        func inked(_ rows: Range<Int>) -> Int {
            rows.reduce(0) { sum, y in sum + (footer.frame.minX..<footer.frame.maxX).filter { page[$0, y] != background }.count }
        }
        let half = footer.frame.minY + footer.frame.height / 2
        #expect(inked(footer.frame.minY..<half) == 0)
        #expect(inked(half..<footer.frame.maxY) > 50)
    }

    /// Options are named by their `SheetOptions` property; the CLI maps them to flags.
    @Test func optionErrorsNameTheProperty() throws {
        let catalog = try Catalog.manifest(Self.samples + "/manifest.json")
        var options = SheetOptions()
        options.maxAspect = 0.5
        #expect(throws: SheetError.option(name: "maxAspect", message: "0.5 must be a number of at least 1")) {
            try ContactSheet(catalog: catalog, options: options, typesetter: Typesetter(fonts: try FontLibrary(systemFallback: false)))
        }
        #expect(SheetError.option(name: "maxAspect", message: "m").description == "maxAspect: m")
    }

    /// A grid sheet through the facade: the layout registry, equal cards per section.
    @Test func aGridSheetThroughTheRegistry() throws {
        #expect(SheetLayout.all.map(\.name) == ["masonry", "grid", "justified"])
        #expect(SheetLayout.named("grid") == .grid() && SheetLayout.named("spiral") == nil)
        let catalog = try Catalog.manifest(Self.samples + "/manifest.json")
        var options = SheetOptions()
        options.layout = .grid(cellAspect: 1.5, crop: true)
        options.columns = 4
        let sheet = try ContactSheet(catalog: catalog, options: options, typesetter: Typesetter(fonts: try FontLibrary(systemFallback: false)))
        let cards = sheet.imageMap(output: nil).elements.filter { $0.kind == "card" }
        #expect(cards.count == 15)
        for section in Set(cards.map(\.section)) {
            #expect(Set(cards.filter { $0.section == section }.map(\.frame.height)).count == 1)
        }
        let images = cards.compactMap(\.imageFrame)
        #expect(images.allSatisfy { abs(Double($0.width) / 1.5 - Double($0.height)) <= 1.5 })
    }
}

/// Natural order's ASCII path against the scalar path it stands in for.
@Suite struct NaturalOrderTests {
    @Test func asciiNamesCompareAsScalarsDo() {
        let pieces = ["0", "00", "1", "2", "9", "10", "010", "a", "A", "b", "Z", "_", ".", "-", " ", "img", "IMG", "~", "[", "`"]
        var generator = SeededGenerator(seed: 0xA5C11)
        var compared = 0
        for _ in 0..<30_000 {
            var a = "", b = ""
            for _ in 0..<Int(generator.next() % 6) { a += pieces[Int(generator.next() % UInt64(pieces.count))] }
            for _ in 0..<Int(generator.next() % 6) { b += pieces[Int(generator.next() % UInt64(pieces.count))] }
            #expect(naturalLess(a, b) == scalarNaturalLess(a, b), "\(a.debugDescription) < \(b.debugDescription)")
            compared += 1
        }
        #expect(compared == 30_000)
        // Not ASCII: the scalar path.
        #expect(naturalLess("é2", "é10") && !naturalLess("é10", "é2"))
    }
}
