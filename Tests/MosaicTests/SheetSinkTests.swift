import CMosaicShims
import Foundation
import Testing

@testable import Mosaic

/// The JPEG, WebP and AVIF page sinks: the SampleImages sheet written through each decodes
/// back (with mosaic's own decoders) close to the memory rendering; pages are named as PNG
/// pages are, appear together on commit, leave nothing on abandon or interrupt, and replace
/// only files mosaic wrote.
@Suite struct SheetSinkTests {
    /// A sink kind under test, by its suffix.
    enum Format: String, CaseIterable, CustomTestStringConvertible, Sendable {
        case jpg, webp, avif
        var testDescription: String { rawValue }

        /// A sink writing to `destination` at the default quality.
        func sink(_ destination: String) -> any PageSink {
            switch self {
            case .jpg: JPEGSink(destination: destination)
            case .webp: WebPSink(destination: destination)
            case .avif: AVIFSink(destination: destination)
            }
        }

        func isMosaicSheet(_ path: String) -> Bool {
            switch self {
            case .jpg: JPEGSink.isMosaicSheet(path)
            case .webp: WebPSink.isMosaicSheet(path)
            case .avif: AVIFSink.isMosaicSheet(path)
            }
        }
    }

    /// The SampleImages sheet drawn into memory, once for every test.
    static let reference: Result<Bitmap, any Error> = Result { try RenderGoldenTests.render(RenderGoldenTests.sheet()) }

    /// The peak signal-to-noise ratio of `a` against `b` over red, green and blue, in dB.
    static func psnr(_ a: Bitmap, _ b: Bitmap) -> Double {
        var squares = 0.0
        for i in 0..<(a.width * a.height) {
            for c in 0..<3 {
                let d = Double(a.pixels[4 * i + c]) - Double(b.pixels[4 * i + c])
                squares += d * d
            }
        }
        let mean = squares / Double(a.width * a.height * 3)
        return mean == 0 ? .infinity : 10 * log10(255 * 255 / mean)
    }

    /// Files in `folder` whose names mark them as temporary (`.NAME.mosaic-PID-N.tmp`).
    static func temporaryFiles(_ folder: String) throws -> [String] {
        try FileManager.default.contentsOfDirectory(atPath: folder).filter { $0.hasSuffix(".tmp") }
    }

    /// Writes `count` pages of `size`, each filled with `fill`, through `sink`.
    static func writePages(_ sink: some PageSink, count: Int, size: Size = Size(width: 16, height: 8), fill: RGBA = .white) throws {
        for page in 0..<count {
            try sink.beginPage(page, of: count, size: size, hasAlpha: false)
            try sink.write(band: Bitmap(width: size.width, height: size.height, fill: fill))
            try sink.endPage()
        }
    }

    @Test(arguments: Format.allCases) func theSampleSheetDecodesBackAt35dBOrMore(format: Format) throws {
        let reference = try Self.reference.get()
        let dir = PageSinkTests.folder("quality\(format.rawValue)")
        let path = dir + "/sheet.\(format.rawValue)"
        _ = try SheetRenderer(sheet: RenderGoldenTests.sheet()).render(into: format.sink(path))
        let decoded = try ImageDecoder().decode(path).bitmap
        try #require(decoded.width == reference.width && decoded.height == reference.height)
        let psnr = Self.psnr(decoded, reference)
        #expect(psnr >= 35, "\(format): \(psnr) dB")
        #expect(format.isMosaicSheet(path))
        #expect(try FileManager.default.contentsOfDirectory(atPath: dir) == ["sheet.\(format.rawValue)"])
    }

    /// The same input gives the same bytes (no timestamps, no thread-dependent choices).
    @Test(arguments: [Format.jpg, .webp]) func theSameSheetGivesTheSameBytes(format: Format) throws {
        let dir = PageSinkTests.folder("same\(format.rawValue)")
        let sheet = try RenderGoldenTests.sheet()
        for name in ["a", "b"] { _ = try SheetRenderer(sheet: sheet).render(into: format.sink(dir + "/\(name).\(format.rawValue)")) }
        let a = try #require(FileManager.default.contents(atPath: dir + "/a.\(format.rawValue)"))
        #expect(a.count > 10_000)
        #expect(a == FileManager.default.contents(atPath: dir + "/b.\(format.rawValue)"))
    }

