import CMosaicShims
import Foundation
import MosaicImage
import MosaicLayout
import Testing

/// PNG chunks written by hand, for files the shim's encoder would not make.
enum RawPNG {
    static func crc32(_ bytes: [UInt8]) -> UInt32 {
        var crc: UInt32 = 0xFFFF_FFFF
        for byte in bytes {
            crc ^= UInt32(byte)
            for _ in 0..<8 { crc = (crc >> 1) ^ (crc & 1 == 1 ? 0xEDB8_8320 : 0) }
        }
        return ~crc
    }

    static func u32(_ v: UInt32) -> [UInt8] { [UInt8(v >> 24), UInt8(v >> 16 & 0xFF), UInt8(v >> 8 & 0xFF), UInt8(v & 0xFF)] }

    static func chunk(_ type: String, _ data: [UInt8]) -> [UInt8] {
        let body = Array(type.utf8) + data
        return u32(UInt32(data.count)) + body + u32(crc32(body))
    }

    /// zlib data in stored (uncompressed) deflate blocks.
    static func zlib(_ data: [UInt8]) -> [UInt8] {
        var out: [UInt8] = [0x78, 0x01]
        var offset = 0
        repeat {
            let n = min(65535, data.count - offset)
            let last: UInt8 = offset + n == data.count ? 1 : 0
            out += [last, UInt8(n & 0xFF), UInt8(n >> 8), UInt8(~n & 0xFF), UInt8((~n >> 8) & 0xFF)]
            out += data[offset..<(offset + n)]
            offset += n
        } while offset < data.count
        var a: UInt32 = 1, b: UInt32 = 0
        for byte in data {
            a = (a + UInt32(byte)) % 65521
            b = (b + a) % 65521
        }
        return out + u32(b << 16 | a)
    }

    /// An RGB PNG `width` x `height` of one colour, with `extra` chunks before the image data.
    static func file(width: Int, height: Int, extra: [[UInt8]] = []) -> [UInt8] {
        var png: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]
        png += chunk("IHDR", u32(UInt32(width)) + u32(UInt32(height)) + [8, 2, 0, 0, 0])
        for c in extra { png += c }
        var rows: [UInt8] = []
        for _ in 0..<height {
            rows.append(0)  // filter: none
            for _ in 0..<width { rows += [10, 20, 30] }
        }
        png += chunk("IDAT", zlib(rows))
        return png + chunk("IEND", [])
    }
}

@Suite struct UntrustedInputTests {
    let decoder = ImageDecoder()

    /// More than the 64 KiB probe prefix of metadata before the image data. The probe's
    /// "starved" flag is set in libpng's read callback and read after the longjmp; it was
    /// not volatile, and an optimizing build (not this debug one) read 0 and refused the file.
    @Test func aLongTextChunkBeforeTheImageData() throws {
        let dir = Fixtures.directory()
        let text = RawPNG.chunk("iTXt", Array("XML:com.adobe.xmp".utf8) + [0, 0, 0, 0, 0] + [UInt8](repeating: 0x78, count: 137_000))
        try Data(RawPNG.file(width: 4, height: 3, extra: [text])).write(to: URL(fileURLWithPath: dir + "/xmp.png"))
        let info = try decoder.probe(dir + "/xmp.png")
        #expect(info.size == Size(width: 4, height: 3))
        #expect(try decoder.decode(dir + "/xmp.png").bitmap[3, 2] == RGBA(red: 10, green: 20, blue: 30))
    }

    /// A libpng allocation the system refuses (here the row buffers of an interlaced PNG
    /// 100,000 pixels wide, over a cap set on this thread) is `.outOfMemory`, as libjpeg's
    /// and the other codecs' are: it was a codec error, "invalid PNG: Out of memory". The
    /// same file decodes without the cap.
    @Test func aPNGTheSystemHasNoMemoryForIsNamedAsSuch() throws {
        let dir = Fixtures.directory()
        let path = dir + "/wide-adam7.png"
        let (width, height) = (100_000, 2)
        Fixtures.writePNG(path, width: width, height: height, rows: [UInt8](repeating: 90, count: width * height * 3), .init(colorType: 2, interlaced: true))
        mosaic_png_refuse_allocations_over(100_000)
        defer { mosaic_png_refuse_allocations_over(0) }
        #expect(throws: ImageDecodingError.outOfMemory(path: path, bytes: width * height * 4)) { try decoder.decode(path) }
        mosaic_png_refuse_allocations_over(0)
        #expect(try decoder.decode(path).bitmap[99_999, 1] == RGBA(red: 90, green: 90, blue: 90))
    }

