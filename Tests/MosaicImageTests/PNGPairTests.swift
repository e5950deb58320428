import CMosaicShims
import Foundation
import MosaicLayout
import Testing

@testable import MosaicImage

/// A diff's two PNGs read together (`mosaic_png_decode_pair`): the second's rows whose
/// filtered bytes are the first's, below a row that is the same, are copied from the first.
/// Whatever the pair, each image, warning and error must be what decoding it alone gives
/// (`mosaic_png_decode`, libpng's whole read), and the copies must happen where they can.
@Suite struct PNGPairTests {
    typealias Outcome = PNGStreamTests.Outcome

    /// The pair read together: the first file's outcome, the second's (nil when the first
    /// failed and the second was left unread), and the rows copied.
    static func together(_ a: [UInt8], _ b: [UInt8], width: Int, height: Int) -> (Outcome, Outcome?, copied: Int) {
        var outA = [UInt8](repeating: 0, count: width * height * 4), outB = outA
        var resultA = mosaic_result(), resultB = mosaic_result()
        var copied: Int32 = -1
        let secondRead = a.withUnsafeBufferPointer { a in
            b.withUnsafeBufferPointer { b in
                outA.withUnsafeMutableBufferPointer { oa in
                    outB.withUnsafeMutableBufferPointer { ob in
                        mosaic_png_decode_pair(
                            a.baseAddress, a.count, oa.baseAddress, &resultA, b.baseAddress, b.count, ob.baseAddress, &resultB,
                            width * 4, Int32(width), Int32(height), &copied)
                    }
                }
            }
        }
        return (Outcome(resultA, rows: outA), secondRead == 1 ? Outcome(resultB, rows: outB) : nil, Int(copied))
    }

    /// Reads the pair together and expects each outcome (rows, warnings, errors) as the
    /// file decoded alone gives it, and the second left unread only when the first
    /// failed; returns the rows copied.
    @discardableResult
    static func expectSame(_ a: [UInt8], _ b: [UInt8], width: Int, height: Int, _ what: String, sourceLocation: SourceLocation = #_sourceLocation) -> Int {
        let aloneA = PNGStreamTests.streamedWhole(a, width: width, height: height), aloneB = PNGStreamTests.streamedWhole(b, width: width, height: height)
        let (gotA, gotB, copied) = together(a, b, width: width, height: height)
        #expect(gotA == aloneA, "\(what), first: \(gotA) against \(aloneA)", sourceLocation: sourceLocation)
        if let gotB {
            #expect(gotB == aloneB, "\(what), second: \(gotB) against \(aloneB)", sourceLocation: sourceLocation)
        } else {
            #expect(aloneA.status != MOSAIC_OK.rawValue, "\(what): the second left unread though the first decoded", sourceLocation: sourceLocation)
        }
        return copied
    }

    static func png(_ samples: [UInt8], width: Int, height: Int, _ options: Fixtures.PNG, _ name: String = UUID().uuidString) -> [UInt8] {
        let path = Fixtures.directory("PNGPairTests") + "/" + name + ".png"
        Fixtures.writePNG(path, width: width, height: height, rows: samples, options)
        return Fixtures.bytes(path)
    }

    /// `samples` with every sample of the given rows moved by `delta`.
    static func edited(_ samples: [UInt8], rows: [Int], width: Int, channels: Int, delta: Int = 77) -> [UInt8] {
        var out = samples
        let stride = width * channels
        for y in rows {
            for i in (y * stride)..<((y + 1) * stride) { out[i] = UInt8(truncatingIfNeeded: Int(out[i]) + delta) }
        }
        return out
    }

    @Test(arguments: [0, 2, 4, 6])
    func everyFilterGivesEachImageAsAlone(colorType: Int) {
        let channels = [0: 1, 2: 3, 4: 2, 6: 4][colorType]!
        let (width, height) = (45, 70)
        let base = PNGStreamTests.samples(width: width, height: height, channels: channels, seed: UInt64(colorType + 1))
        // Edits on a step's first and last rows, across two steps, at the very top and bottom.
        let changed = [0, 15, 16, 17, 31, 32, 33, 50, 69]
        let current = Self.edited(base, rows: changed, width: width, channels: channels)
        for filters in [0x08, 0x10, 0x20, 0x40, 0x80, 0xF8] {
            let options = Fixtures.PNG(colorType: colorType, filters: filters)
            let a = Self.png(base, width: width, height: height, options), b = Self.png(current, width: width, height: height, options)
            let copied = Self.expectSame(a, b, width: width, height: height, "type \(colorType) filters \(filters)")
            // Each edited row differs, and so (with a filter looking up) does the row below it.
            #expect(copied >= height - 2 * changed.count && copied <= height - changed.count, "type \(colorType) filters \(filters): \(copied) rows copied")
            let same = Self.expectSame(a, Self.png(base, width: width, height: height, options), width: width, height: height, "type \(colorType) filters \(filters), equal")
            #expect(same == height)
        }
    }