    /// Pages are named as PNG pages are and appear together; a later run of one page
    /// removes the earlier run's pages that mosaic wrote, and keeps another program's.
    @Test(arguments: Format.allCases) func pagesAreNamedAndReplacedAsPNGPagesAre(format: Format) throws {
        let dir = PageSinkTests.folder("pages\(format.rawValue)")
        let ext = format.rawValue
        let sink = format.sink(dir + "/s.\(ext)")
        try Self.writePages(sink, count: 3)
        #expect(try FileManager.default.contentsOfDirectory(atPath: dir).filter { !$0.hasPrefix(".") }.isEmpty)
        try sink.commit()
        #expect(try FileManager.default.contentsOfDirectory(atPath: dir).sorted() == ["s-1.\(ext)", "s-2.\(ext)", "s-3.\(ext)"])
        for page in 1...3 {
            #expect(try ImageDecoder().probe(dir + "/s-\(page).\(ext)").size == Size(width: 16, height: 8))
            #expect(format.isMosaicSheet(dir + "/s-\(page).\(ext)"))
        }
        // Another program's page 3: a JPEG without mosaic's mark, or any other bytes.
        try FileManager.default.removeItem(atPath: dir + "/s-3.\(ext)")
        if format == .jpg {
            try Bitmap(width: 4, height: 4, fill: .black).writeJPEG(to: dir + "/s-3.jpg", quality: 90)
            #expect(try ImageDecoder().probe(dir + "/s-3.jpg").size == Size(width: 4, height: 4))
        } else {
            try Data("another program's".utf8).write(to: URL(fileURLWithPath: dir + "/s-3.\(ext)"))
        }
        #expect(!format.isMosaicSheet(dir + "/s-3.\(ext)"))
        let single = format.sink(dir + "/s.\(ext)")
        try Self.writePages(single, count: 1)
        try single.commit()
        #expect(try FileManager.default.contentsOfDirectory(atPath: dir).sorted() == ["s-3.\(ext)", "s.\(ext)"])
    }

    /// Abandoning leaves the previous file as it was and no temporary file; a temporary
    /// file of a killed run (a PID that is not running) is removed by the next run.
    @Test(arguments: Format.allCases) func abandoningLeavesThePreviousFile(format: Format) throws {
        let dir = PageSinkTests.folder("abandon\(format.rawValue)")
        let path = dir + "/s.\(format.rawValue)"
        try Data("previous".utf8).write(to: URL(fileURLWithPath: path))
        let killed = dir + "/.s.\(format.rawValue).mosaic-2147483646-1.tmp"
        try Data("killed".utf8).write(to: URL(fileURLWithPath: killed))
        let sink = format.sink(path)
        try Self.writePages(sink, count: 1)
        #expect(try Self.temporaryFiles(dir).count == 1)  // the finished page; the killed run's is gone
        sink.abandon()
        #expect(try FileManager.default.contentsOfDirectory(atPath: dir) == ["s.\(format.rawValue)"])
        #expect(FileManager.default.contents(atPath: path) == Data("previous".utf8))
        #expect(!format.isMosaicSheet(path))
    }

    /// An interrupt while pages wait beside their destinations: the signal handler's walk
    /// over the table of temporary files removes every one of them.
    @Test(arguments: Format.allCases) func anInterruptLeavesNoTemporaryFile(format: Format) throws {
        let dir = PageSinkTests.folder("interrupt\(format.rawValue)")
        let sink = format.sink(dir + "/s.\(format.rawValue)")
        try Self.writePages(sink, count: 2)
        #expect(try Self.temporaryFiles(dir).count == 2)
        // What the SIGINT handler does (tests running beside this one keep their files).
        #expect(mosaic_temp_remove_under(dir + "/") == 2)
        #expect(try FileManager.default.contentsOfDirectory(atPath: dir).isEmpty)
        sink.abandon()
    }