    /// One rule for every codec: the default per-image limit admits whole the largest input
    /// the pixel limit admits (16384 x 16384 RGBA, 1 GiB, and the decoder's own buffers).
    /// A TIFF page of that size (1025 MB with a strip) was refused against 1024 MB while a
    /// PNG of the same size decoded. An animated WebP's canvas, held three times, is not.
    @Test func theDefaultLimitAdmitsTheLargestInputInEveryCodec() {
        let limit = ImageLimits().maximumDecodeMemory
        #expect(limit == ImageLimits.defaultDecodeMemory && limit >= ImageLimits().maximumInputPixels * 4)
        func info(_ format: ImageFormat, _ model: ColorModel, decodeMemory: Int = 0) -> ImageInfo {
            ImageInfo(format: format, width: 16384, height: 16384, orientation: .up, hasAlpha: false, bitDepth: 8, colorModel: model, decodeMemory: decodeMemory)
        }
        let largest: [(any ImageCodec, ImageInfo)] = [
            (PNGCodec(), info(.png, .rgb)), (GIFCodec(), info(.gif, .palette)), (TIFFCodec(), info(.tiff, .rgb)), (WebPCodec(), info(.webp, .rgb)),
        ]
        for (codec, info) in largest {
            #expect(codec.decodedBytes(info, minimumSize: nil) <= limit, "\(info.format)")
        }
        // libjpeg takes the limit for its own buffers: a progressive 4:2:0 JPEG's
        // coefficients (1.5 samples a pixel, 2 bytes each).
        #expect(16384 * 16384 * 3 <= limit)
        #expect(WebPCodec().decodedBytes(info(.webp, .animation(frames: 2)), minimumSize: nil) > limit)
    }

