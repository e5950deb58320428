import Foundation
import MosaicImage
import MosaicLayout
import Testing

@Suite struct PNGDecodeTests {
    let decoder = ImageDecoder()

    /// "(and 1 more warning)", not "(and 1 more warnings)".
    @Test func warningCountsReadWell() {
        #expect(DecodingWarning(path: "a.jpg", message: "m", count: 1).description == "a.jpg: m")
        #expect(DecodingWarning(path: "a.jpg", message: "m", count: 2).description == "a.jpg: m (and 1 more warning)")
        #expect(DecodingWarning(path: "a.jpg", message: "m", count: 5).description == "a.jpg: m (and 4 more warnings)")
    }

    @Test func rgbaRoundTripIsExactAndPremultiplied() throws {
        let dir = Fixtures.directory()
        // Every alpha with a few colours: straight in the file, premultiplied in memory.
        var rows: [UInt8] = []
        for a in 0..<256 { rows += [200, UInt8(a), 13, UInt8(a)] }
        Fixtures.writePNG(dir + "/a.png", width: 16, height: 16, rows: rows, .init(colorType: 6))
        let bitmap = try decoder.decode(dir + "/a.png").bitmap
        for a in 0..<256 {
            let alpha = UInt8(a)
            #expect(bitmap[a % 16, a / 16] == RGBA(straightRed: 200, green: alpha, blue: 13, alpha: alpha))
        }
    }

    @Test(arguments: [1, 2, 4, 8, 16])
    func greyBitDepths(depth: Int) throws {
        let dir = Fixtures.directory()
        // 8 pixels per row, values stepping through the depth's range.
        let levels = (1 << depth) - 1
        var samples: [Int] = []
        for y in 0..<4 { for x in 0..<8 { samples.append((x + 8 * y) * levels / 31) } }
        var rows: [UInt8] = []
        for y in 0..<4 {
            let row = samples[(8 * y)..<(8 * y + 8)]
            switch depth {
            case 16: for v in row { rows += [UInt8(v >> 8), UInt8(v & 0xFF)] }
            case 8: for v in row { rows.append(UInt8(v)) }
            default:
                var byte = 0, bits = 0
                for v in row {
                    byte = (byte << depth) | v
                    bits += depth
                    if bits == 8 { rows.append(UInt8(byte)); byte = 0; bits = 0 }
                }
                if bits > 0 { rows.append(UInt8(byte << (8 - bits))) }
            }
        }
        Fixtures.writePNG(dir + "/g.png", width: 8, height: 4, rows: rows, .init(colorType: 0, bitDepth: depth))
        let bitmap = try decoder.decode(dir + "/g.png").bitmap
        for (i, v) in samples.enumerated() {
            // Scaled to 8 bits: exact for 1 to 8 bits, rounded for 16.
            let expected = UInt8((Double(v) * 255 / Double(levels)).rounded())
            let pixel = bitmap[i % 8, i / 8]
            #expect(abs(Int(pixel.red) - Int(expected)) <= (depth == 16 ? 1 : 0), "depth \(depth) sample \(i)")
            #expect(pixel.red == pixel.green && pixel.green == pixel.blue && pixel.alpha == 255)
        }
    }

    @Test func sixteenBitRGBAIsScaled() throws {
        let dir = Fixtures.directory()
        let rows: [UInt8] = [0xFF, 0xFF, 0x80, 0x80, 0x00, 0x00, 0xFF, 0xFF]  // one pixel
        Fixtures.writePNG(dir + "/16.png", width: 1, height: 1, rows: rows, .init(colorType: 6, bitDepth: 16))
        #expect(try decoder.decode(dir + "/16.png").bitmap[0, 0] == RGBA(red: 255, green: 128, blue: 0, alpha: 255))
    }

