import CMosaicFixtures
import CMosaicShims
import Foundation
import MosaicImage
import MosaicLayout
import Testing

/// TIFF: strips and tiles, 8 and 16 bits, RGB, RGBA, grey and CMYK, compressed or not, the
/// Orientation tag, and broken files as errors naming them.
@Suite struct TIFFTests {
    let decoder = ImageDecoder()

    /// Writes a 37 x 21 picture (red = 6x, green = 12y, blue = 90) in the given layout.
    static func write(
        _ path: String, samples: Int = 3, bits: Int = 8, photometric: Int = 2, compression: Int = 1, orientation: Int = 1, tiled: Bool = false,
        width: Int = 37, height: Int = 21
    ) {
        var values: [Int] = []
        for y in 0..<height {
            for x in 0..<width {
                let rgb = [x * 6 % 256, y * 12 % 256, 90]
                switch (photometric, samples) {
                case (1, _): values.append(rgb[0])
                case (5, _): values += [255 - rgb[0], 255 - rgb[1], 255 - rgb[2], 0]
                case (_, 4): values += rgb + [x * 255 / (width - 1)]
                default: values += rgb
                }
            }
        }
        let bytes: [UInt8] = bits == 16 ? values.flatMap { v -> [UInt8] in let w = UInt16(v) * 257; return [UInt8(w & 0xFF), UInt8(w >> 8)] } : values.map(UInt8.init)
        write(path, pixels: bytes, width: width, height: height, samples: samples, bits: bits, photometric: photometric, compression: compression, orientation: orientation, tiled: tiled)
    }

    /// Writes `pixels` (`samples` samples of `bits` per pixel) as they are, with `icc` in tag 34675.
    static func write(
        _ path: String, pixels bytes: [UInt8], width: Int, height: Int, samples: Int, bits: Int = 8, photometric: Int, compression: Int = 1,
        orientation: Int = 1, tiled: Bool = false, icc: [UInt8] = []
    ) {
        let result = icc.withUnsafeBufferPointer { profile in bytes.withUnsafeBufferPointer { pixels in
            var fixture = mosaic_tiff_fixture()
            fixture.width = Int32(width)
            fixture.height = Int32(height)
            fixture.samples = Int32(samples)
            fixture.bits = Int32(bits)
            fixture.photometric = Int32(photometric)
            fixture.compression = Int32(compression)
            fixture.orientation = Int32(orientation)
            fixture.tiled = tiled ? 1 : 0
            fixture.pixels = pixels.baseAddress
            if !icc.isEmpty {
                fixture.icc = profile.baseAddress
                fixture.icc_size = icc.count
            }
            return mosaic_tiff_encode_file(path, &fixture)
        } }
        precondition(result.status == MOSAIC_OK)
    }

    static func expected(_ x: Int, _ y: Int, grey: Bool = false) -> RGBA {
        let (r, g) = (UInt8(x * 6 % 256), UInt8(y * 12 % 256))
        return grey ? RGBA(red: r, green: r, blue: r) : RGBA(red: r, green: g, blue: 90)
    }

    @Test(arguments: [
        (3, 8, 2, 1, false), (3, 8, 2, 5, true), (3, 16, 2, 8, true), (1, 8, 1, 1, true), (1, 16, 1, 5, false), (1, 16, 1, 5, true),
        (4, 8, 5, 1, false),
    ])
    func everyLayoutDecodesExactly(samples: Int, bits: Int, photometric: Int, compression: Int, tiled: Bool) throws {
        let dir = Fixtures.directory()
        Self.write(dir + "/a.tif", samples: samples, bits: bits, photometric: photometric, compression: compression, tiled: tiled)
        let info = try decoder.probe(dir + "/a.tif")
        #expect(info.format == .tiff && info.size == Size(width: 37, height: 21) && !info.hasAlpha && info.bitDepth == bits)
        #expect(info.interlacing == (tiled ? .tiled : nil))
        let bitmap = try decoder.decode(dir + "/a.tif").bitmap
        for (x, y) in [(0, 0), (36, 0), (5, 20), (36, 20), (17, 11)] {
            #expect(bitmap[x, y] == Self.expected(x, y, grey: photometric == 1), "(\(x), \(y)) \(samples)x\(bits) photometric \(photometric)")
        }
    }