    /// Strict mode refuses lost data and lets benign warnings through.
    @Test func strictRefusesDataLossOnly() throws {
        let dir = Fixtures.directory()
        var pixels: [UInt8] = []
        for y in 0..<64 { for x in 0..<64 { pixels += [UInt8(x * 4), UInt8(y * 4), 128] } }
        Fixtures.writeJPEG(dir + "/a.jpg", pixels: pixels, width: 64, height: 64, components: 3)
        let jpeg = try [UInt8](Data(contentsOf: URL(fileURLWithPath: dir + "/a.jpg")))
        // Bytes between the first header segment and the next marker: a benign warning.
        let firstEnd = 4 + Int(jpeg[4]) << 8 + Int(jpeg[5])
        let extraneous = Array(jpeg[..<firstEnd]) + [1, 2, 3, 4] + Array(jpeg[firstEnd...])
        try Data(extraneous).write(to: URL(fileURLWithPath: dir + "/extraneous.jpg"))
        // Cut short: data lost.
        try Data(jpeg.prefix(jpeg.count * 2 / 3)).write(to: URL(fileURLWithPath: dir + "/cut.jpg"))
        var strict = decoder
        strict.strict = true
        let lenient = try decoder.decode(dir + "/extraneous.jpg")
        #expect(lenient.warning?.message == "Corrupt JPEG data: 4 extraneous bytes before marker 0x\(String(jpeg[firstEnd + 1], radix: 16))")
        #expect(lenient.warning?.isDataLoss == false)
        #expect(try strict.decode(dir + "/extraneous.jpg").warning?.isDataLoss == false)
        #expect(try decoder.decode(dir + "/cut.jpg").warning?.isDataLoss == true)
        #expect(throws: ImageDecodingError.damaged(path: dir + "/cut.jpg", message: "Premature end of JPEG file")) {
            try strict.decode(dir + "/cut.jpg")
        }
        // A PNG whose colour profile libpng complains about: ancillary, benign.
        let profile = RawPNG.chunk("iCCP", Array("bad".utf8) + [0, 0] + RawPNG.zlib([UInt8](repeating: 0, count: 64)))
        try Data(RawPNG.file(width: 2, height: 2, extra: [profile])).write(to: URL(fileURLWithPath: dir + "/profile.png"))
        let warned = try decoder.decode(dir + "/profile.png")
        #expect(warned.warning != nil && warned.warning?.isDataLoss == false)
        #expect(try strict.decode(dir + "/profile.png").bitmap[1, 1] == RGBA(red: 10, green: 20, blue: 30))
    }

    /// Where the entropy-coded data that starts at `start` ends: at the first marker that is
    /// neither a stuffed 0xFF00 nor a restart marker.
    static func scanEnd(_ jpeg: [UInt8], from start: Int) -> Int {
        var i = start
        while i + 1 < jpeg.count, !(jpeg[i] == 0xFF && jpeg[i + 1] != 0 && !(0xD0...0xD7).contains(jpeg[i + 1])) { i += 1 }
        return i
    }

    /// Bytes after a complete entropy-coded segment, before its restart marker, are padding
    /// (camera MJPEG frames hold them: "6 extraneous bytes before marker 0xd1"): libjpeg
    /// decodes the interval's MCUs whole and skips them, so the pixels are the file's, a
    /// benign warning also under --strict, at full size and shrunk on load. A segment cut
    /// short (its last bytes gone, the decoder runs into the marker before its MCUs) lost
    /// data: refused under --strict.
    @Test(arguments: [nil, Size(width: 8, height: 8)])
    func paddingBeforeARestartMarkerIsBenignAndAShortSegmentIsNot(minimumSize: Size?) throws {
        let dir = Fixtures.directory()
        var pixels: [UInt8] = []
        for y in 0..<64 { for x in 0..<64 { pixels += [UInt8(x * 4), UInt8(y * 4), UInt8((x ^ y) & 0xFF)] } }
        for progressive in [false, true] {
            let name = dir + (progressive ? "/progressive.jpg" : "/baseline.jpg")
            Fixtures.writeJPEG(name, pixels: pixels, width: 64, height: 64, components: 3, progressive: progressive, restartInterval: 1)
            let jpeg = try [UInt8](Data(contentsOf: URL(fileURLWithPath: name)))
            let clean = try decoder.decode(name, minimumSize: minimumSize)
            #expect(clean.warning == nil)
            // The second restart marker (of the first scan: the DC scan of a progressive
            // file), and the segment before it.
            let firstSOS = try #require((0..<(jpeg.count - 1)).first { jpeg[$0] == 0xFF && jpeg[$0 + 1] == 0xDA })
            let rst0 = try #require((firstSOS..<(jpeg.count - 1)).first { jpeg[$0] == 0xFF && jpeg[$0 + 1] == 0xD0 })
            let rst1 = try #require((rst0..<(jpeg.count - 1)).first { jpeg[$0] == 0xFF && jpeg[$0 + 1] == 0xD1 })
            #expect(rst1 - rst0 > 6, "the segment holds data")
            var strict = decoder
            strict.strict = true
            for padding in [[0x12, 0x34, 0x56], [0x00, 0x00, 0x00, 0x00, 0x00, 0x00], [0xA2, 0x80, 0x0A, 0x28, 0x00, 0x3F]] as [[UInt8]] {
                let path = dir + "/padded-\(progressive)-\(padding.count)-\(padding[0]).jpg"
                try Data(Array(jpeg[..<rst1]) + padding + Array(jpeg[rst1...])).write(to: URL(fileURLWithPath: path))
                let lenient = try decoder.decode(path, minimumSize: minimumSize)
                let message = try #require(lenient.warning?.message)
                #expect(message.hasPrefix("Corrupt JPEG data: \(padding.count) extraneous bytes before marker 0xd"), "\(message)")
                #expect(lenient.warning?.isDataLoss == false)
                let taken = try strict.decode(path, minimumSize: minimumSize)
                #expect(taken.bitmap == clean.bitmap, "the padded frame's pixels are the clean file's")
            }
            // The segment before RST1 cut short by 3 bytes: MCUs lost.
            let short = dir + "/short-\(progressive).jpg"
            try Data(Array(jpeg[..<(rst1 - 3)]) + Array(jpeg[rst1...])).write(to: URL(fileURLWithPath: short))
            let lenient = try decoder.decode(short, minimumSize: minimumSize)
            let message = try #require(lenient.warning?.message)
            #expect(lenient.warning?.isDataLoss == true, "\(message)")
            #expect(throws: ImageDecodingError.damaged(path: short, message: "Corrupt JPEG data: premature end of data segment")) {
                try strict.decode(short, minimumSize: minimumSize)
            }
            // Bytes between two header segments: benign (or, read by the DC-only reader at
            // 1/8, not even a warning), also under --strict.
            let firstEnd = 4 + Int(jpeg[4]) << 8 + Int(jpeg[5])
            let between = dir + "/between-\(progressive).jpg"
            try Data(Array(jpeg[..<firstEnd]) + [0x12, 0x34, 0x56] + Array(jpeg[firstEnd...])).write(to: URL(fileURLWithPath: between))
            #expect(try strict.decode(between, minimumSize: minimumSize).warning?.isDataLoss != true)
        }
    }

    /// The DC-only reader still takes clean progressive files with restart markers (the
    /// damage checks above must not hand every such file to libjpeg, whose 1/8 decode
    /// holds the whole coefficient buffer), and gives the pixels libjpeg gives.
    @Test func theDCReaderStillReadsCleanRestartIntervals() throws {
        let dir = Fixtures.directory()
        var pixels: [UInt8] = []
        for y in 0..<64 { for x in 0..<64 { pixels += [UInt8(x * 4), UInt8(y * 4), UInt8((x ^ y) & 0xFF)] } }
        Fixtures.writeJPEG(dir + "/p.jpg", pixels: pixels, width: 64, height: 64, components: 3, progressive: true, restartInterval: 1)
        let jpeg = Fixtures.bytes(dir + "/p.jpg")
        var out = [UInt8](repeating: 0, count: 8 * 8 * 4)
        var result = mosaic_result()
        let taken = jpeg.withUnsafeBufferPointer { input in
            out.withUnsafeMutableBufferPointer { mosaic_jpeg_decode_dc(input.baseAddress, input.count, $0.baseAddress, 32, 8, 8, 200, &result) }
        }
        #expect(taken == 1 && result.status == MOSAIC_OK && result.warning_count == 0)
        #expect(try decoder.decode(dir + "/p.jpg", minimumSize: Size(width: 8, height: 8)).warning == nil)
    }

    /// A progressive JPEG whose DC scan is missing: libjpeg draws the AC scans on nothing
    /// ("Inconsistent progression sequence"), grey where the picture was: lost data, an
    /// error under --strict, at full size and at 1/8 (where the DC-only reader took the
    /// AC scans' absence of DC for zero and said nothing).
    @Test(arguments: [nil, Size(width: 8, height: 8), Size(width: 16, height: 16)])
    func strictRefusesAProgressiveJPEGWithoutItsDCScan(minimumSize: Size?) throws {
        let dir = Fixtures.directory()
        var pixels: [UInt8] = []
        for y in 0..<64 { for x in 0..<64 { pixels += [UInt8(x * 4), UInt8(y * 4), UInt8((x ^ y) & 0xFF)] } }
        Fixtures.writeJPEG(dir + "/p.jpg", pixels: pixels, width: 64, height: 64, components: 3, progressive: true)
        let jpeg = try [UInt8](Data(contentsOf: URL(fileURLWithPath: dir + "/p.jpg")))
        // libjpeg's standard script starts with the DC scan of every component: drop it.
        let firstSOS = try #require((0..<(jpeg.count - 1)).first { jpeg[$0] == 0xFF && jpeg[$0 + 1] == 0xDA })
        let end = Self.scanEnd(jpeg, from: firstSOS + 2)
        let path = dir + "/no-dc.jpg"
        try Data(Array(jpeg[..<firstSOS]) + Array(jpeg[end...])).write(to: URL(fileURLWithPath: path))
        let lenient = try decoder.decode(path, minimumSize: minimumSize)
        let message = try #require(lenient.warning?.message)
        #expect(message.hasPrefix("Inconsistent progression sequence for component 0 coefficient"))
        #expect(lenient.warning?.isDataLoss == true)
        var strict = decoder
        strict.strict = true
        #expect(throws: ImageDecodingError.damaged(path: path, message: message)) {
            try strict.decode(path, minimumSize: minimumSize)
        }
    }

    /// A progressive JPEG with a scan repeated past the cap is refused, quickly.
    @Test func tooManyScansAreRefused() throws {
        let dir = Fixtures.directory()
        var pixels: [UInt8] = []
        for y in 0..<64 { for x in 0..<64 { pixels += [UInt8(x * 4), UInt8(y * 4), UInt8((x ^ y) & 0xFF)] } }
        Fixtures.writeJPEG(dir + "/p.jpg", pixels: pixels, width: 64, height: 64, components: 3, progressive: true)
        let jpeg = try [UInt8](Data(contentsOf: URL(fileURLWithPath: dir + "/p.jpg")))
        // The last scan (from its SOS marker to the end marker), repeated 300 times.
        let lastScan = try #require((0..<(jpeg.count - 1)).last { jpeg[$0] == 0xFF && jpeg[$0 + 1] == 0xDA })
        let scan = Array(jpeg[lastScan..<(jpeg.count - 2)])
        var hostile = Array(jpeg.dropLast(2))
        for _ in 0..<300 { hostile += scan }
        hostile += [0xFF, 0xD9]
        try Data(hostile).write(to: URL(fileURLWithPath: dir + "/hostile.jpg"))
        #expect(throws: ImageDecodingError.codec(path: dir + "/hostile.jpg", format: .jpeg, message: "more than 200 scans: refused as a hostile or broken progressive file")) {
            try decoder.decode(dir + "/hostile.jpg")
        }
        var generous = decoder
        generous.limits.maximumScans = 10_000
        #expect(try generous.decode(dir + "/hostile.jpg").bitmap.width == 64)
    }

    /// A progressive decode holds the whole image's coefficients: the probe says how many
    /// bytes, the decode budget counts them, and a memory cap refuses what is beyond it.
    @Test func progressiveCoefficientsAreCountedAndCapped() throws {
        let dir = Fixtures.directory()
        let pixels = [UInt8](repeating: 90, count: 800 * 600 * 3)
        Fixtures.writeJPEG(dir + "/p.jpg", pixels: pixels, width: 800, height: 600, components: 3, progressive: true)
        Fixtures.writeJPEG(dir + "/b.jpg", pixels: pixels, width: 800, height: 600, components: 3)
        let progressive = try decoder.probe(dir + "/p.jpg")
        // 4:2:0: 100x75 luma blocks, 2 x 50x38 chroma blocks (padded to whole MCUs), 128 bytes each.
        #expect(progressive.decodeMemory == (100 * 76 + 2 * 50 * 38) * 128)
        #expect(try decoder.probe(dir + "/b.jpg").decodeMemory == 0)
        // At 1/8 only the DC coefficients are read (nothing held); at 2/8 libjpeg holds them all.
        #expect(decoder.decodedBytes(progressive, minimumSize: Size(width: 100, height: 75)) == 100 * 75 * 4 + progressive.decodeMemory / 64)
        let minimum = Size(width: 200, height: 150)
        #expect(decoder.decodedBytes(progressive, minimumSize: minimum) == 200 * 150 * 4 + progressive.decodeMemory)
        var capped = decoder
        capped.limits.maximumDecodeMemory = 1 << 20
        #expect(throws: ImageDecodingError.codec(path: dir + "/p.jpg", format: .jpeg, message: "decoding needs more than the memory limit of 1 MB")) {
            try capped.decode(dir + "/p.jpg", minimumSize: minimum)
        }
        #expect(try capped.decode(dir + "/b.jpg", minimumSize: minimum).bitmap.width == 200)
        #expect(try capped.decode(dir + "/p.jpg", minimumSize: Size(width: 100, height: 75)).bitmap.width == 100)
    }

    /// A palette index one past the palette's end (libpng 1.6.39 misses exactly that one)
    /// is damage: a warning, and an error under --strict.
    @Test func aPaletteIndexPastThePaletteIsDamage() throws {
        let dir = Fixtures.directory()
        func palettePNG(index: UInt8) -> [UInt8] {
            var png: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]
            png += RawPNG.chunk("IHDR", RawPNG.u32(2) + RawPNG.u32(1) + [8, 3, 0, 0, 0])
            png += RawPNG.chunk("PLTE", [255, 0, 0, 0, 0, 255])  // two entries
            png += RawPNG.chunk("IDAT", RawPNG.zlib([0, 0, index]))
            return png + RawPNG.chunk("IEND", [])
        }
        try Data(palettePNG(index: 1)).write(to: URL(fileURLWithPath: dir + "/good.png"))
        try Data(palettePNG(index: 2)).write(to: URL(fileURLWithPath: dir + "/past.png"))
        let good = try decoder.decode(dir + "/good.png")
        #expect(good.warning == nil && good.bitmap[1, 0] == RGBA(red: 0, green: 0, blue: 255))
        let past = try decoder.decode(dir + "/past.png")
        #expect(past.warning?.message == "palette index 2 past the palette's 2 entries")
        #expect(past.warning?.isDataLoss == true)
        #expect(throws: ImageDecodingError.damaged(path: dir + "/past.png", message: "palette index 2 past the palette's 2 entries")) {
            try ImageDecoder(strict: true).decode(dir + "/past.png")
        }
    }

    /// At 1/8 a progressive JPEG is read from its DC coefficients alone: grey comes out as
    /// libjpeg gives the same data sequentially, colour within a few levels (libjpeg sets
    /// subsampled chroma with a 2x2 IDCT), and the coefficients are not held.
    @Test func progressiveAtAnEighthFromDCAlone() throws {
        let dir = Fixtures.directory()
        var grey: [UInt8] = [], colour: [UInt8] = []
        for y in 0..<203 {
            for x in 0..<317 {
                let v = UInt8((x * 3 + y * 5 + (x * y) % 17) & 0xFF)
                grey.append(v)
                colour += [UInt8(x * 255 / 316), UInt8(y * 255 / 202), UInt8((x + y) * 255 / 518)]
            }
        }
        for (name, pixels, components) in [("grey", grey, 1), ("colour", colour, 3)] {
            Fixtures.writeJPEG(dir + "/\(name)-s.jpg", pixels: pixels, width: 317, height: 203, components: components, quality: 85)
            Fixtures.writeJPEG(dir + "/\(name)-p.jpg", pixels: pixels, width: 317, height: 203, components: components, quality: 85, progressive: true)
            let minimum = Size(width: 40, height: 26)
            let sequential = try decoder.decode(dir + "/\(name)-s.jpg", minimumSize: minimum)
            let progressive = try decoder.decode(dir + "/\(name)-p.jpg", minimumSize: minimum)
            #expect(progressive.scaleEighths == 1 && progressive.bitmap.width == 40 && progressive.bitmap.height == 26)
            var worst = 0
            for y in 0..<26 {
                for x in 0..<40 {
                    let a = sequential.bitmap[x, y], b = progressive.bitmap[x, y]
                    worst = max(worst, abs(Int(a.red) - Int(b.red)), abs(Int(a.green) - Int(b.green)), abs(Int(a.blue) - Int(b.blue)))
                }
            }
            #expect(worst <= (components == 1 ? 0 : 6), "\(name): \(worst) levels")
        }
        // Cut short: what was decoded stands, with libjpeg's warning.
        let jpeg = try [UInt8](Data(contentsOf: URL(fileURLWithPath: dir + "/colour-p.jpg")))
        try Data(jpeg.prefix(jpeg.count / 2)).write(to: URL(fileURLWithPath: dir + "/cut.jpg"))
        let cut = try decoder.decode(dir + "/cut.jpg", minimumSize: Size(width: 40, height: 26))
        #expect(cut.warning?.message == "Premature end of JPEG file" && cut.warning?.isDataLoss == true)
    }
}