    @Test func paletteWithTransparency() throws {
        let dir = Fixtures.directory()
        let palette: [UInt8] = [255, 0, 0, 0, 255, 0, 0, 0, 255]
        Fixtures.writePNG(dir + "/p.png", width: 3, height: 1, rows: [0, 1, 2], .init(colorType: 3, palette: palette, trns: [255, 128, 0]))
        let bitmap = try decoder.decode(dir + "/p.png").bitmap
        #expect(bitmap[0, 0] == RGBA(red: 255, green: 0, blue: 0, alpha: 255))
        #expect(bitmap[1, 0] == RGBA(straightRed: 0, green: 255, blue: 0, alpha: 128))
        #expect(bitmap[2, 0] == .transparent)
    }

    @Test func greyAlphaAndColourKey() throws {
        let dir = Fixtures.directory()
        Fixtures.writePNG(dir + "/ga.png", width: 2, height: 1, rows: [100, 255, 100, 51], .init(colorType: 4))
        let ga = try decoder.decode(dir + "/ga.png").bitmap
        #expect(ga[0, 0] == RGBA(red: 100, green: 100, blue: 100, alpha: 255))
        #expect(ga[1, 0] == RGBA(straightRed: 100, green: 100, blue: 100, alpha: 51))
        Fixtures.writePNG(dir + "/key.png", width: 2, height: 1, rows: [1, 2, 3, 4, 5, 6], .init(colorType: 2, trnsColor: (0, 4, 5, 6)))
        let key = try decoder.decode(dir + "/key.png").bitmap
        #expect(key[0, 0] == RGBA(red: 1, green: 2, blue: 3, alpha: 255))
        #expect(key[1, 0] == .transparent)
    }

    @Test func interlacedEqualsNonInterlaced() throws {
        let dir = Fixtures.directory()
        let (w, h) = (37, 23)
        let rgb = Fixtures.picture(width: w, height: h)
        Fixtures.writePNG(dir + "/plain.png", width: w, height: h, rows: rgb, .init(colorType: 2))
        Fixtures.writePNG(dir + "/adam7.png", width: w, height: h, rows: rgb, .init(colorType: 2, interlaced: true))
        let plain = try decoder.decode(dir + "/plain.png").bitmap
        #expect(plain.pixels == Fixtures.rgba(fromRGB: rgb))
        #expect(try decoder.decode(dir + "/adam7.png").bitmap == plain)
    }

    @Test func corruptPNGs() throws {
        let dir = Fixtures.directory()
        Fixtures.writePNG(dir + "/a.png", width: 8, height: 8, rows: [UInt8](repeating: 100, count: 192), .init(colorType: 2))
        let good = Fixtures.bytes(dir + "/a.png")
        var badCRC = good
        badCRC[29] ^= 0xFF
        Fixtures.write(badCRC, to: dir + "/crc.png")
        #expect(throws: ImageDecodingError.codec(path: dir + "/crc.png", format: .png, message: "IHDR: CRC error")) { try decoder.decode(dir + "/crc.png") }
        #expect(throws: ImageDecodingError.codec(path: dir + "/crc.png", format: .png, message: "IHDR: CRC error")) { try decoder.probe(dir + "/crc.png") }
        Fixtures.write(Array(good.prefix(good.count - 20)), to: dir + "/cut.png")
        #expect(throws: ImageDecodingError.codec(path: dir + "/cut.png", format: .png, message: "the file ends early")) { try decoder.decode(dir + "/cut.png") }
        Fixtures.write(Array(good.prefix(8)), to: dir + "/signature-only.png")
        #expect(throws: ImageDecodingError.codec(path: dir + "/signature-only.png", format: .png, message: "the file ends early")) {
            try decoder.probe(dir + "/signature-only.png")
        }
        // Every row there, IEND missing: decoded, with a warning (an error when strict).
        Fixtures.write(Array(good.prefix(good.count - 12)), to: dir + "/no-end.png")
        let decoded = try decoder.decode(dir + "/no-end.png")
        #expect(decoded.warning?.message == "after the image data: the file ends early")
        #expect(decoded.bitmap[7, 7] == RGBA(red: 100, green: 100, blue: 100))
        #expect(throws: ImageDecodingError.damaged(path: dir + "/no-end.png", message: "after the image data: the file ends early")) {
            try ImageDecoder(strict: true).decode(dir + "/no-end.png")
        }
    }

    /// The limit is checked from the header alone: this file claims 20000 x 20000 but holds
    /// no image data; decoding it would need 1.6 GB.
    @Test func limitsBeforeAllocation() throws {
        let dir = Fixtures.directory()
        let ihdr = Fixtures.be32(20000) + Fixtures.be32(20000) + [8, 2, 0, 0, 0]
        let bytes = Fixtures.pngSignature + Fixtures.chunk("IHDR", ihdr) + Fixtures.chunk("IDAT", [0x78, 0x9C]) + Fixtures.chunk("IEND", [])
        Fixtures.write(bytes, to: dir + "/huge.png")
        #expect(try decoder.probe(dir + "/huge.png").width == 20000)
        #expect(throws: ImageDecodingError.tooLarge(path: dir + "/huge.png", width: 20000, height: 20000, limit: 16384 * 16384)) {
            try decoder.decode(dir + "/huge.png")
        }
        let small = ImageDecoder(limits: ImageLimits(maximumInputPixels: 100))
        Fixtures.writePNG(dir + "/11.png", width: 11, height: 10, rows: [UInt8](repeating: 0, count: 330), .init(colorType: 2))
        #expect(throws: ImageDecodingError.tooLarge(path: dir + "/11.png", width: 11, height: 10, limit: 100)) { try small.decode(dir + "/11.png") }
    }
}

