import CMosaicFixtures
import CMosaicShims
import Foundation
import MosaicImage
import MosaicLayout
import Testing

/// Every format's way of declaring its colour is read and converted to sRGB: WebP's ICCP
/// chunk, HEIF's colr box (an ICC profile or nclx code points), TIFF's tag 34675, PNG's
/// cICP, gAMA and cHRM; CMYK JPEGs and TIFFs through their CMYK profile. Before, each of
/// these was drawn with its numbers taken as sRGB.
@Suite struct ColorSourcesTests {
    typealias Patches = ColorManagementTests

    /// The patches in Display P3 and their sRGB values (the matrices of both primaries,
    /// D65, sRGB's curve, worked out apart from Little CMS).
    static let displayP3: [[UInt8]] = [[217, 42, 23], [0, 163, 82], [128, 128, 128], [17, 61, 208]]
    /// The patches as gamma 1.8 with sRGB's primaries, in sRGB.
    static let gamma18: [[UInt8]] = [[210, 77, 53], [77, 176, 109], [146, 146, 146], [40, 77, 210]]

    static func check(_ bitmap: Bitmap, _ expected: [[UInt8]], tolerance: Int, _ what: String) {
        for (i, want) in expected.enumerated() {
            let p = bitmap[(i % 2) * 16 + 8, (i / 2) * 16 + 8]
            for (got, value) in zip([p.red, p.green, p.blue], want) {
                #expect(abs(Int(got) - Int(value)) <= tolerance, "\(what) patch \(i): \(p) for \(want)")
            }
        }
    }

    static var stored: [[UInt8]] { Patches.patches.map(\.0) }
    static var adobeInSRGB: [[UInt8]] { Patches.patches.map(\.1) }

    // MARK: WebP

    /// A lossless WebP of the patches in a VP8X container with `icc` in an ICCP chunk.
    static func webp(_ path: String, icc: [UInt8]) throws {
        let plain = path + ".plain.webp"
        let rgba = Fixtures.rgba(fromRGB: Patches.rgb())
        let result = rgba.withUnsafeBufferPointer { mosaic_webp_encode_file(plain, $0.baseAddress, 32, 32, 100, 1) }
        try #require(result.status == MOSAIC_OK)
        let bytes = Fixtures.bytes(plain)
        let image = Array(bytes[12...])  // the VP8L chunk
        func le(_ v: Int, _ count: Int) -> [UInt8] { (0..<count).map { UInt8((v >> (8 * $0)) & 0xFF) } }
        func chunk(_ type: String, _ data: [UInt8]) -> [UInt8] { Array(type.utf8) + le(data.count, 4) + data + (data.count % 2 == 1 ? [0] : []) }
        let vp8x = chunk("VP8X", [0x20, 0, 0, 0] + le(31, 3) + le(31, 3))
        let body = Array("WEBP".utf8) + vp8x + chunk("ICCP", icc) + image
        Fixtures.write(Array("RIFF".utf8) + le(body.count, 4) + body, to: path)
    }

    @Test func aWebPsICCPChunkIsApplied() throws {
        let dir = Fixtures.directory()
        try Self.webp(dir + "/adobe.webp", icc: Patches.adobeRGB)
        Self.check(try ImageDecoder().decode(dir + "/adobe.webp").bitmap, Self.adobeInSRGB, tolerance: 1, "WebP")
        // Shrunk on load too.
        let small = try ImageDecoder().decode(dir + "/adobe.webp", minimumSize: Size(width: 16, height: 16)).bitmap
        #expect(small.width == 16)
        let p = small[4, 4]
        #expect(abs(Int(p.red) - 232) <= 2 && abs(Int(p.green) - 57) <= 2)
    }

    // MARK: TIFF

    @Test func aTIFFsProfileTagIsApplied() throws {
        let dir = Fixtures.directory()
        TIFFTests.write(dir + "/adobe.tif", pixels: Patches.rgb(), width: 32, height: 32, samples: 3, photometric: 2, icc: Patches.adobeRGB)
        Self.check(try ImageDecoder().decode(dir + "/adobe.tif").bitmap, Self.adobeInSRGB, tolerance: 1, "TIFF")
    }

    // MARK: HEIF

