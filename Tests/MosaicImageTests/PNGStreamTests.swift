import CMosaicShims
import Foundation
import MosaicImage
import Testing

/// The streaming PNG reader reads the image data of an 8-bit, non-interlaced PNG without
/// libpng (ISA-L's inflate, its own unfiltering); whatever it meets, its rows, errors and
/// warnings must be libpng's own: each case is compared with libpng decoding the whole
/// file (`mosaic_png_decode`).
@Suite struct PNGStreamTests {
    /// What a read gave: the status, the counts and the texts, and the rows when it worked.
    struct Outcome: Equatable, CustomStringConvertible {
        var status: UInt32
        var message: String
        var warning: String
        var damage: String
        var warnings: Int32
        var damages: Int32
        var rows: [UInt8]

        init(_ result: mosaic_result, rows: [UInt8]) {
            func text<T>(_ tuple: T) -> String {
                withUnsafeBytes(of: tuple) { String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self) }
            }
            status = result.status.rawValue
            message = text(result.message)
            warning = text(result.warning)
            damage = text(result.damage)
            warnings = result.warning_count
            damages = result.damage_count
            self.rows = result.status == MOSAIC_OK ? rows : []
        }

        var description: String {
            "status \(status) message '\(message)' warning '\(warning)' (\(warnings)) damage '\(damage)' (\(damages)) \(rows.count) bytes"
        }
    }

    /// libpng decoding the whole file.
    static func whole(_ bytes: [UInt8], width: Int, height: Int) -> Outcome {
        var out = [UInt8](repeating: 0, count: width * height * 4)
        let result = bytes.withUnsafeBufferPointer { input in
            out.withUnsafeMutableBufferPointer { mosaic_png_decode(input.baseAddress, input.count, $0.baseAddress, width * 4, Int32(width), Int32(height)) }
        }
        return Outcome(result, rows: out)
    }

    /// The stream over the whole image in one call (`mosaic_png_decode_streamed`: what the
    /// codec decodes a file with).
    static func streamedWhole(_ bytes: [UInt8], width: Int, height: Int) -> Outcome {
        var out = [UInt8](repeating: 0, count: width * height * 4)
        let result = bytes.withUnsafeBufferPointer { input in
            out.withUnsafeMutableBufferPointer { mosaic_png_decode_streamed(input.baseAddress, input.count, $0.baseAddress, width * 4, Int32(width), Int32(height)) }
        }
        return Outcome(result, rows: out)
    }

    /// The stream, in bands of `band` rows (the last one shorter).
    static func streamed(_ bytes: [UInt8], width: Int, height: Int, band: Int = 3, itself: UnsafeMutablePointer<Bool>? = nil) -> Outcome {
        var out = [UInt8](repeating: 0, count: width * height * 4)
        return bytes.withUnsafeBufferPointer { input in
            var opened = mosaic_result()
            guard let stream = mosaic_png_stream_open(input.baseAddress, input.count, Int32(width), Int32(height), &opened) else {
                return Outcome(opened, rows: [])
            }
            itself?.pointee = mosaic_png_stream_reads_itself(stream) != 0
            var y = 0
            while y < height {
                let count = min(band, height - y)
                let status = out.withUnsafeMutableBufferPointer { mosaic_png_stream_read(stream, $0.baseAddress! + y * width * 4, width * 4, Int32(count)) }
                if status.status != MOSAIC_OK {
                    _ = mosaic_png_stream_close(stream)
                    return Outcome(status, rows: [])
                }
                y += count
            }
            return Outcome(mosaic_png_stream_close(stream), rows: out)
        }
    }

    /// The stream gives what libpng gives; `itself`: whether the stream starts on its own
    /// reader (nil: either).
    static func expectSame(_ bytes: [UInt8], width: Int, height: Int, _ what: String, itself: Bool? = true, sourceLocation: SourceLocation = #_sourceLocation) {
        let reference = whole(bytes, width: width, height: height)
        let inOneCall = Self.streamedWhole(bytes, width: width, height: height)
        #expect(inOneCall == reference, "\(what), whole: \(inOneCall)", sourceLocation: sourceLocation)
        for band in [1, 4, height] {
            var started = false
            let got = streamed(bytes, width: width, height: height, band: band, itself: &started)
            #expect(got == reference, "\(what), bands of \(band): \(got) against libpng's \(reference)", sourceLocation: sourceLocation)
            if let itself { #expect(started == itself, "\(what): read by \(started ? "the stream" : "libpng")", sourceLocation: sourceLocation) }
        }
    }

    /// Noise over a gradient, `channels` samples a pixel: every filter has work to do.
    static func samples(width: Int, height: Int, channels: Int, seed: UInt64) -> [UInt8] {
        var state = seed &* 0x9E37_79B9_7F4A_7C15 | 1
        var out: [UInt8] = []
        out.reserveCapacity(width * height * channels)
        for y in 0..<height {
            for x in 0..<width {
                for c in 0..<channels {
                    state ^= state << 13
                    state ^= state >> 7
                    state ^= state << 17
                    let smooth = (x * 7 + y * 3 + c * 50) & 0xFF
                    // Runs of ties (equal neighbours) as well as noise.
                    out.append(state % 3 == 0 ? UInt8(smooth) : UInt8(truncatingIfNeeded: smooth + Int(state >> 60)))
                }
            }
        }
        return out
    }

    /// The file's chunks as (type, data).
    static func chunks(_ bytes: [UInt8]) -> [(String, [UInt8])] {
        var out: [(String, [UInt8])] = []
        var at = 8
        while at + 12 <= bytes.count {
            let length = Int(bytes[at]) << 24 | Int(bytes[at + 1]) << 16 | Int(bytes[at + 2]) << 8 | Int(bytes[at + 3])
            out.append((String(decoding: bytes[(at + 4)..<(at + 8)], as: UTF8.self), Array(bytes[(at + 8)..<(at + 8 + length)])))
            at += 12 + length
        }
        return out
    }

    /// A PNG from chunks, the image data cut into IDATs of the given sizes (the last
    /// size repeated).
    static func assemble(_ chunks: [(String, [UInt8])], idatSizes: [Int]? = nil, afterData: [(String, [UInt8])] = []) -> [UInt8] {
        var out = Fixtures.pngSignature
        let data = chunks.filter { $0.0 == "IDAT" }.flatMap { $0.1 }
        var wroteData = false
        for (type, body) in chunks {
            if type == "IDAT" {
                if wroteData { continue }
                wroteData = true
                var at = 0, i = 0
                let sizes = idatSizes ?? [data.count]
                while at < data.count {
                    let size = min(sizes[min(i, sizes.count - 1)], data.count - at)
                    out += Fixtures.chunk("IDAT", Array(data[at..<(at + size)]))
                    at += size
                    i += 1
                }
                for (t, b) in afterData { out += Fixtures.chunk(t, b) }
            } else {
                out += Fixtures.chunk(type, body)
            }
        }
        return out
    }

    @Test(arguments: [0, 2, 4, 6])
    func everyFilterAndWidthGivesLibpngsRows(colorType: Int) throws {
        let dir = Fixtures.directory()
        let channels = [0: 1, 2: 3, 4: 2, 6: 4][colorType]!
        // libpng's PNG_FILTER_NONE, SUB, UP, AVG, PAETH, then all (its choice per row).
        for filters in [0x08, 0x10, 0x20, 0x40, 0x80, 0xF8] {
            for width in [1, 2, 3, 5, 37, 64] {
                let height = 9
                let path = "\(dir)/\(colorType)-\(filters)-\(width).png"
                Fixtures.writePNG(path, width: width, height: height, rows: Self.samples(width: width, height: height, channels: channels, seed: UInt64(width * filters)),
                                  .init(colorType: colorType, filters: filters))
                Self.expectSame(Fixtures.bytes(path), width: width, height: height, "type \(colorType) filters \(filters) width \(width)")
            }
        }
    }

    @Test func imageDataInManyChunks() throws {
        let dir = Fixtures.directory()
        let (width, height) = (61, 40)
        Fixtures.writePNG(dir + "/a.png", width: width, height: height, rows: Self.samples(width: width, height: height, channels: 3, seed: 7), .init(colorType: 2, filters: 0xF8))
        let chunks = Self.chunks(Fixtures.bytes(dir + "/a.png"))
        // Chunks of one byte (the zlib header split: libpng reads that file), two, odd
        // sizes, an empty IDAT among them.
        for sizes in [[1], [2], [2, 1], [3, 7, 0, 5], [1000], [100_000]] {
            Self.expectSame(Self.assemble(chunks, idatSizes: sizes), width: width, height: height, "IDATs of \(sizes)", itself: sizes != [1])
        }
    }

    @Test func whatFollowsTheImageDataIsReadByLibpng() throws {
        let dir = Fixtures.directory()
        let (width, height) = (23, 11)
        Fixtures.writePNG(dir + "/a.png", width: width, height: height, rows: Self.samples(width: width, height: height, channels: 4, seed: 3), .init(colorType: 6))
        let good = Fixtures.bytes(dir + "/a.png")
        let chunks = Self.chunks(good)
        let text = Array("Comment".utf8) + [0] + Array("after the pixels".utf8)
        // Text chunks after the image data (ImageMagick writes them there), a bad keyword,
        // an unknown ancillary chunk, an unknown critical one.
        Self.expectSame(Self.assemble(chunks, afterData: [("tEXt", text), ("tIME", [7, 234, 11, 24, 12, 0, 0])]), width: width, height: height, "text after")
        Self.expectSame(Self.assemble(chunks, afterData: [("tEXt", [0] + Array("no keyword".utf8))]), width: width, height: height, "bad keyword")
        Self.expectSame(Self.assemble(chunks, afterData: [("abCd", [1, 2, 3])]), width: width, height: height, "unknown ancillary")
        Self.expectSame(Self.assemble(chunks, afterData: [("ABCD", [1, 2, 3])]), width: width, height: height, "unknown critical")
        // A bad CRC after the data; no IEND; the file cut inside IEND; bytes after IEND.
        var badTail = Self.assemble(chunks, afterData: [("tEXt", text)])
        badTail[badTail.count - 13] ^= 0xFF
        Self.expectSame(badTail, width: width, height: height, "bad CRC on a later chunk")
        Self.expectSame(Array(good.dropLast(12)), width: width, height: height, "no IEND")
        Self.expectSame(Array(good.dropLast(3)), width: width, height: height, "IEND cut")
        Self.expectSame(good + [1, 2, 3], width: width, height: height, "bytes after IEND")
        // An IDAT after the stream ended.
        Self.expectSame(Self.assemble(chunks, afterData: [("IDAT", [0x78, 0x01, 0x03, 0x00])]), width: width, height: height, "an IDAT too many")
    }

    @Test func damagedImageDataFailsAsLibpngFails() throws {
        let dir = Fixtures.directory()
        let (width, height) = (50, 60)
        Fixtures.writePNG(dir + "/a.png", width: width, height: height, rows: Self.samples(width: width, height: height, channels: 3, seed: 11), .init(colorType: 2))
        let chunks = Self.chunks(Fixtures.bytes(dir + "/a.png"))
        let split = Self.assemble(chunks, idatSizes: [1500])
        let data = chunks.filter { $0.0 == "IDAT" }.flatMap { $0.1 }
        // A wrong CRC on the third IDAT (rows already given when it is met).
        var crc = split
        let third = 8 + 25 + 2 * (1500 + 12)
        crc[third + 12 + 1499] ^= 0x01
        Self.expectSame(crc, width: width, height: height, "bad CRC in the third IDAT")
        // The deflate data damaged (CRC made right again), in several places.
        for at in [2, 40, data.count / 2, data.count - 6] {
            var bad = data
            bad[at] ^= 0x5A
            Self.expectSame(Self.assemble(chunks.map { $0.0 == "IDAT" ? ("IDAT", bad) : $0 }), width: width, height: height, "deflate damaged at \(at)")
        }
        // The Adler-32 wrong; the stream cut short; bytes after the stream in the IDAT.
        var adler = data
        adler[adler.count - 1] ^= 0x01
        Self.expectSame(Self.assemble(chunks.map { $0.0 == "IDAT" ? ("IDAT", adler) : $0 }), width: width, height: height, "bad Adler-32")
        Self.expectSame(Self.assemble(chunks.map { $0.0 == "IDAT" ? ("IDAT", Array(data.prefix(data.count / 2))) : $0 }), width: width, height: height, "stream cut")
        Self.expectSame(Self.assemble(chunks.map { $0.0 == "IDAT" ? ("IDAT", data + [0, 0, 0]) : $0 }), width: width, height: height, "bytes after the stream")
        // The file cut in the middle of the image data.
        Self.expectSame(Array(split.prefix(split.count / 2)), width: width, height: height, "file cut")
        // A zlib header with a small window (libpng lets zlib hold the stream to it).
        var small = data
        small[0] = 0x58
        small[1] = UInt8((31 - (0x5800 % 31)) % 31)
        Self.expectSame(Self.assemble(chunks.map { $0.0 == "IDAT" ? ("IDAT", small) : $0 }), width: width, height: height, "a 8 KiB window")
    }

    @Test func aFilterTypePastFourIsLibpngsError() throws {
        // Stored deflate of two rows of a 2x2 grey image, the second with filter type 5.
        let raw: [UInt8] = [0, 10, 20, 5, 1, 2]
        var a = 1, b = 0
        for byte in raw {
            a = (a + Int(byte)) % 65521
            b = (b + a) % 65521
        }
        let stream: [UInt8] = [0x78, 0x01, 0x01, UInt8(raw.count), 0, ~UInt8(raw.count), 0xFF] + raw + Fixtures.be32(UInt32(b << 16 | a))
        let ihdr = Fixtures.be32(2) + Fixtures.be32(2) + [8, 0, 0, 0, 0]
        let bytes = Fixtures.pngSignature + Fixtures.chunk("IHDR", ihdr) + Fixtures.chunk("IDAT", stream) + Fixtures.chunk("IEND", [])
        Self.expectSame(bytes, width: 2, height: 2, "filter type 5")
        #expect(Self.whole(bytes, width: 2, height: 2).status != MOSAIC_OK.rawValue)
    }
}