@Suite struct JPEGDecodeTests {
    let decoder = ImageDecoder()

    static let kinds: [(String, Int, Bool, Bool, Int, Bool)] = [
        // name, components, progressive, arithmetic, restart interval, ycck
        ("baseline", 3, false, false, 0, false),
        ("progressive", 3, true, false, 0, false),
        ("arithmetic", 3, false, true, 0, false),
        ("restart", 3, false, false, 1, false),
        ("grey", 1, false, false, 0, false),
        ("cmyk", 4, false, false, 0, false),
        ("ycck", 4, false, false, 0, false),
    ]

    @Test(arguments: kinds)
    func decodesCloseToTheSource(kind: (String, Int, Bool, Bool, Int, Bool)) throws {
        let (name, components, progressive, arithmetic, restart, _) = kind
        let ycck = name == "ycck"
        let dir = Fixtures.directory()
        let (w, h) = (48, 32)
        let rgb = Fixtures.picture(width: w, height: h)
        var pixels: [UInt8]
        var expected: [UInt8]
        switch components {
        case 1:
            pixels = stride(from: 0, to: rgb.count, by: 3).map { rgb[$0 + 1] }
            expected = Fixtures.rgba(fromRGB: pixels.flatMap { [$0, $0, $0] })
        case 4:
            // As Photoshop writes it: inverted inks (255 = none), with an Adobe marker.
            // K = 0 ink (255 inverted); C, M, Y = the complement of R, G, B, inverted: R.
            pixels = []
            for i in 0..<(w * h) { pixels += [rgb[3 * i], rgb[3 * i + 1], rgb[3 * i + 2], 255] }
            expected = Fixtures.rgba(fromRGB: rgb)
        default:
            pixels = rgb
            expected = Fixtures.rgba(fromRGB: rgb)
        }
        Fixtures.writeJPEG(
            dir + "/\(name).jpg", pixels: pixels, width: w, height: h, components: components, quality: 98,
            progressive: progressive, arithmetic: arithmetic, restartInterval: restart, ycck: ycck)
        let decoded = try decoder.decode(dir + "/\(name).jpg")
        #expect(decoded.warning == nil)
        let reference = Bitmap(width: w, height: h, pixels: expected)!
        #expect(Fixtures.meanDifference(decoded.bitmap, reference) < 3, "\(name)")
    }

