import Foundation
import Mosaic
import MosaicLayout
import Testing

/// JPEG XL sheets (`-o sheet.jxl`): `djxl` (libjxl's own decoder) reads them, lossless is
/// the PNG render's pixels exactly, lossy is close to them; a page never holds more
/// pixels than the encoder's memory allows (libjxl 0.7 encodes whole pages), so a longer
/// board is paginated and a page past the limit is refused before its picture is taken.
@Suite struct JXLOutputTests {
    static let djxl = ["/usr/bin/djxl", "/usr/local/bin/djxl"].first { FileManager.default.isExecutableFile(atPath: $0) }

    /// `djxl`'s PNG of `path`: the exit status and the PNG's path.
    static func djxl(_ path: String) throws -> (status: Int32, png: String) {
        let png = path + ".djxl.png"
        let process = Process()
        process.executableURL = URL(fileURLWithPath: try #require(djxl))
        process.arguments = [path, png]
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        try process.run()
        process.waitUntilExit()
        return (process.terminationStatus, png)
    }

    @Test(.enabled(if: djxl != nil, "needs djxl (apt-get install libjxl-tools)")) func djxlReadsTheSheets() throws {
        let dir = CLI.temporaryDirectory()
        let png = try CLI.run(["render", CLI.sampleImages, "-o", dir + "/sheet.png"] + OutputKindTests.font)
        #expect(png.status == 0, "\(png.stderr)")
        for (name, extra) in [("lossy", ["--quality", "90"]), ("lossless", ["--lossless"]), ("alpha", ["--lossless", "--background", "transparent"])] {
            let result = try CLI.run(["render", CLI.sampleImages, "-o", dir + "/\(name).jxl"] + extra + OutputKindTests.font)
            #expect(result.status == 0, "\(result.stderr)")
            #expect(JXLOutput.isMosaicSheet(dir + "/\(name).jxl"), "the xml box names mosaic")
            let decoded = try Self.djxl(dir + "/\(name).jxl")
            try #require(decoded.status == 0, "djxl cannot read \(name).jxl")
            let theirs = try ImageDecoder().decode(decoded.png).bitmap
            let ours = try ImageDecoder().decode(dir + "/\(name).jxl").bitmap
            #expect(theirs.width == ours.width && theirs.height == ours.height)
            switch name {
            case "lossy": #expect(try OutputKindTests.psnr(decoded.png, against: dir + "/sheet.png") >= 35)
            case "lossless": #expect(theirs.pixels == (try ImageDecoder().decode(dir + "/sheet.png").bitmap.pixels))
            default: #expect(try theirs.pixels == ours.pixels && ImageDecoder().probe(dir + "/alpha.jxl").hasAlpha)
            }
        }
    }

    /// The page length follows the width: `maximumPagePixels` over it, lossy or lossless.
    @Test(arguments: [false, true]) func pagesAreCappedToTheEncodersMemory(lossless: Bool) throws {
        var options = SheetOptions()
        options.width = 4000
        var request = OutputRequest(destination: "/tmp/sheet.jxl")
        request.settings["lossless"] = .flag(lossless)
        let kind = JXLOutput(request, options: options)
        let limit = JXLOutput.maximumPagePixels(lossless: lossless)
        #expect(kind.sheetOptions(options).maxHeight == limit / 4000)
        #expect(limit * JXLOutput.bytesPerPixel(lossless: lossless) <= 1 << 30)
        // A shorter --max-height stays.
        options.maxHeight = 900
        #expect(JXLOutput(request, options: options).sheetOptions(options).maxHeight == 900)
    }

    /// A page past the limit (a card longer than a page stands alone on its page) is
    /// refused when it begins, before its picture is allocated, naming the file.
    @Test func aPagePastTheLimitIsRefused() throws {
        let dir = CLI.temporaryDirectory()
        let kind = JXLOutput(OutputRequest(destination: dir + "/big.jxl"), options: SheetOptions())
        let sink = kind.sink(destination: dir + "/big.jxl")
        let limit = JXLOutput.maximumPagePixels(lossless: false)
        #expect(throws: ImageEncodingError.tooLarge(path: dir + "/big.jxl", width: 5000, height: 5000, limit: limit)) {
            try sink.beginPage(0, of: 1, size: Size(width: 5000, height: 5000), hasAlpha: false)
        }
        sink.abandon()
        #expect(try FileManager.default.contentsOfDirectory(atPath: dir).isEmpty)
    }

    @Test func qualityMapsToCjxlsDistance() {
        #expect(JXLOutput.distance(quality: 90) == 1.0)
        #expect(abs(JXLOutput.distance(quality: 100) - 0.1) < 1e-6)
        #expect(abs(JXLOutput.distance(quality: 30) - 6.4) < 1e-5)
    }
}