    /// Rows whose filtered bytes are equal but whose rows above differ (two rows moved by
    /// the same amount, filtered Up: the second's differences are the same) are decoded,
    /// not copied.
    @Test func equalFilteredBytesBelowAChangedRowAreNotCopied() {
        let (width, height) = (33, 40)
        let base = PNGStreamTests.samples(width: width, height: height, channels: 3, seed: 9)
        let current = Self.edited(base, rows: Array(10..<20), width: width, channels: 3)
        for filters in [0x20, 0x40, 0x80] {
            let options = Fixtures.PNG(colorType: 2, filters: filters)
            let copied = Self.expectSame(Self.png(base, width: width, height: height, options), Self.png(current, width: width, height: height, options),
                                         width: width, height: height, "filters \(filters)")
            #expect(copied <= height - 11, "filters \(filters): \(copied)")
        }
        // Sub looks only left: a moved row's neighbours below it are copied.
        let options = Fixtures.PNG(colorType: 2, filters: 0x10)
        let copied = Self.expectSame(Self.png(base, width: width, height: height, options), Self.png(current, width: width, height: height, options),
                                     width: width, height: height, "Sub")
        #expect(copied == height - 10)
    }

    /// The same pixels written differently (another zlib level, another filter choice)
    /// and two different colour types: each image is still its own.
    @Test func filesThatDifferInTheirBytes() {
        let (width, height) = (64, 50)
        let base = PNGStreamTests.samples(width: width, height: height, channels: 3, seed: 4)
        let a = Self.png(base, width: width, height: height, .init(colorType: 2, filters: 0xF8))
        #expect(Self.expectSame(a, Self.png(base, width: width, height: height, .init(colorType: 2, filters: 0xF8, compressionLevel: 1)), width: width, height: height, "level 1") == height)
        #expect(Self.expectSame(a, Self.png(base, width: width, height: height, .init(colorType: 2, filters: 0x20)), width: width, height: height, "Up only") < height)
        var rgba: [UInt8] = []
        for i in stride(from: 0, to: base.count, by: 3) { rgba += base[i..<(i + 3)] + [255] }
        #expect(Self.expectSame(a, Self.png(rgba, width: width, height: height, .init(colorType: 6)), width: width, height: height, "RGB against RGBA") == 0)
        // A palette PNG is libpng's to read: the pair is read one after the other.
        var palette: [UInt8] = []
        for i in 0..<256 { palette += [UInt8(i), UInt8(255 - i), UInt8(i / 2)] }
        let indices: [UInt8] = (0..<(width * height)).map { UInt8(truncatingIfNeeded: $0 * 7) }
        let indexed = Self.png(indices, width: width, height: height, .init(colorType: 3, palette: palette))
        #expect(Self.expectSame(indexed, indexed, width: width, height: height, "palette") == 0)
        #expect(Self.expectSame(a, indexed, width: width, height: height, "RGB against palette") == 0)
    }