    static func heif(_ path: String, avif: Bool, icc: [UInt8] = [], primaries: Int = 0, transfer: Int = 0, matrix: Int = 6, fullRange: Bool = true, pixels: [UInt8]? = nil, width: Int = 32, height: Int = 32) throws {
        let rgba = pixels ?? Fixtures.rgba(fromRGB: Patches.rgb())
        let result = icc.withUnsafeBufferPointer { profile in
            rgba.withUnsafeBufferPointer {
                mosaic_heif_encode_file(
                    path, $0.baseAddress, Int32(width), Int32(height), avif ? 1 : 0, 100, 0, icc.isEmpty ? nil : profile.baseAddress, icc.count,
                    Int32(primaries), Int32(transfer), Int32(matrix), fullRange ? 1 : 0, nil, 0)
            }
        }
        try #require(result.status == MOSAIC_OK, "\(messageOf(result))")
    }

    static func messageOf(_ result: mosaic_result) -> String {
        withUnsafeBytes(of: result.message) { String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self) }
    }

    @Test func aHEICsICCProfileIsApplied() throws {
        let dir = Fixtures.directory()
        try Self.heif(dir + "/adobe.heic", avif: false, icc: Patches.adobeRGB)
        // Lossy (4:2:0 chroma): flat patches, a few levels off.
        Self.check(try ImageDecoder().decode(dir + "/adobe.heic").bitmap, Self.adobeInSRGB, tolerance: 6, "HEIC")
    }

    @Test func anAVIFsNCLXDisplayP3IsApplied() throws {
        let dir = Fixtures.directory()
        try Self.heif(dir + "/p3.avif", avif: true, primaries: 12, transfer: 13)
        Self.check(try ImageDecoder().decode(dir + "/p3.avif").bitmap, Self.displayP3, tolerance: 6, "AVIF P3")
        // sRGB code points (what libheif writes by default): nothing to convert.
        try Self.heif(dir + "/srgb.avif", avif: true, primaries: 1, transfer: 13)
        Self.check(try ImageDecoder().decode(dir + "/srgb.avif").bitmap, Self.stored, tolerance: 6, "AVIF sRGB")
    }

    @Test func anHDRTransferIsAWarningAndDrawnAsSRGB() throws {
        let dir = Fixtures.directory()
        try Self.heif(dir + "/pq.avif", avif: true, primaries: 9, transfer: 16)
        let decoded = try ImageDecoder(strict: true).decode(dir + "/pq.avif")
        #expect(decoded.warning?.message == "the nclx colour box: the HDR transfer PQ (16) is not tone-mapped; drawn as sRGB")
        #expect(decoded.warning?.isDataLoss == false)
    }

    // MARK: PNG

    /// A PNG of the patches with `chunks` (type, data) inserted after IHDR.
    static func png(_ path: String, _ chunks: [(String, [UInt8])]) {
        Fixtures.writePNG(path, width: 32, height: 32, rows: Patches.rgb(), .init(colorType: 2))
        var bytes = Fixtures.bytes(path)
        let afterIHDR = 8 + 8 + 13 + 4
        bytes.insert(contentsOf: chunks.flatMap { Fixtures.chunk($0.0, $0.1) }, at: afterIHDR)
        Fixtures.write(bytes, to: path)
    }

    static func be32(_ values: [Int]) -> [UInt8] { values.flatMap { Fixtures.be32(UInt32($0)) } }

    @Test func aPNGsCICPChunkIsApplied() throws {
        let dir = Fixtures.directory()
        Self.png(dir + "/p3.png", [("cICP", [12, 13, 0, 1])])
        Self.check(try ImageDecoder().decode(dir + "/p3.png").bitmap, Self.displayP3, tolerance: 1, "cICP P3")
        // cICP comes before iCCP.
        Self.png(dir + "/both.png", [("cICP", [1, 13, 0, 1]), ("gAMA", Self.be32([55556]))])
        Self.check(try ImageDecoder().decode(dir + "/both.png").bitmap, Self.stored, tolerance: 0, "cICP sRGB")
    }

    /// A cICP chunk of other than 4 bytes, or with a full-range flag other than 0 or 1, is
    /// malformed (a 3-byte chunk was "not for RGB pixels"; a flag of 7 passed silently): the
    /// colour is not converted, and the warning says why.
    @Test func aMalformedCICPChunkIsSaidToBe() throws {
        let dir = Fixtures.directory()
        let cases: [([UInt8], String)] = [
            ([12, 13, 0], "the cICP chunk is malformed: 3 bytes, where it has 4"),
            ([12, 13, 0, 1, 0], "the cICP chunk is malformed: 5 bytes, where it has 4"),
            ([12, 13, 0, 7], "the cICP chunk is malformed: a full-range flag of 7, where it is 0 or 1"),
            ([12, 13, 1, 1], "the cICP chunk is not for RGB pixels (matrix coefficients 1, where RGB has 0)"),
        ]
        for (n, (chunk, reason)) in cases.enumerated() {
            let path = dir + "/c\(n).png"
            Self.png(path, [("cICP", chunk)])
            #expect(try ImageDecoder().colorProfile(path) == .unsupported(reason), "\(chunk)")
        }
        Self.png(dir + "/ok.png", [("cICP", [12, 13, 0, 1])])
        #expect(try ImageDecoder().colorProfile(dir + "/ok.png") == .coded(primaries: 12, transfer: 13, source: "the cICP chunk"))
    }

    @Test func aPNGsGammaAndChromaticitiesAreApplied() throws {
        let dir = Fixtures.directory()
        Self.png(dir + "/g18.png", [("gAMA", Self.be32([55556]))])
        Self.check(try ImageDecoder().decode(dir + "/g18.png").bitmap, Self.gamma18, tolerance: 1, "gAMA 1.8")
        // cHRM of Display P3 with sRGB's curve (1/2.2: what most writers put).
        let p3 = [31270, 32900, 68000, 32000, 26500, 69000, 15000, 6000]
        Self.png(dir + "/chrm.png", [("gAMA", Self.be32([45455])), ("cHRM", Self.be32(p3))])
        Self.check(try ImageDecoder().decode(dir + "/chrm.png").bitmap, Self.displayP3, tolerance: 1, "cHRM P3")
        // 1/2.2 alone, or an sRGB chunk whatever gAMA says: sRGB, untouched.
        Self.png(dir + "/g22.png", [("gAMA", Self.be32([45455]))])
        Self.check(try ImageDecoder().decode(dir + "/g22.png").bitmap, Self.stored, tolerance: 0, "gAMA 2.2")
        Self.png(dir + "/srgb.png", [("sRGB", [0]), ("gAMA", Self.be32([55556]))])
        Self.check(try ImageDecoder().decode(dir + "/srgb.png").bitmap, Self.stored, tolerance: 0, "sRGB")
        // Read reduced (the band path) as well.
        let reduced = try ImageDecoder().decode(dir + "/g18.png", minimumSize: Size(width: 8, height: 8)).bitmap
        #expect(reduced.width == 16 && abs(Int(reduced[4, 4].red) - 210) <= 1)
    }

    @Test func aPNGWithAlphaReadReducedIsConvertedToo() throws {
        let dir = Fixtures.directory()
        var rows: [UInt8] = []
        for (i, value) in Patches.rgb().enumerated() {
            rows.append(value)
            if i % 3 == 2 { rows.append(255) }
        }
        Fixtures.writePNG(dir + "/a.png", width: 32, height: 32, rows: rows, .init(colorType: 6, icc: Patches.adobeRGB))
        let reduced = try ImageDecoder().decode(dir + "/a.png", minimumSize: Size(width: 8, height: 8)).bitmap
        #expect(reduced.width == 16)
        let p = reduced[4, 4]
        // Before, alpha PNGs read reduced kept the Adobe numbers: (200, 60, 40).
        #expect(abs(Int(p.red) - 232) <= 1 && abs(Int(p.green) - 57) <= 1, "\(p)")
    }

    // MARK: CMYK

    /// Inks (0 = none) of four patches and their colour through the fixture press (cyan
    /// half strength) and through the uncalibrated formula.
    static let inks: [[UInt8]] = [[255, 0, 0, 0], [0, 0, 0, 0], [0, 0, 0, 255], [0, 255, 0, 0]]
    static let throughProfile: [[UInt8]] = [[128, 255, 255], [255, 255, 255], [0, 0, 0], [255, 0, 255]]
    static let withoutProfile: [[UInt8]] = [[0, 255, 255], [255, 255, 255], [0, 0, 0], [255, 0, 255]]

    static var cmykProfile: [UInt8] {
        var size = 0
        let bytes = mosaic_color_cmyk_fixture_profile(&size)!
        defer { free(bytes) }
        return Array(UnsafeBufferPointer(start: bytes, count: size))
    }

    /// 32 x 32 CMYK pixels of the four patches; `inverted` as Adobe stores them.
    static func cmyk(inverted: Bool) -> [UInt8] {
        var pixels: [UInt8] = []
        for y in 0..<32 {
            for x in 0..<32 { pixels += inks[(y / 16) * 2 + x / 16].map { inverted ? 255 - $0 : $0 } }
        }
        return pixels
    }

    @Test func aCMYKJPEGGoesThroughItsProfile() throws {
        let dir = Fixtures.directory()
        for ycck in [false, true] {
            Fixtures.writeJPEG(dir + "/c.jpg", pixels: Self.cmyk(inverted: true), width: 32, height: 32, components: 4, quality: 100, ycck: ycck, icc: Self.cmykProfile)
            Self.check(try ImageDecoder().decode(dir + "/c.jpg").bitmap, Self.throughProfile, tolerance: 3, "CMYK JPEG ycck \(ycck)")
            // Shrunk on load the same.
            let half = try ImageDecoder().decode(dir + "/c.jpg", minimumSize: Size(width: 16, height: 16)).bitmap
            #expect(half.width == 16 && abs(Int(half[4, 4].red) - 128) <= 3)
            // No profile: the uncalibrated formula, as before.
            Fixtures.writeJPEG(dir + "/n.jpg", pixels: Self.cmyk(inverted: true), width: 32, height: 32, components: 4, quality: 100, ycck: ycck)
            Self.check(try ImageDecoder().decode(dir + "/n.jpg").bitmap, Self.withoutProfile, tolerance: 3, "CMYK JPEG, no profile")
        }
    }

    @Test func aCMYKTIFFGoesThroughItsProfile() throws {
        let dir = Fixtures.directory()
        TIFFTests.write(dir + "/c.tif", pixels: Self.cmyk(inverted: false), width: 32, height: 32, samples: 4, photometric: 5, icc: Self.cmykProfile)
        Self.check(try ImageDecoder().decode(dir + "/c.tif").bitmap, Self.throughProfile, tolerance: 3, "CMYK TIFF")
        TIFFTests.write(dir + "/n.tif", pixels: Self.cmyk(inverted: false), width: 32, height: 32, samples: 4, photometric: 5)
        Self.check(try ImageDecoder().decode(dir + "/n.tif").bitmap, Self.withoutProfile, tolerance: 3, "CMYK TIFF, no profile")
    }

    /// 16-bit CMYK (ImageMagick writes it; libvips reads it) failed "invalid TIFF: Sorry, can
    /// not handle image" without a profile: libtiff's RGBA reader takes 8 bits only. Read
    /// here, strips or tiles, through the profile when there is one, else libtiff's formula.
    @Test(arguments: [false, true])
    func aSixteenBitCMYKTIFFDecodes(tiled: Bool) throws {
        let dir = Fixtures.directory()
        let wide = Self.cmyk(inverted: false).flatMap { v -> [UInt8] in let w = UInt16(v) * 257; return [UInt8(w & 0xFF), UInt8(w >> 8)] }
        TIFFTests.write(dir + "/c.tif", pixels: wide, width: 32, height: 32, samples: 4, bits: 16, photometric: 5, tiled: tiled, icc: Self.cmykProfile)
        Self.check(try ImageDecoder().decode(dir + "/c.tif").bitmap, Self.throughProfile, tolerance: 3, "16-bit CMYK TIFF")
        TIFFTests.write(dir + "/n.tif", pixels: wide, width: 32, height: 32, samples: 4, bits: 16, photometric: 5, tiled: tiled)
        let plain = try ImageDecoder(strict: true).decode(dir + "/n.tif")
        #expect(plain.warning == nil)
        Self.check(plain.bitmap, Self.withoutProfile, tolerance: 0, "16-bit CMYK TIFF, no profile")
        // The 8-bit file without a profile (libtiff's reader) gives the same pixels.
        TIFFTests.write(dir + "/n8.tif", pixels: Self.cmyk(inverted: false), width: 32, height: 32, samples: 4, photometric: 5, tiled: tiled)
        #expect(try ImageDecoder().decode(dir + "/n8.tif").bitmap == plain.bitmap)
    }

    /// A profile for other pixels than the image's is a warning; the pixels are drawn as
    /// they would be without it.
    @Test func aProfileForOtherPixelsIsAWarning() throws {
        let dir = Fixtures.directory()
        Fixtures.writeJPEG(dir + "/rgb.jpg", pixels: Patches.rgb(), width: 32, height: 32, components: 3, quality: 100, icc: Self.cmykProfile)
        let rgb = try ImageDecoder(strict: true).decode(dir + "/rgb.jpg")
        #expect(rgb.warning?.message == "the embedded ICC profile is for CMYK pixels, the image's are not; drawn as sRGB")
        Self.check(rgb.bitmap, Self.stored, tolerance: 3, "RGB JPEG with a CMYK profile")
        Fixtures.writeJPEG(dir + "/cmyk.jpg", pixels: Self.cmyk(inverted: true), width: 32, height: 32, components: 4, quality: 100, icc: Patches.adobeRGB)
        let cmyk = try ImageDecoder(strict: true).decode(dir + "/cmyk.jpg")
        #expect(cmyk.warning?.message == "the embedded ICC profile is not for the image's CMYK pixels; converted without a profile")
        Self.check(cmyk.bitmap, Self.withoutProfile, tolerance: 3, "CMYK JPEG with an RGB profile")
    }

    /// Turned off, nothing is converted, whatever the file says.
    @Test func colorManagementOffLeavesEveryFormatAlone() throws {
        let dir = Fixtures.directory()
        var plain = ImageDecoder()
        plain.manageColor = false
        Self.png(dir + "/p3.png", [("cICP", [12, 13, 0, 1])])
        try Self.webp(dir + "/adobe.webp", icc: Patches.adobeRGB)
        for file in ["p3.png", "adobe.webp"] {
            Self.check(try plain.decode(dir + "/" + file).bitmap, Self.stored, tolerance: 1, file)
        }
    }
}

