import Foundation
@testable import Mosaic
import MosaicImage
import Testing

/// Catalog entries are packed into small records (paths in one buffer, header facts as
/// codes) and may live in a temporary file: every entry must come back exactly as it went
/// in, the unusual ones (kept beside the records) included.
@Suite struct CatalogEntriesTests {
    static let jpeg = ImageInfo(
        format: ImageFormat(rawValue: "jpeg"), width: 4032, height: 3024, orientation: .right, hasAlpha: false, interlacing: .progressive,
        bitDepth: 8, colorModel: "ycbcr", decodeMemory: 73_000_000)

    /// Entries of every kind a record cannot hold alone.
    static var unusual: [CatalogEntry] {
        var withProblem = CatalogEntry(path: "/photos/broken.jpg", relativePath: "broken.jpg")
        withProblem.problem = CardProblem(path: "/photos/broken.jpg", error: .unsupportedFormat(path: "/photos/broken.jpg", signature: [1, 2, 3], readable: CodecRegistry.standard.names))
        var software = jpeg
        software.software = "mosaic"
        var strangeModel = jpeg
        strangeModel.colorModel = "ycbcr, 2 thumbnails"
        var huge = jpeg
        huge.width = 5_000_000_000
        huge.decodeMemory = 1 << 40
        return [
            CatalogEntry(path: "/photos/a/IMG_0001.JPG", relativePath: "a/IMG_0001.JPG", info: jpeg, fileSize: 3_210_987, modified: 1_700_000_000.25),
            CatalogEntry(path: "/photos/x.png", relativePath: "elsewhere/x.png", info: jpeg),  // not the path's tail
            CatalogEntry(path: "/" + String(repeating: "long/", count: 14_000) + "x.jpg", relativePath: "x.jpg", info: jpeg),  // over 65,535 bytes
            CatalogEntry(path: "/photos/caf\u{10FFE9}.jpg", relativePath: "caf\u{10FFE9}.jpg", info: jpeg),  // a Latin-1 byte kept
            CatalogEntry(path: "/photos/照片.jpg", relativePath: "照片.jpg", info: software, title: "标题", description: "说明"),
            CatalogEntry(path: "/photos/m.jpg", relativePath: "m.jpg", info: strangeModel),
            CatalogEntry(path: "/photos/h.jpg", relativePath: "h.jpg", info: huge),
            CatalogEntry(path: "", relativePath: ""),
            withProblem,
        ]
    }