    /// Damage in either file is that file's own error (the first's first, the second then
    /// left unread), and damage libpng only warns about that file's own warning.
    @Test func damageIsEachFilesOwn() throws {
        let (width, height) = (40, 64)
        let base = PNGStreamTests.samples(width: width, height: height, channels: 4, seed: 5)
        let good = Self.png(base, width: width, height: height, .init(colorType: 6, filters: 0xF8))
        let chunks = PNGStreamTests.chunks(good)
        // Image data in many chunks, one CRC broken half-way.
        var damaged = PNGStreamTests.assemble(chunks, idatSizes: [500])
        var at = 8, seen = 0
        while at + 12 <= damaged.count {
            let length = Int(damaged[at]) << 24 | Int(damaged[at + 1]) << 16 | Int(damaged[at + 2]) << 8 | Int(damaged[at + 3])
            if String(decoding: damaged[(at + 4)..<(at + 8)], as: UTF8.self) == "IDAT" {
                seen += 1
                if seen == 3 { damaged[at + 8 + length / 2] ^= 0x55 }
            }
            at += 12 + length
        }
        #expect(seen > 4)
        #expect(PNGStreamTests.streamedWhole(damaged, width: width, height: height).status != MOSAIC_OK.rawValue)
        // Each file's own error, the first's first; a failed first leaves the second unread.
        Self.expectSame(good, damaged, width: width, height: height, "second damaged")
        Self.expectSame(damaged, good, width: width, height: height, "first damaged")
        Self.expectSame(damaged, damaged, width: width, height: height, "both damaged")
        #expect(Self.together(damaged, good, width: width, height: height).1 == nil)
        let cut = Array(good.prefix(good.count / 2))
        Self.expectSame(good, cut, width: width, height: height, "second cut short")
        Self.expectSame(cut, good, width: width, height: height, "first cut short")
        Self.expectSame(good, Array(good.prefix(40)), width: width, height: height, "second cut in its headers")
        // A bad CRC in the last IDAT: the fast path gives way to libpng at the end.
        var lastBad = good
        lastBad[lastBad.count - 12 - 5] ^= 0x01  // the last data byte before IDAT's CRC and IEND
        Self.expectSame(good, lastBad, width: width, height: height, "second's last CRC")
        Self.expectSame(good + [1, 2, 3], good, width: width, height: height, "bytes after IEND")
        Self.expectSame(good, Array(good.dropLast(12)), width: width, height: height, "no IEND")
        Self.expectSame(PNGStreamTests.assemble(chunks, idatSizes: [1]), good, width: width, height: height, "one-byte IDATs")
    }

    /// Through the codec: refused for pairs it cannot read together, and the same bitmaps
    /// and warnings as two decodes; through the decoder, the first file's error first.
    @Test func theDecoderGivesWhatTwoDecodesGive() throws {
        let (width, height) = (37, 29)
        let base = PNGStreamTests.samples(width: width, height: height, channels: 3, seed: 11)
        let a = Self.png(base, width: width, height: height, .init(colorType: 2))
        let b = Self.png(Self.edited(base, rows: [3], width: width, channels: 3), width: width, height: height, .init(colorType: 2))
        var decoder = ImageDecoder()
        decoder.premultiplyAlpha = false
        let pair = try decoder.decodePair((a, "a.png"), (b, "b.png"))
        #expect(pair.0.bitmap == (try decoder.decode(bytes: a, path: "a.png")).bitmap)
        #expect(pair.1.bitmap == (try decoder.decode(bytes: b, path: "b.png")).bitmap)
        let codec = PNGCodec()
        func input(_ bytes: [UInt8]) throws -> DecodeInput {
            let info = try #require(try codec.probe(bytes, isWholeFile: true, path: "x.png"))
            return DecodeInput(bytes: bytes, info: info, request: DecodeRequest(path: "x.png", minimumSize: nil, premultiplyAlpha: false, strict: false, limits: ImageLimits()))
        }
        var copied: Int32 = 0
        #expect(try codec.decodePair(try input(a), try input(b), copiedRows: &copied) != nil)
        #expect(copied == Int32(height - 2))
        let taller = Self.png(PNGStreamTests.samples(width: width, height: height + 1, channels: 3, seed: 11), width: width, height: height + 1, .init(colorType: 2))
        #expect(try codec.decodePair(try input(a), try input(taller)) == nil)
        let interlaced = Self.png(base, width: width, height: height, .init(colorType: 2, interlaced: true))
        #expect(try codec.decodePair(try input(a), try input(interlaced)) == nil)
        // By path: the first file damaged and the second missing: the first one's error.
        let dir = Fixtures.directory()
        #expect(FileManager.default.createFile(atPath: dir + "/cut.png", contents: Data(a.prefix(a.count - 40))))
        #expect(FileManager.default.createFile(atPath: dir + "/b.png", contents: Data(b)))
        do {
            _ = try decoder.decodePair(dir + "/cut.png", dir + "/missing.png")
            Issue.record("a damaged file decoded")
        } catch {
            #expect(error.path == dir + "/cut.png")
        }
        let byPath = try decoder.decodePair(dir + "/b.png", dir + "/b.png")
        #expect(byPath.0.bitmap == pair.1.bitmap && byPath.1.bitmap == pair.1.bitmap)
        // Both damaged: the first one's error, as when decoded one after the other.
        let cutA = Array(a.prefix(a.count - 40)), cutB = Array(b.prefix(b.count - 40))
        #expect {
            _ = try decoder.decodePair((cutA, "first.png"), (cutB, "second.png"))
        } throws: { error in
            (error as? ImageDecodingError)?.path == "first.png"
        }
    }
}
