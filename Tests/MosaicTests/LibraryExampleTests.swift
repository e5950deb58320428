import Foundation
import Mosaic
import Testing

/// The README's "Using mosaic as a library" example (also in docs/guide/library.md),
/// compiled and run here on a copy of the sample photos and a file that is not an image;
/// `DocExampleTests` checks that the documents show exactly this code.
@Suite struct LibraryExampleTests {
    static func example(photos: String, sheetPath: String) throws -> (RenderSummary, [Bitmap]) {
        // DOC-BEGIN
        import_Mosaic()

        var options = SheetOptions()
        options.width = 1200
        options.columns = 4
        options.caption = .name
        options.style.font = .file("/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf")

        // The inputs, from their headers only; then the layout.
        let catalog = try Catalog.folder(photos, sort: .natural)
        let sheet = try ContactSheet(catalog: catalog, options: options, typesetter: Typesetter(fonts: FontLibrary()))

        // A PNG file, as `mosaic render photos -o sheet.png` writes it: the output checked
        // against the inputs first, the pages renamed into place when complete.
        let job = try RenderJob(request: OutputRequest(destination: sheetPath), options: options, inputs: [photos])
        let result = try job.render(sheet)
        print(result.written)  // "…/sheet.png (1200x…, … kB)"
        for problem in result.summary.failures {
            print("could not draw \(problem.path): \(problem.error.reason)")
        }

        // Or the pages as bitmaps in memory (premultiplied RGBA), for a server to encode.
        let memory = MemorySink()
        _ = try SheetRenderer(sheet: sheet).render(into: memory)
        let page: Bitmap = memory.pages[0]
        print(page.width, page.height)
        // DOC-END
        return (result.summary, memory.pages)
    }

    @Test func theExampleRuns() throws {
        let dir = NSTemporaryDirectory() + "mosaic-library-example-\(getpid())"
        try? FileManager.default.removeItem(atPath: dir)
        try FileManager.default.createDirectory(atPath: dir + "/photos", withIntermediateDirectories: true)
        let samples = CatalogTests.samples
        for name in ["coffee.jpg", "coins.png", "chelsea.jpg"] {
            try FileManager.default.copyItem(atPath: samples + "/" + name, toPath: dir + "/photos/" + name)
        }
        // An image's name on a file that is not one: a placeholder card, named in the summary.
        try Data("not a JPEG".utf8).write(to: URL(fileURLWithPath: dir + "/photos/broken.jpg"))
        let (summary, pages) = try Self.example(photos: dir + "/photos", sheetPath: dir + "/sheet.png")
        #expect(summary.rendered == 3)
        #expect(summary.failures.map { ($0.path as NSString).lastPathComponent } == ["broken.jpg"])
        #expect(summary.files == [dir + "/sheet.png"])
        let written = try ImageDecoder().decode(dir + "/sheet.png").bitmap
        #expect(pages.count == 1 && pages[0].width == 1200 && written.width == 1200 && written.height == pages[0].height)
    }
}

/// Stands for the example's `import Mosaic` line inside the test function.
func import_Mosaic() {}