    /// Pages past a format's side or the output limit, and qualities out of range, are
    /// refused before anything is written.
    @Test func pagesPastTheFormatsLimitsAreRefused() throws {
        let dir = PageSinkTests.folder()
        #expect(JPEGSink.maximumSide == 65500 && WebPSink.maximumSide == 16383 && AVIFSink.maximumSide == 32768)
        #expect(throws: ImageEncodingError.sideTooLong(path: dir + "/a.jpg", width: 65501, height: 1, format: "JPEG", maximumSide: 65500)) {
            try JPEGSink(destination: dir + "/a.jpg").beginPage(0, of: 1, size: Size(width: 65501, height: 1), hasAlpha: false)
        }
        #expect(throws: ImageEncodingError.sideTooLong(path: dir + "/a.webp", width: 2, height: 16384, format: "WebP", maximumSide: 16383)) {
            try WebPSink(destination: dir + "/a.webp").beginPage(0, of: 1, size: Size(width: 2, height: 16384), hasAlpha: false)
        }
        #expect(throws: ImageEncodingError.sideTooLong(path: dir + "/a.avif", width: 32769, height: 2, format: "AVIF", maximumSide: 32768)) {
            try AVIFSink(destination: dir + "/a.avif").beginPage(0, of: 1, size: Size(width: 32769, height: 2), hasAlpha: false)
        }
        let limits = ImageLimits(maximumOutputPixels: 100)
        #expect(throws: ImageEncodingError.tooLarge(path: dir + "/b.webp", width: 11, height: 10, limit: 100)) {
            try WebPSink(destination: dir + "/b.webp", limits: limits).beginPage(0, of: 1, size: Size(width: 11, height: 10), hasAlpha: false)
        }
        #expect(throws: ImageEncodingError.invalidParameter(field: "quality", value: 101)) {
            try JPEGSink(destination: dir + "/c.jpg", quality: 101).beginPage(0, of: 1, size: Size(width: 1, height: 1), hasAlpha: false)
        }
        #expect(throws: ImageEncodingError.invalidParameter(field: "speed", value: 10)) {
            try AVIFSink(destination: dir + "/c.avif", speed: 10).beginPage(0, of: 1, size: Size(width: 1, height: 1), hasAlpha: false)
        }
        #expect(try FileManager.default.contentsOfDirectory(atPath: dir).isEmpty)
    }

    /// JPEG has no alpha: a transparent sheet is composited over white; WebP and AVIF keep
    /// the alpha.
    @Test(arguments: Format.allCases) func transparencyIsFlattenedOrKept(format: Format) throws {
        let dir = PageSinkTests.folder("alpha\(format.rawValue)")
        let path = dir + "/a.\(format.rawValue)"
        let sink = format.sink(path)
        try sink.beginPage(0, of: 1, size: Size(width: 16, height: 16), hasAlpha: true)
        try sink.write(band: Bitmap(width: 16, height: 16, fill: RGBA(red: 0, green: 0, blue: 128, alpha: 128)))  // premultiplied
        try sink.endPage()
        try sink.commit()
        let pixel = try ImageDecoder().decode(path).bitmap[8, 8]
        if format == .jpg {
            #expect(pixel.alpha == 255 && abs(Int(pixel.red) - 127) <= 3 && abs(Int(pixel.blue) - 255) <= 3, "\(pixel)")
        } else {
            #expect(abs(Int(pixel.alpha) - 128) <= 3 && abs(Int(pixel.blue) - 128) <= 4 && pixel.red <= 4, "\(pixel)")
        }
    }
}

/// A FIFO (or any file that is not a regular one) where a stale page would be is never
/// opened to read its mark: opening a FIFO waits for a writer, and the commit hung.
@Suite struct StalePageFIFOTests {
    /// What the background check found.
    final class Outcome: @unchecked Sendable {
        var isMosaicSheet = true
        var files: [String] = []
        var error: (any Error)?
    }