    /// An asymmetric picture stored as each orientation would store it comes out upright.
    @Test(arguments: 1...8)
    func everyOrientationComesOutUpright(orientation: Int) throws {
        let dir = Fixtures.directory()
        let (w, h) = (64, 48)
        let upright = Bitmap(width: w, height: h, pixels: Fixtures.rgba(fromRGB: Fixtures.picture(width: w, height: h)))!
        // Store the inverse: the pixels a camera with this orientation would have written.
        let stored = upright.oriented(Self.inverse(Orientation(rawValue: orientation)!))
        var rgb: [UInt8] = []
        for i in stride(from: 0, to: stored.pixels.count, by: 4) { rgb += stored.pixels[i..<(i + 3)] }
        Fixtures.writeJPEG(dir + "/o.jpg", pixels: rgb, width: stored.width, height: stored.height, components: 3, quality: 98, app1: Fixtures.exif(orientation: orientation))
        let decoded = try decoder.decode(dir + "/o.jpg").bitmap
        #expect((decoded.width, decoded.height) == (w, h))
        #expect(Fixtures.meanDifference(decoded, upright) < 3)
        // The bright block is top-left, whatever the orientation.
        #expect(decoded[8, 8].red > 200 && decoded[8, 8].green < 90)
        #expect(decoded[w - 8, h - 8].red > 150 && decoded[w - 8, h - 8].green > 150)

        // PNG with eXIf: exact.
        Fixtures.writePNG(dir + "/o.png", width: stored.width, height: stored.height, rows: rgb, .init(colorType: 2, exif: Fixtures.exif(orientation: orientation, withHeader: false)))
        #expect(try decoder.decode(dir + "/o.png").bitmap == upright)
    }

    /// Stored [A B; C D] displays as the EXIF specification says, worked out by hand
    /// (independent of the code under test).
    @Test(arguments: [
        (1, "AB CD"), (2, "BA DC"), (3, "DC BA"), (4, "CD AB"),
        (5, "AC BD"), (6, "CA DB"), (7, "DB CA"), (8, "BD AC"),
    ])
    func orientationByTheBook(orientation: Int, expected: String) throws {
        let dir = Fixtures.directory()
        let colours: [Character: [UInt8]] = ["A": [255, 0, 0], "B": [0, 255, 0], "C": [0, 0, 255], "D": [255, 255, 0]]
        let stored = colours["A"]! + colours["B"]! + colours["C"]! + colours["D"]!
        Fixtures.writePNG(dir + "/o.png", width: 2, height: 2, rows: stored, .init(colorType: 2, exif: Fixtures.exif(orientation: orientation, withHeader: false)))
        let shown = try decoder.decode(dir + "/o.png").bitmap
        let letters = expected.replacingOccurrences(of: " ", with: "")
        for (i, letter) in letters.enumerated() {
            let rgb = colours[letter]!
            #expect(shown[i % 2, i / 2] == RGBA(red: rgb[0], green: rgb[1], blue: rgb[2]), "orientation \(orientation) pixel \(i)")
        }
    }

    static func inverse(_ o: Orientation) -> Orientation {
        switch o {
        case .right: return .left
        case .left: return .right
        default: return o  // the others are their own inverse
        }
    }

