import Foundation
import Mosaic
import Testing

/// Inputs that ended a run with a signal (a trap, a segfault, an abort in HarfBuzz) instead
/// of a message: each now gives a usage error, or is drawn with a warning.
@Suite struct HostileInputTests {
    static let fixed = ["--font", "/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf", "--no-progress"]

    /// A page size no Int holds trapped converting points to pixels (SIGILL): now exit 64,
    /// naming the option and the range.
    @Test(arguments: ["1e20x100mm", "1e308x100mm", "100x1e19mm", "1e17x100mm"])
    func aPageSizeBeyondAnyPageIsAUsageError(size: String) throws {
        let dir = CLI.temporaryDirectory("pageSize-\(size)")
        let result = try CLI.run(["render", CLI.sampleImages, "-o", dir + "/s.pdf", "--page-size", size] + Self.fixed)
        #expect(result.status == 64, "\(result.stderr)")
        #expect(result.stderr.contains("--page-size \(size) at --dpi 300 is "), "\(result.stderr)")
        #expect(result.stderr.contains("a page must be 64 to 65500 pixels a side, 5.42 to 5545.67 mm at 300 dpi"))
        #expect(try FileManager.default.contentsOfDirectory(atPath: dir).isEmpty)
    }

    /// Strips far longer than they are thick, cropped by every crop mode in masonry and a
    /// Deep Zoom pyramid (the aspect clamp crops them) and a cropped grid: the entropy
    /// map read past the strip's last row (SIGSEGV). Every run draws every card.
    @Test(arguments: CropFocus.allCases)
    func everyCropModeDrawsExtremeStrips(mode: CropFocus) throws {
        let dir = CLI.temporaryDirectory("strips-\(mode)")
        for (width, height) in [(5000, 10), (7000, 60), (16384, 1)] {
            var pixels = [UInt8](repeating: 255, count: width * height * 4)
            for i in 0..<(width * height) { pixels[i * 4] = UInt8(truncatingIfNeeded: i * 5); pixels[i * 4 + 2] = UInt8(truncatingIfNeeded: i / 40) }
            try #require(Bitmap(width: width, height: height, pixels: pixels)).writePNG(to: "\(dir)/strip-\(width)x\(height).png")
        }
        let out = CLI.temporaryDirectory("strips-\(mode)-out")
        for extra in [["-o", out + "/masonry.png"], ["-o", out + "/grid.png", "--layout", "grid", "--crop"], ["-o", out + "/deep.dzi"]] {
            let result = try CLI.run(["render", dir, "--crop-mode", mode.rawValue] + extra + Self.fixed)
            #expect(result.status == 0, "\(extra): \(result.stderr)")
            #expect(result.stderr.contains("rendered 3 images"), "\(extra): \(result.stderr)")
        }
    }

    /// A caption of one letter and 75,000 combining marks aborted inside HarfBuzz (exit 134);
    /// now it is set cut to `TextLimits`, with a warning naming the card.
    @Test func aCaptionOfSeventyFiveThousandMarksIsCutWithAWarning() throws {
        let dir = CLI.temporaryDirectory()
        try FileManager.default.copyItem(atPath: CLI.sampleImages + "/coins.png", toPath: dir + "/coins.png")
        let title = "a" + String(repeating: "\u{301}", count: 75_000)
        let manifest = try JSONSerialization.data(withJSONObject: ["items": [["path": "coins.png", "title": title]]])
        try manifest.write(to: URL(fileURLWithPath: dir + "/m.json"))
        let result = try CLI.run(["render", dir + "/m.json", "-o", dir + "/s.png", "--caption", "title"] + Self.fixed)
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stderr.contains(
            "warning: \(dir)/coins.png: its caption is cut: it has 75,001 characters and 75,000 combining marks on one character: set with at most 4,096 characters and 30 marks on each"),
            "\(result.stderr)")
        let layout = try CLI.run(["layout", dir + "/m.json", "--caption", "title"] + Self.fixed.dropLast())
        #expect(layout.status == 0 && layout.stderr.contains("warning: \(dir)/coins.png: its caption is cut"), "\(layout.stderr)")
    }

    /// An 8x8 progressive, arithmetic-coded JPEG (libjpeg-turbo's cjpeg -progressive
    /// -arithmetic): a file only libjpeg reads (the DC-only reader takes Huffman files).
    static let progressiveArithmetic =
        "/9j/4AAQSkZJRgABAQAAAQABAAD/2wBDABALDA4MChAODQ4SERATGCgaGBYWGDEjJR0oOjM9PDkzODdASFxOQERXRTc4UG1RV19iZ2hnPk1xeXBkeFxlZ2P/2wBDARESEhgVGC8aGi9jQjhCY2NjY2NjY2NjY2NjY2NjY2NjY2NjY2NjY2NjY2NjY2NjY2NjY2NjY2NjY2NjY2NjY2P/ygARCAAIAAgDASIAAhEBAxEB/8wABgAQARD/2gAMAwEAAhADEAAAAdzCgP/MAAQQBf/aAAgBAQABBQIw/8wABBEF/9oACAEDAQE/AYD/zAAEEQX/2gAIAQIBAT8BJxXg/8wABBAF/9oACAEBAAY/ApCQ/8wABBAF/9oACAEBAAE/IR627agbegAAAAj/2gAMAwEAAgADAAAAEPz/zAAEEQX/2gAIAQMBAT8Q7j+C4Aj/zAAEEQX/2gAIAQIBAT8Q5uvc/8wABBAF/9oACAEBAAE/EHS4Yj7oihQ6FtTA/9k="

    /// libjpeg's "Insufficient memory" was a codec error ("invalid JPEG: Insufficient memory
    /// (case 4)"): the file is fine, the system refused the memory. That JPEG's header made to
    /// say 16000 x 16000 (its progressive coefficients: 768 MB) under a 600 MB address-space
    /// limit fails as out of memory, as the other codecs' refusals do.
    @Test func aJPEGTheSystemHasNoMemoryForIsNamedAsSuch() throws {
        let dir = CLI.temporaryDirectory()
        var jpeg = try #require(Data(base64Encoded: Self.progressiveArithmetic).map { [UInt8]($0) })
        let frame = try #require((0..<(jpeg.count - 1)).first { jpeg[$0] == 0xFF && jpeg[$0 + 1] == 0xCA })
        jpeg.replaceSubrange((frame + 5)..<(frame + 9), with: [0x3E, 0x80, 0x3E, 0x80])
        try Data(jpeg).write(to: URL(fileURLWithPath: dir + "/big.jpg"))
        let result = try CLI.runInShell("ulimit -v 600000 && exec \"$0\" render \"$1/big.jpg\" -o \"$1/out.png\" --jobs 1 --no-progress", arguments: [dir])
        let stderr = result.stderr
        #expect(result.status == 1)
        #expect(stderr.contains("big.jpg: out of memory: the system refused the memory decoding needs ("), "\(stderr)")
        #expect(!stderr.contains("Insufficient memory"), "\(stderr)")
    }
}
