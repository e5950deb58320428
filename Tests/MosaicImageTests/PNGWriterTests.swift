import CMosaicShims
import Foundation
import MosaicImage
import Testing

@Suite struct PNGWriterTests {
    static func picture(_ w: Int, _ h: Int, alpha: Bool) -> Bitmap {
        var bitmap = Bitmap(width: w, height: h)
        for y in 0..<h {
            for x in 0..<w {
                let a: UInt8 = alpha ? UInt8((x * 255) / max(1, w - 1)) : 255
                bitmap[x, y] = RGBA(straightRed: UInt8(x * 7 % 256), green: UInt8(y * 5 % 256), blue: 99, alpha: a)
            }
        }
        return bitmap
    }

    @Test(arguments: [false, true])
    func roundTripInBands(alpha: Bool) throws {
        let dir = Fixtures.directory()
        let picture = Self.picture(100, 77, alpha: alpha)
        let writer = try PNGWriter(path: dir + "/out.png", width: 100, height: 77, hasAlpha: alpha)
        // Bands of 10 rows (the last one shorter).
        for top in stride(from: 0, to: 77, by: 10) {
            let rows = min(10, 77 - top)
            let band = Bitmap(width: 100, height: rows, pixels: Array(picture.pixels[(top * 400)..<((top + rows) * 400)]))!
            try writer.write(band)
        }
        try writer.finish()
        let info = try ImageDecoder().probe(dir + "/out.png")
        #expect(info.colorModel == (alpha ? "rgba" : "rgb"))
        let decoded = try ImageDecoder().decode(dir + "/out.png").bitmap
        if alpha {
            // Premultiplied -> straight -> premultiplied loses nothing that shows:
            // every channel within 1 level.
            #expect(zip(decoded.pixels, picture.pixels).allSatisfy { abs(Int($0) - Int($1)) <= 1 })
        } else {
            #expect(decoded == picture)
        }
        let leftovers = try FileManager.default.contentsOfDirectory(atPath: dir)
        #expect(leftovers == ["out.png"])
    }

    /// The Paeth filter runs eight bytes a step (SSE2) with a scalar tail: noise (every
    /// predictor branch and its ties, values near 0 and 255) in rows that are not a
    /// multiple of eight bytes comes back exactly.
    @Test(arguments: [1, 7, 37, 64])
    func noiseRoundTripsExactly(width: Int) throws {
        let dir = Fixtures.directory()
        var generator = SystemRandomNumberGenerator()
        var picture = Bitmap(width: width, height: 23)
        let levels: [UInt8] = [0, 1, 2, 127, 128, 253, 254, 255]
        for y in 0..<23 {
            for x in 0..<width {
                // Half from a few levels (ties), half anything.
                func level() -> UInt8 { Bool.random(using: &generator) ? levels.randomElement(using: &generator)! : .random(in: 0...255, using: &generator) }
                picture[x, y] = RGBA(red: level(), green: level(), blue: level())
            }
        }
        try picture.writePNG(to: dir + "/noise.png")
        #expect(try ImageDecoder().decode(dir + "/noise.png").bitmap == picture)
    }

    @Test func sameInputSameBytesNoTimestamp() throws {
        let dir = Fixtures.directory()
        let picture = Self.picture(64, 64, alpha: false)
        try picture.writePNG(to: dir + "/a.png")
        try picture.writePNG(to: dir + "/b.png")
        let a = Fixtures.bytes(dir + "/a.png")
        #expect(a == Fixtures.bytes(dir + "/b.png"))
        let text = String(decoding: a, as: UTF8.self)
        #expect(text.contains("tEXtSoftware\u{0}mosaic"))
        #expect(!text.contains("tIME"))
    }

    @Test func anUnfinishedWriteLeavesThePreviousFile() throws {
        let dir = Fixtures.directory()
        let path = dir + "/sheet.png"
        Fixtures.write(Array("previous".utf8), to: path)
        do {
            let writer = try PNGWriter(path: path, width: 10, height: 10, hasAlpha: false)
            try writer.write(Bitmap(width: 10, height: 4, fill: .white))
            #expect(throws: ImageEncodingError.rowMismatch(path: path, message: "only 4 of 10 rows were pushed")) { try writer.finish() }
        }
        do {
            // Dropped without finish(): an interrupted run.
            let writer = try PNGWriter(path: path, width: 10, height: 10, hasAlpha: false)
            try writer.write(Bitmap(width: 10, height: 4, fill: .white))
        }
        #expect(Fixtures.bytes(path) == Array("previous".utf8))
        #expect(try FileManager.default.contentsOfDirectory(atPath: dir) == ["sheet.png"])
    }