    /// The smallest of 1/8, 1/4, 1/2 and 1 that covers (the odd scales are never used).
    @Test func dctScaleIsTheSmallestThatCovers() {
        let stored = Size(width: 4032, height: 3024)
        #expect(JPEGCodec.dctScale(stored: stored, orientation: .up, minimumSize: Size(width: 300, height: 225)) == 1)  // 504x378
        #expect(JPEGCodec.dctScale(stored: stored, orientation: .up, minimumSize: Size(width: 505, height: 1)) == 2)
        #expect(JPEGCodec.dctScale(stored: stored, orientation: .up, minimumSize: Size(width: 4032, height: 3024)) == 8)
        #expect(JPEGCodec.dctScale(stored: stored, orientation: .up, minimumSize: Size(width: 9000, height: 1)) == 8)
        #expect(JPEGCodec.dctScale(stored: stored, orientation: .up, minimumSize: Size(width: 1009, height: 1)) == 4)
        #expect(JPEGCodec.dctScale(stored: stored, orientation: .up, minimumSize: Size(width: 2017, height: 1)) == 8)
        // Upright 3024 wide is stored 3024 tall: 1000 wide needs 3/8 (1134 of 3024), so 4/8.
        #expect(JPEGCodec.dctScale(stored: stored, orientation: .right, minimumSize: Size(width: 1000, height: 10)) == 4)
    }

    /// A DCT-scaled decode matches a full decode resampled to the same size.
    @Test(arguments: [1, 2, 4])
    func dctScaledMatchesFullDecodeResampled(eighths: Int) throws {
        let dir = Fixtures.directory()
        let (w, h) = (400, 304)
        Fixtures.writeJPEG(dir + "/s.jpg", pixels: Fixtures.picture(width: w, height: h), width: w, height: h, components: 3, quality: 95)
        let scaledWidth = (w * eighths + 7) / 8, scaledHeight = (h * eighths + 7) / 8
        let scaled = try decoder.decode(dir + "/s.jpg", minimumSize: Size(width: scaledWidth, height: scaledHeight))
        #expect(scaled.scaleEighths == eighths)
        #expect((scaled.bitmap.width, scaled.bitmap.height) == (scaledWidth, scaledHeight))
        let full = try decoder.decode(dir + "/s.jpg").bitmap.resampled(width: scaledWidth, height: scaledHeight, filter: .box)
        // Mean error per channel below 2 levels of 255 (the block edge is where they differ).
        #expect(Fixtures.meanDifference(scaled.bitmap, full) < 2)
    }

    @Test func truncatedJPEGDecodesWithAWarning() throws {
        let dir = Fixtures.directory()
        Fixtures.writeJPEG(dir + "/whole.jpg", pixels: Fixtures.picture(width: 256, height: 256), width: 256, height: 256, components: 3)
        let whole = Fixtures.bytes(dir + "/whole.jpg")
        Fixtures.write(Array(whole.prefix(whole.count * 2 / 3)), to: dir + "/cut.jpg")
        let decoded = try decoder.decode(dir + "/cut.jpg")
        #expect(decoded.warning?.message == "Premature end of JPEG file")
        #expect((decoded.bitmap.width, decoded.bitmap.height) == (256, 256))
        // The top, which was in the file, is the picture.
        #expect(decoded.bitmap[8, 8].red > 200)
        #expect(throws: ImageDecodingError.damaged(path: dir + "/cut.jpg", message: "Premature end of JPEG file")) {
            try ImageDecoder(strict: true).decode(dir + "/cut.jpg")
        }
    }

    @Test func corruptJPEGs() throws {
        let dir = Fixtures.directory()
        Fixtures.writeJPEG(dir + "/a.jpg", pixels: Fixtures.picture(width: 64, height: 48), width: 64, height: 48, components: 3)
        let good = Fixtures.bytes(dir + "/a.jpg")
        // A SOF0 that says 0 x 0.
        var zero = good
        let sof = try #require((0..<(zero.count - 1)).first { zero[$0] == 0xFF && zero[$0 + 1] == 0xC0 })
        for i in (sof + 5)...(sof + 8) { zero[i] = 0 }
        Fixtures.write(zero, to: dir + "/zero.jpg")
        #expect(throws: ImageDecodingError.codec(path: dir + "/zero.jpg", format: .jpeg, message: "Empty JPEG image (DNL not supported)")) { try decoder.decode(dir + "/zero.jpg") }
        // Cut inside the tables.
        Fixtures.write(Array(good.prefix(300)), to: dir + "/tables.jpg")
        #expect(throws: ImageDecodingError.codec(path: dir + "/tables.jpg", format: .jpeg, message: "the file ends inside its headers (300 bytes)")) { try decoder.probe(dir + "/tables.jpg") }
        // SOI then EOI.
        Fixtures.write([0xFF, 0xD8, 0xFF, 0xD9], to: dir + "/empty.jpg")
        #expect(throws: ImageDecodingError.codec(path: dir + "/empty.jpg", format: .jpeg, message: "JPEG datastream contains no image")) { try decoder.decode(dir + "/empty.jpg") }
        // A marker that does not exist, in the headers.
        var bogus = good
        bogus[2...3] = [0xFF, 0x06]
        Fixtures.write(bogus, to: dir + "/marker.jpg")
        #expect(throws: ImageDecodingError.codec(path: dir + "/marker.jpg", format: .jpeg, message: "Unsupported marker type 0x06")) { try decoder.decode(dir + "/marker.jpg") }
    }

    @Test func theSamplePhotosDecode() throws {
        let names = try FileManager.default.contentsOfDirectory(atPath: samplePhotos).filter { $0.hasSuffix(".jpg") || $0.hasSuffix(".png") }
        #expect(names.count == 15)
        for name in names {
            let decoded = try decoder.decode(samplePhotos + "/" + name)
            #expect(decoded.warning == nil, "\(name)")
            #expect(decoded.bitmap.width == decoded.info.orientedWidth && decoded.bitmap.height == decoded.info.orientedHeight)
        }
        let portrait = try decoder.decode(samplePhotos + "/astronaut-portrait-exif6.jpg").bitmap
        #expect((portrait.width, portrait.height) == (300, 512))
        let horse = try decoder.decode(samplePhotos + "/horse.png").bitmap
        #expect(!horse.isOpaque)
    }
}