/// Matrix/TRC profiles go through mosaic's own matrix path (several times Little CMS's
/// speed); it must give Little CMS's colours within one level.
@Suite struct ColorMatrixPathTests {
    static func transform(_ icc: [UInt8], exact: Bool) throws -> UnsafeMutablePointer<mosaic_color_transform> {
        var result = mosaic_result()
        let transform = icc.withUnsafeBufferPointer { mosaic_color_transform_create($0.baseAddress, $0.count, exact ? 1 : 0, &result) }
        return try #require(transform)
    }

    @Test(arguments: [
        (Chromaticities.adobeRGB, ToneCurve.gamma(563.0 / 256.0)), (.displayP3, .sRGB), (.bt2020, .linear),
        (Chromaticities(white: (0.3457, 0.3585), red: (0.7347, 0.2653), green: (0.1596, 0.8404), blue: (0.0366, 0.0001)), .gamma(1.8)),
    ])
    func theMatrixPathMatchesLittleCMS(chromaticities: Chromaticities, curve: ToneCurve) throws {
        let icc = try #require(ColorTransforms.iccBytes(chromaticities, curve))
        let fast = try Self.transform(icc, exact: false), exact = try Self.transform(icc, exact: true)
        defer {
            mosaic_color_transform_free(fast)
            mosaic_color_transform_free(exact)
        }
        #expect(fast.pointee.matrix != nil && exact.pointee.matrix == nil)
        var generator = SystemRandomNumberGenerator()
        var pixels = (0..<(4 * 20_000)).map { _ in UInt8.random(in: 0...255, using: &generator) }
        // Every grey level and every primary ramp too.
        for v in 0..<256 { pixels += [UInt8(v), UInt8(v), UInt8(v), 255, UInt8(v), 0, 0, 7, 0, UInt8(v), 0, 9, 0, 0, UInt8(v), 255] }
        var a = pixels, b = pixels
        a.withUnsafeMutableBufferPointer { mosaic_color_transform_apply(fast, $0.baseAddress, $0.count / 4) }
        b.withUnsafeMutableBufferPointer { mosaic_color_transform_apply(exact, $0.baseAddress, $0.count / 4) }
        let worst = zip(a, b).map { abs(Int($0) - Int($1)) }.max() ?? 0
        #expect(worst <= 1, "largest difference \(worst) levels")
        // Alpha untouched.
        #expect(stride(from: 3, to: a.count, by: 4).allSatisfy { a[$0] == pixels[$0] })
    }
}