    @Test func everyEntryComesBackAsItWentIn() {
        let entries = CatalogEntries(Self.unusual)
        #expect(Array(entries) == Self.unusual)
        #expect(MemoryLayout<CatalogEntries.Record>.stride == 56)  // 48 before the capture date (8 bytes)
        // Only the unusual ones have an extra.
        #expect(entries.records[0].extra == 0)
        #expect(entries.extras.count == Self.unusual.count - 3)  // plain: the first, the Latin-1 name, the empty one
        for (i, entry) in Self.unusual.enumerated() { #expect(entries.path(at: i) == entry.path) }
    }

    @Test func spilledEntriesReadBackAndChangeAgain() throws {
        let entries = CatalogEntries(Self.unusual)
        let spilled = entries.spilled()
        #expect(spilled.spill != nil && spilled.records.isEmpty && spilled.bytes.isEmpty)
        #expect(Array(spilled) == Self.unusual)
        #expect(spilled == entries)
        for (i, entry) in Self.unusual.enumerated() { #expect(spilled.path(at: i) == entry.path) }
        // Changed after: back in memory, the rest unchanged.
        var changed = spilled
        changed[1].title = "moved"
        changed.append(CatalogEntry(path: "/photos/new.jpg", relativePath: "new.jpg", info: Self.jpeg))
        #expect(changed.spill == nil)
        #expect(changed[1].title == "moved" && changed[1].relativePath == "elsewhere/x.png")
        #expect(Array(changed.prefix(1)) == Array(Self.unusual.prefix(1)))
        #expect(changed.last?.path == "/photos/new.jpg")
        #expect(Array(spilled) == Self.unusual)
    }

    /// Every section of a spilled catalog shares one temporary file (one descriptor, however
    /// many sections: a file each ran out of descriptors at a thousand one-image albums).
    @Test func aSpilledCatalogIsOneFile() throws {
        let sections = (0..<1_000).map { i in
            CatalogSection(header: "album \(i)", entries: CatalogEntries(i.isMultiple(of: 3) ? Self.unusual : Array(Self.unusual.prefix(1))))
        } + [CatalogSection(header: "empty", entries: CatalogEntries())]
        let spilled = Catalog(sections: sections).spilled()
        let files = spilled.sections.compactMap { $0.entries.spill?.file }
        #expect(files.count == 1_000)
        let first = try #require(files.first)
        #expect(files.allSatisfy { $0 === first })
        for (original, moved) in zip(sections, spilled.sections) { #expect(Array(moved.entries) == Array(original.entries)) }
    }

    @Test func sortingAndRemovingKeepTheEntriesWhole() {
        var entries = CatalogEntries(Self.unusual).spilled()
        Catalog.sortEntries(&entries, by: .natural, reverse: false)
        #expect(entries.map(\.relativePath) == Self.unusual.map(\.relativePath).sorted(by: naturalLess))
        entries.removeAll { $0.problem != nil || $0.info == nil }
        #expect(entries.count == Self.unusual.count - 2)
        #expect(Set(entries) == Set(Self.unusual.filter { $0.problem == nil && $0.info != nil }))
        entries.reverse()
        #expect(entries.first?.relativePath == Self.unusual.map(\.relativePath).filter { !$0.isEmpty && $0 != "broken.jpg" }.sorted(by: naturalLess).last)
    }

    /// The sheet keeps its catalog in a temporary file, and draws from it.
    @Test func aSheetKeepsItsCatalogOutOfMemory() throws {
        let catalog = Catalog.files([CatalogTests.samples + "/coffee.jpg", CatalogTests.samples + "/coins.png"], jobs: 1)
        var options = SheetOptions()
        options.width = 400
        let sheet = try ContactSheet(catalog: catalog, options: options, typesetter: Typesetter(fonts: try FontLibrary(systemFallback: false)))
        #expect(sheet.catalog.sections.allSatisfy { $0.entries.spill != nil })
        #expect(Array(sheet.catalog.allEntries) == Array(catalog.allEntries))
        #expect(sheet.card(ItemPath(section: 0, item: 1)).caption == Caption(title: "coins"))
        let summary = try SheetRenderer(sheet: sheet).render(into: MemorySink())
        #expect(summary.rendered == 2)
    }

    /// A manifest's captioned cards were packed three times each (the path, then its title,
    /// then its description set one by one) and once more after the probe (a captioned
    /// entry was set aside whole instead of packed in place): four boxes a card, three of
    /// them dropped but kept, and a table of whole entries. 100,000 captioned cards took
    /// 282 MB, not 134 (issue 35 item 16). One box a card now, holding its captions, and
    /// the header facts in the record.
    @Test func aManifestPacksEachCaptionedCardOnce() throws {
        let dir = CatalogTests.folder()
        var rows = ["path,title,description"]
        for i in 0..<20 {
            CatalogTests.copy(i % 2 == 0 ? "coins.png" : "chelsea.jpg", to: dir + "/\(i).\(i % 2 == 0 ? "png" : "jpg")")
            rows.append("\(i).\(i % 2 == 0 ? "png" : "jpg"),Card \(i),\(i % 3 == 0 ? "" : "About \(i)")")
        }
        try rows.joined(separator: "\n").write(toFile: dir + "/m.csv", atomically: true, encoding: .utf8)
        let catalog = try Catalog.manifest(dir + "/m.csv", jobs: 2)
        let entries = try #require(catalog.sections.first?.entries)
        #expect(entries.count == 20)
        #expect(entries.extras.count == 20)
        for i in 0..<20 {
            #expect(entries.records[i].format != 0, "card \(i): its header facts are packed in its record")
            #expect(entries[i].title == "Card \(i)")
            #expect(entries[i].description == (i % 3 == 0 ? nil : "About \(i)"))
            #expect(entries[i].info?.width == (i % 2 == 0 ? 384 : 451))
        }
        // A card whose file fails keeps its captions beside its problem.
        try Data("not an image".utf8).write(to: URL(fileURLWithPath: dir + "/0.png"))
        let failedCatalog = try Catalog.manifest(dir + "/m.csv", jobs: 2)
        let failed = try #require(failedCatalog.sections.first?.entries)
        #expect(failed[0].problem != nil && failed[0].title == "Card 0")
        #expect(failedCatalog.strictProblems.map(\.path) == [dir + "/0.png"])
    }
}