    @Test(arguments: ["png", "jpg", "webp", "avif", "pdf"])
    func aFIFOAtAStalePageIsLeftAlone(ext: String) throws {
        let dir = PageSinkTests.folder("fifo\(ext)")
        let stale = ext == "pdf" ? dir + "/s.pdf" : dir + "/s-2.\(ext)"
        #expect(mkfifo(stale, 0o644) == 0)
        let outcome = Outcome()
        let done = DispatchSemaphore(value: 0)
        Thread.detachNewThread {
            defer { done.signal() }
            switch ext {
            case "png": outcome.isMosaicSheet = PNGSink.isMosaicSheet(stale)
            case "jpg": outcome.isMosaicSheet = JPEGSink.isMosaicSheet(stale)
            case "webp": outcome.isMosaicSheet = WebPSink.isMosaicSheet(stale)
            case "avif": outcome.isMosaicSheet = AVIFSink.isMosaicSheet(stale)
            default: outcome.isMosaicSheet = PDFSink.isMosaicSheet(stale)
            }
            guard ext != "pdf" else { return }
            let sink: any PageSink =
                switch ext {
                case "png": PNGSink(destination: dir + "/s.png")
                case "jpg": JPEGSink(destination: dir + "/s.jpg")
                case "webp": WebPSink(destination: dir + "/s.webp")
                default: AVIFSink(destination: dir + "/s.avif")
                }
            do {
                try SheetSinkTests.writePages(sink, count: 1)
                try sink.commit()
                outcome.files = try FileManager.default.contentsOfDirectory(atPath: dir).sorted()
            } catch { outcome.error = error }
        }
        if done.wait(timeout: .now() + 30) == .timedOut {
            Issue.record("\(ext): reading the FIFO's mark waited for a writer")
            let fd = open(stale, O_WRONLY | O_NONBLOCK)  // lets the waiting open return, then read EOF
            if fd >= 0 { close(fd) }
            done.wait()
        }
        #expect(!outcome.isMosaicSheet)
        #expect(outcome.error == nil)
        if ext != "pdf" { #expect(outcome.files == ["s-2.\(ext)", "s.\(ext)"]) }
    }
}

/// Lossless WebP and AVIF give the page's pixels back exactly.
@Suite struct LosslessSheetTests {
    @Test(arguments: ["webp", "avif"]) func losslessPagesDecodeToTheSamePixels(ext: String) throws {
        let dir = PageSinkTests.folder("lossless\(ext)")
        let path = dir + "/l.\(ext)"
        let sink: any PageSink = ext == "webp" ? WebPSink(destination: path, lossless: true) : AVIFSink(destination: path, lossless: true)
        var page = Bitmap(width: 24, height: 10)
        for y in 0..<10 { for x in 0..<24 { page[x, y] = RGBA(red: UInt8(x * 10), green: UInt8(y * 25), blue: UInt8((x * y) % 256)) } }
        try sink.beginPage(0, of: 1, size: Size(width: 24, height: 10), hasAlpha: false)
        try sink.write(band: page)
        try sink.endPage()
        try sink.commit()
        let decoded = try ImageDecoder().decode(path).bitmap
        #expect(decoded.pixels == page.pixels)
    }
}

/// Pages of odd sizes, down to one pixel, decode back at their size (4:2:0 halves chroma).
@Suite struct OddPageSizeTests {
    @Test(arguments: SheetSinkTests.Format.allCases) func oddSizesDecodeBack(format: SheetSinkTests.Format) throws {
        for size in [Size(width: 1, height: 1), Size(width: 17, height: 9), Size(width: 3, height: 31)] {
            let dir = PageSinkTests.folder("odd\(format.rawValue)")
            let path = dir + "/o.\(format.rawValue)"
            let sink = format.sink(path)
            try SheetSinkTests.writePages(sink, count: 1, size: size, fill: RGBA(red: 200, green: 40, blue: 90))
            try sink.commit()
            let decoded = try ImageDecoder().decode(path).bitmap
            #expect(decoded.width == size.width && decoded.height == size.height)
            let pixel = decoded[size.width - 1, size.height - 1]
            #expect(abs(Int(pixel.red) - 200) <= 6 && abs(Int(pixel.green) - 40) <= 6 && abs(Int(pixel.blue) - 90) <= 6, "\(format) \(size): \(pixel)")
        }
    }
}