/// Large PNGs read band by band and averaged in blocks when a smaller size is wanted.
@Suite struct ReducedPNGTests {
    let decoder = ImageDecoder()

    /// The block averages of a full decode (premultiplied), worked out here.
    static func blockAverage(_ full: Bitmap, _ k: Int) -> Bitmap {
        let w = (full.width + k - 1) / k, h = (full.height + k - 1) / k
        var out = Bitmap(width: w, height: h)
        for oy in 0..<h {
            for ox in 0..<w {
                var sums = [0, 0, 0, 0]
                var count = 0
                for y in (oy * k)..<min(full.height, oy * k + k) {
                    for x in (ox * k)..<min(full.width, ox * k + k) {
                        let p = full[x, y]
                        sums[0] += Int(p.red); sums[1] += Int(p.green); sums[2] += Int(p.blue); sums[3] += Int(p.alpha)
                        count += 1
                    }
                }
                out[ox, oy] = RGBA(
                    red: UInt8((sums[0] + count / 2) / count), green: UInt8((sums[1] + count / 2) / count),
                    blue: UInt8((sums[2] + count / 2) / count), alpha: UInt8((sums[3] + count / 2) / count))
            }
        }
        return out
    }

    @Test(arguments: [false, true])
    func blockAveragesEqualAFullDecode(alpha: Bool) throws {
        let dir = Fixtures.directory()
        let (w, h) = (401, 303)
        let rgb = Fixtures.picture(width: w, height: h)
        var rows: [UInt8] = []
        for i in 0..<(w * h) {
            rows += rgb[(3 * i)..<(3 * i + 3)]
            if alpha { rows.append(UInt8((i * 7) % 256)) }
        }
        Fixtures.writePNG(dir + "/big.png", width: w, height: h, rows: rows, .init(colorType: alpha ? 6 : 2))
        // Blocks that cover the size asked for twice over (`PNGCodec.boxHeadroom`).
        let reduced = try decoder.decode(dir + "/big.png", minimumSize: Size(width: 50, height: 37))
        #expect(reduced.reduction == 4)
        #expect((reduced.bitmap.width, reduced.bitmap.height) == (101, 76))
        let full = try decoder.decode(dir + "/big.png").bitmap
        #expect(reduced.bitmap == Self.blockAverage(full, 4))
    }