    @Test func badParametersAndPlaces() throws {
        let dir = Fixtures.directory()
        #expect(throws: ImageEncodingError.invalidParameter(field: "width", value: 0)) { try PNGWriter(path: dir + "/x.png", width: 0, height: 1, hasAlpha: false) }
        #expect(throws: ImageEncodingError.invalidParameter(field: "compressionLevel", value: 10)) {
            try PNGWriter(path: dir + "/x.png", width: 1, height: 1, hasAlpha: false, compressionLevel: 10)
        }
        // A missing folder is made (`OutputFolders`); a file where it should be is not.
        try Data("a file".utf8).write(to: URL(fileURLWithPath: dir + "/file"))
        #expect(throws: ImageEncodingError.cannotCreate(path: dir + "/file/x.png", reason: "Not a directory")) {
            try PNGWriter(path: dir + "/file/x.png", width: 1, height: 1, hasAlpha: false)
        }
        #expect(throws: ImageEncodingError.tooLarge(path: dir + "/big.png", width: 100, height: 100, limit: 5000)) {
            try PNGWriter(path: dir + "/big.png", width: 100, height: 100, hasAlpha: false, limits: ImageLimits(maximumOutputPixels: 5000))
        }
        #expect(!FileManager.default.fileExists(atPath: dir + "/big.png"))
        let writer = try PNGWriter(path: dir + "/y.png", width: 5, height: 2, hasAlpha: false)
        #expect(throws: ImageEncodingError.rowMismatch(path: dir + "/y.png", message: "a band 4 px wide for an image 5 px wide")) {
            try writer.write(Bitmap(width: 4, height: 1))
        }
        #expect(throws: ImageEncodingError.rowMismatch(path: dir + "/y.png", message: "3 rows pushed into an image 2 rows tall")) {
            try writer.write(Bitmap(width: 5, height: 3))
        }
    }

    /// Segments deflated on several threads join into one valid zlib stream (libpng checks
    /// it and its Adler-32 on reading) with the bytes of one thread, for images of many
    /// segments, RGB and RGBA, at the igzip and the zlib levels.
    @Test(arguments: [(false, 1), (true, 1), (false, 3), (true, 6), (false, 0)])
    func segmentsOnAnyNumberOfThreadsMakeTheSameFile(alpha: Bool, level: Int) throws {
        let dir = Fixtures.directory()
        // A segment is 512 KiB of filtered rows: 249 rows of RGB, 187 of RGBA here, so 1000
        // rows make 5 or 6 segments, the last one short.
        var picture = Self.picture(700, 1000, alpha: alpha)
        var seed: UInt64 = 7
        for i in stride(from: 0, to: picture.pixels.count, by: 4) where i % 12 == 0 {
            seed = seed &* 6364136223846793005 &+ 1442695040888963407
            let a = picture.pixels[i + 3]
            let v = UInt8(truncatingIfNeeded: seed >> 56)
            picture.pixels[i] = min(v, a)
        }
        var files: [[UInt8]] = []
        for threads in [1, 2, 4] {
            let path = dir + "/t\(threads).png"
            let writer = try PNGWriter(path: path, width: 700, height: 1000, hasAlpha: alpha, compressionLevel: level, threads: threads)
            for top in stride(from: 0, to: 1000, by: 256) {
                let rows = min(256, 1000 - top)
                try writer.write(Bitmap(width: 700, height: rows, pixels: Array(picture.pixels[(top * 2800)..<((top + rows) * 2800)]))!)
            }
            try writer.finish()
            files.append(Fixtures.bytes(path))
            let decoded = try ImageDecoder(strict: true).decode(path)
            #expect(decoded.warning == nil)
            #expect(zip(decoded.bitmap.pixels, picture.pixels).allSatisfy { abs(Int($0) - Int($1)) <= (alpha ? 1 : 0) })
        }
        #expect(files[0] == files[1] && files[1] == files[2])
        // One IDAT chunk per segment.
        let idats = (0..<(files[0].count - 4)).filter { files[0][$0..<($0 + 4)].elementsEqual(Array("IDAT".utf8)) }
        #expect(idats.count == (alpha ? 6 : 5))
    }

    @Test(arguments: 0...9)
    func everyCompressionLevelDecodesTheSame(level: Int) throws {
        let dir = Fixtures.directory()
        let picture = Self.picture(50, 20, alpha: false)
        try picture.writePNG(to: dir + "/l.png", compressionLevel: level)
        #expect(try ImageDecoder().decode(dir + "/l.png").bitmap == picture)
    }

    /// Unless told: level 6 up to 4 megapixels (a 2000 x 2000 sheet), level 1 above.
    @Test func theDefaultLevelFollowsTheSize() throws {
        #expect(PNGWriter.defaultCompressionLevel(width: 2000, height: 2000) == 6)
        #expect(PNGWriter.defaultCompressionLevel(width: 2001, height: 2000) == 1)
        #expect(PNGWriter.defaultCompressionLevel(width: 1, height: 4_000_001) == 1)
        #expect(PNGWriter.defaultCompressionLevel(width: Int.max, height: 2) == 1)
        let dir = Fixtures.directory()
        let picture = Self.picture(300, 200, alpha: false)
        try picture.writePNG(to: dir + "/default.png")
        try picture.writePNG(to: dir + "/6.png", compressionLevel: 6)
        try picture.writePNG(to: dir + "/1.png", compressionLevel: 1)
        #expect(Fixtures.bytes(dir + "/default.png") == Fixtures.bytes(dir + "/6.png"))
        #expect(Fixtures.bytes(dir + "/default.png") != Fixtures.bytes(dir + "/1.png"))
    }
}

/// The table of temporary files to remove on an interrupt has no fixed size: before, the
/// 65th file of a run was silently not registered and stayed behind after Ctrl-C.
@Suite struct TemporaryFileTableTests {
    @Test func everyRegisteredFileIsRemoved() throws {
        let dir = Fixtures.directory()
        let paths = (0..<200).map { dir + "/.page-\($0).png.mosaic-1-\($0).tmp" }
        for path in paths {
            _ = FileManager.default.createFile(atPath: path, contents: Data("x".utf8))
            #expect(mosaic_temp_register(path) == 1)
        }
        // The signal handler's walk over the whole table, kept to this test's folder:
        // tests running beside it have their own files in the table.
        #expect(mosaic_temp_remove_under(dir + "/") == 200)
        for path in paths { mosaic_temp_unregister(path) }
        #expect(try FileManager.default.contentsOfDirectory(atPath: dir).isEmpty)
    }
}