    @Test func alphaIsStraightInTheFileAndPremultipliedInMemory() throws {
        let dir = Fixtures.directory()
        Self.write(dir + "/rgba.tif", samples: 4)
        let info = try decoder.probe(dir + "/rgba.tif")
        #expect(info.hasAlpha)
        let bitmap = try decoder.decode(dir + "/rgba.tif").bitmap
        #expect(bitmap[0, 3].alpha == 0 && bitmap[36, 3].alpha == 255)
        #expect(bitmap[36, 3] == Self.expected(36, 3))
        let half = bitmap[18, 5]
        #expect(abs(Int(half.alpha) - 127) <= 1)
        #expect(abs(Int(half.red) - 18 * 6 * Int(half.alpha) / 255) <= 2)
    }

    /// Orientation 6 (stored rotated): upright 21 x 37.
    @Test func theOrientationTagTurnsThePicture() throws {
        let dir = Fixtures.directory()
        Self.write(dir + "/o.tif", orientation: 6)
        let info = try decoder.probe(dir + "/o.tif")
        #expect(info.orientation == .right)
        let upright = try decoder.decode(dir + "/o.tif").bitmap
        #expect(upright.width == 21 && upright.height == 37)
        // Stored (0, 0) is upright at the top right.
        #expect(upright[20, 0] == Self.expected(0, 0))
    }

    /// libtiff writes the directory after the image data: beyond the probe's first 64 KiB
    /// in a 270 KB file, so the probe reads the whole file (before, "Can not read TIFF
    /// directory count").
    @Test func aDirectoryAfterTheImageDataIsFound() throws {
        let dir = Fixtures.directory()
        Self.write(dir + "/big.tif", width: 300, height: 300)
        #expect(Fixtures.bytes(dir + "/big.tif").count > 200_000)
        #expect(try decoder.probe(dir + "/big.tif").size == Size(width: 300, height: 300))
        #expect(try decoder.decode(dir + "/big.tif").bitmap[299, 299] == Self.expected(299, 299))
    }

    /// A page of 16384 x 16384 (the most pixels an input may have) is decoded whole: 1 GiB of
    /// pixels and a strip. It was allocated without the memory check, then refused by it at
    /// 1025 MB against 1024 (while a PNG of that size decoded). The default limit admits
    /// every input the pixel limit does (`ImageLimits.defaultDecodeMemory`): this page (its
    /// strips cut, as edited here) fails as the damaged file it is; under a limit of 1 GiB
    /// it is refused before any allocation.
    @Test func aFullSizePageGoesThroughTheMemoryLimit() throws {
        let path = Fixtures.directory() + "/big.tif"
        Self.write(path)
        var bytes = Fixtures.bytes(path)
        try #require(bytes.starts(with: [0x49, 0x49, 42, 0]), "a little-endian TIFF")
        func le(_ at: Int, _ count: Int) -> Int { (0..<count).reduce(0) { $0 | Int(bytes[at + $1]) << (8 * $1) } }
        let ifd = le(4, 4)
        // ImageWidth and ImageLength made LONG 16384.
        for entry in 0..<le(ifd, 2) {
            let at = ifd + 2 + 12 * entry
            if [256, 257].contains(le(at, 2)) { bytes.replaceSubrange((at + 2)..<(at + 12), with: [4, 0, 1, 0, 0, 0, 0x00, 0x40, 0, 0]) }
        }
        Fixtures.write(bytes, to: path)
        #expect(try decoder.probe(path).width == 16384)
        do {
            _ = try decoder.decode(path)
            Issue.record("a page whose strips are cut decoded")
        } catch {
            #expect(error.code == "codec", "\(error)")
        }
        let limited = ImageDecoder(limits: ImageLimits(maximumDecodeMemory: 1 << 30))
        #expect(throws: ImageDecodingError.overMemoryLimit(path: path, bytes: 16384 * 16384 * 4 + 16384 * 64, limit: 1 << 30)) {
            try limited.decode(path)
        }
    }

    @Test func brokenFilesAreErrorsNamingThem() throws {
        let dir = Fixtures.directory()
        Self.write(dir + "/ok.tif", compression: 5)
        let bytes = Fixtures.bytes(dir + "/ok.tif")
        Fixtures.write(Array(bytes.prefix(bytes.count / 2)), to: dir + "/cut.tif")
        #expect(throws: ImageDecodingError.self) { try decoder.decode(dir + "/cut.tif") }
        Fixtures.write(Array(bytes.prefix(8)), to: dir + "/header.tif")
        #expect(throws: ImageDecodingError.self) { try decoder.probe(dir + "/header.tif") }
        let small = ImageDecoder(limits: ImageLimits(maximumInputPixels: 100))
        #expect(throws: ImageDecodingError.tooLarge(path: dir + "/ok.tif", width: 37, height: 21, limit: 100)) {
            try small.decode(dir + "/ok.tif")
        }
    }
}