    @Test func smallOrInterlacedPNGsDecodeWhole() throws {
        let dir = Fixtures.directory()
        let rgb = Fixtures.picture(width: 120, height: 90)
        Fixtures.writePNG(dir + "/small.png", width: 120, height: 90, rows: rgb, .init(colorType: 2))
        Fixtures.writePNG(dir + "/adam7.png", width: 120, height: 90, rows: rgb, .init(colorType: 2, interlaced: true))
        #expect(try decoder.decode(dir + "/small.png", minimumSize: Size(width: 70, height: 50)).reduction == 1)
        let interlaced = try decoder.decode(dir + "/adam7.png", minimumSize: Size(width: 30, height: 20))
        #expect(interlaced.reduction == 1 && interlaced.bitmap.width == 120)
    }

    /// A 7x5 PNG read in 2 x 2 blocks spans 3.5 x 2.5 of its 4 x 3 block pixels, the
    /// partial blocks at the right and bottom as stored; turned upright they lie where the
    /// orientation puts them (orientation 6: the stored bottom row is the left column), and
    /// the card is resampled from there. Only the size was swapped: a portrait photo's
    /// card was off by the partial block (artwork at 260 px: 39.5 dB, 57.2 upright; now
    /// 56.6).
    @Test(arguments: [
        (1, 0.0, 0.0, 3.5, 2.5), (2, 0.5, 0.0, 3.5, 2.5), (3, 0.5, 0.5, 3.5, 2.5), (4, 0.0, 0.5, 3.5, 2.5),
        (5, 0.0, 0.0, 2.5, 3.5), (6, 0.5, 0.0, 2.5, 3.5), (7, 0.5, 0.5, 2.5, 3.5), (8, 0.0, 0.5, 2.5, 3.5),
    ])
    func thePartialBlocksOfAReductionFollowTheOrientation(orientation: Int, x: Double, y: Double, width: Double, height: Double) throws {
        let dir = Fixtures.directory()
        let rgb = Fixtures.picture(width: 7, height: 5)
        Fixtures.writePNG(dir + "/o.png", width: 7, height: 5, rows: rgb, .init(colorType: 2, exif: Fixtures.exif(orientation: orientation, withHeader: false)))
        let reduced = try decoder.decode(dir + "/o.png", minimumSize: Size(width: 1, height: 1))
        #expect(reduced.reduction == 2)
        #expect(reduced.extent == (x, y, width, height))
    }

    @Test func orientedAndDamagedReductions() throws {
        let dir = Fixtures.directory()
        let rgb = Fixtures.picture(width: 200, height: 100)
        Fixtures.writePNG(dir + "/o6.png", width: 200, height: 100, rows: rgb, .init(colorType: 2, exif: Fixtures.exif(orientation: 6, withHeader: false)))
        // Upright it is 100 x 200: 12 x 25 wanted, twice over -> 4 x 4 pixel blocks.
        let turned = try decoder.decode(dir + "/o6.png", minimumSize: Size(width: 12, height: 25))
        #expect(turned.reduction == 4 && (turned.bitmap.width, turned.bitmap.height) == (25, 50))
        let whole = Fixtures.bytes(dir + "/o6.png")
        Fixtures.write(Array(whole.prefix(whole.count - 12)), to: dir + "/no-end.png")
        let damaged = try decoder.decode(dir + "/no-end.png", minimumSize: Size(width: 12, height: 25))
        #expect(damaged.warning?.message == "after the image data: the file ends early")
        Fixtures.write(Array(whole.prefix(whole.count / 2)), to: dir + "/cut.png")
        #expect(throws: ImageDecodingError.codec(path: dir + "/cut.png", format: .png, message: "the file ends early")) {
            try decoder.decode(dir + "/cut.png", minimumSize: Size(width: 12, height: 25))
        }
    }
}
