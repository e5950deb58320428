import Foundation
import Mosaic
import Testing

/// The "Other sinks" example of docs/guide/library.md, compiled and run here on a copy of
/// three sample photos; `DocExampleTests` checks that the guide shows exactly this code.
@Suite struct SinkExampleTests {
    static func example(photos: String, outputs: String) throws -> Size {
        // DOC-BEGIN
        import_Mosaic()

        var options = SheetOptions()
        options.width = 600
        options.columns = 3
        let typesetter = try Typesetter(fonts: FontLibrary())
        let catalog = try Catalog.folder(photos, sort: .natural)

        let sheet = try ContactSheet(catalog: catalog, options: options, typesetter: typesetter)
        _ = try SheetRenderer(sheet: sheet).render(into: JPEGSink(destination: outputs + "/sheet.jpg", quality: 90))
        _ = try SheetRenderer(sheet: sheet).render(into: WebPSink(destination: outputs + "/sheet.webp", quality: 90))
        _ = try SheetRenderer(sheet: sheet).render(into: AVIFSink(destination: outputs + "/sheet.avif", quality: 90, speed: 8))

        // PDF: the sheet as wide as the page at the DPI, paginated to the page's height.
        let page = PDFPageSize.a4.pixels(dpi: 100)  // 827 x 1169; also .letter, .millimetres(w, h)
        options.width = page.width
        options.maxHeight = page.height
        let printed = try ContactSheet(catalog: catalog, options: options, typesetter: typesetter)
        _ = try SheetRenderer(sheet: printed).render(into: PDFSink(destination: outputs + "/sheet.pdf", pagePixels: page, pageSize: .a4))
        // DOC-END
        return page
    }

    @Test func theExampleRuns() throws {
        let dir = NSTemporaryDirectory() + "mosaic-sink-example-\(getpid())"
        try? FileManager.default.removeItem(atPath: dir)
        defer { try? FileManager.default.removeItem(atPath: dir) }
        try FileManager.default.createDirectory(atPath: dir + "/photos", withIntermediateDirectories: true)
        for name in ["coffee.jpg", "coins.png", "chelsea.jpg"] {
            try FileManager.default.copyItem(atPath: CatalogTests.samples + "/" + name, toPath: dir + "/photos/" + name)
        }
        let page = try Self.example(photos: dir + "/photos", outputs: dir)
        #expect(page == Size(width: 827, height: 1169))
        let decoder = ImageDecoder()
        for name in ["sheet.jpg", "sheet.webp", "sheet.avif"] {
            #expect(try decoder.decode(dir + "/" + name).bitmap.width == 600, "\(name)")
        }
        let pdf = try Data(contentsOf: URL(fileURLWithPath: dir + "/sheet.pdf"))
        #expect(pdf.starts(with: Data("%PDF-".utf8)))
    }
}
