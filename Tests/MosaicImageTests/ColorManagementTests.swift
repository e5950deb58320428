import CMosaicShims
import Foundation
import MosaicImage
import MosaicLayout
import Testing

/// Embedded ICC profiles are honoured: pixels of an Adobe RGB JPEG or PNG come out as the
/// same colours in sRGB (before: their numbers were taken as sRGB, washed out). The
/// expected values are the Adobe RGB (1998) to sRGB conversion worked out by hand (gamma
/// 563/256, both primaries' matrices, D65; out-of-gamut channels clip).
@Suite struct ColorManagementTests {
    /// (Adobe RGB value, its sRGB value)
    static let patches: [([UInt8], [UInt8])] = [
        ([200, 60, 40], [232, 57, 34]), ([60, 160, 90], [0, 161, 85]), ([128, 128, 128], [129, 129, 129]), ([30, 60, 200], [0, 57, 205]),
    ]

    /// Adobe RGB (1998): D65 white, its primaries, gamma 563/256.
    static let adobeRGB = ColorTransforms.iccBytes(.adobeRGB, .gamma(563.0 / 256.0))!

    /// A 32 x 32 picture: the four patches in 16 x 16 quarters.
    static func rgb() -> [UInt8] {
        var pixels: [UInt8] = []
        for y in 0..<32 {
            for x in 0..<32 { pixels += patches[(y / 16) * 2 + x / 16].0 }
        }
        return pixels
    }

    /// Each patch's middle, in `bitmap` read at 1/`scale` of the picture's size.
    static func check(_ bitmap: Bitmap, converted: Bool, tolerance: Int, scale: Int = 1) {
        #expect(bitmap.width == 32 / scale && bitmap.height == 32 / scale)
        for (i, patch) in patches.enumerated() {
            let p = bitmap[((i % 2) * 16 + 8) / scale, ((i / 2) * 16 + 8) / scale]
            let want = converted ? patch.1 : patch.0
            for (got, expected) in zip([p.red, p.green, p.blue], want) {
                #expect(abs(Int(got) - Int(expected)) <= tolerance, "patch \(i): \(p) for \(want)")
            }
        }
    }

    @Test func anAdobeRGBJPEGIsConvertedToSRGB() throws {
        let dir = Fixtures.directory()
        Fixtures.writeJPEG(dir + "/adobe.jpg", pixels: Self.rgb(), width: 32, height: 32, components: 3, quality: 100, icc: Self.adobeRGB)
        Self.check(try ImageDecoder().decode(dir + "/adobe.jpg").bitmap, converted: true, tolerance: 3)
        // Shrunk on load too (1/8: the DC reader's path): converted as well (before, only
        // the width was checked).
        let small = try ImageDecoder().decode(dir + "/adobe.jpg", minimumSize: Size(width: 4, height: 4))
        Self.check(small.bitmap, converted: true, tolerance: 3, scale: 8)
        // Turned off: the numbers as stored.
        var plain = ImageDecoder()
        plain.manageColor = false
        Self.check(try plain.decode(dir + "/adobe.jpg").bitmap, converted: false, tolerance: 3)
    }

    @Test func anAdobeRGBPNGIsConvertedToSRGB() throws {
        let dir = Fixtures.directory()
        Fixtures.writePNG(dir + "/adobe.png", width: 32, height: 32, rows: Self.rgb(), .init(colorType: 2, icc: Self.adobeRGB))
        Self.check(try ImageDecoder().decode(dir + "/adobe.png").bitmap, converted: true, tolerance: 1)
        // Read reduced (2 x 2 blocks of flat patches): converted as well.
        let reduced = try ImageDecoder().decode(dir + "/adobe.png", minimumSize: Size(width: 8, height: 8)).bitmap
        Self.check(reduced, converted: true, tolerance: 1, scale: 2)
    }

    /// A profile that cannot be read is a warning (never data loss): the pixels are drawn
    /// as sRGB.
    @Test func aBrokenProfileIsAWarning() throws {
        let dir = Fixtures.directory()
        Fixtures.writeJPEG(dir + "/broken.jpg", pixels: Self.rgb(), width: 32, height: 32, components: 3, quality: 100, icc: Array("not a profile".utf8))
        let decoded = try ImageDecoder(strict: true).decode(dir + "/broken.jpg")
        #expect(decoded.warning?.message == "the embedded ICC profile cannot be read; drawn as sRGB")
        #expect(decoded.warning?.isDataLoss == false)
        Self.check(decoded.bitmap, converted: false, tolerance: 3)
    }

    /// A profile too large for one APP2 marker comes in chunks; one lost, libjpeg cannot
    /// join them and returned no profile: the file was drawn as sRGB without a word. It is
    /// a profile that cannot be used: the documented warning, never data loss.
    @Test func aDamagedMultiChunkProfileIsAWarning() throws {
        let dir = Fixtures.directory()
        // The Adobe RGB profile, padded past two markers' worth (65,519 bytes each).
        let large = Self.adobeRGB + [UInt8](repeating: 0, count: 140_000 - Self.adobeRGB.count)
        Fixtures.writeJPEG(dir + "/whole.jpg", pixels: Self.rgb(), width: 32, height: 32, components: 3, quality: 100, icc: large)
        let whole = Fixtures.bytes(dir + "/whole.jpg")
        let chunks = (0..<(whole.count - 16)).filter { whole[$0] == 0xFF && whole[$0 + 1] == 0xE2 && whole[($0 + 4)..<($0 + 15)].elementsEqual("ICC_PROFILE".utf8) }
        try #require(chunks.count == 3)
        let intact = try ImageDecoder(strict: true).decode(dir + "/whole.jpg")
        #expect(intact.warning == nil)
        Self.check(intact.bitmap, converted: true, tolerance: 3)
        // The second chunk dropped.
        let length = Int(whole[chunks[1] + 2]) << 8 | Int(whole[chunks[1] + 3])
        Fixtures.write(Array(whole[..<chunks[1]]) + Array(whole[(chunks[1] + 2 + length)...]), to: dir + "/lost.jpg")
        let decoded = try ImageDecoder(strict: true).decode(dir + "/lost.jpg")
        #expect(decoded.warning?.message == "the embedded ICC profile is damaged (Corrupt JPEG data: bad ICC marker); drawn as sRGB")
        #expect(decoded.warning?.isDataLoss == false)
        Self.check(decoded.bitmap, converted: false, tolerance: 3)
        #expect(try ImageDecoder().colorProfile(dir + "/lost.jpg") == .unsupported("the embedded ICC profile is damaged (Corrupt JPEG data: bad ICC marker)"))
    }

    /// The sheet says it is sRGB (an sRGB chunk), so viewers do not reinterpret it.
    @Test func writtenPNGsCarryAnSRGBChunk() throws {
        let dir = Fixtures.directory()
        try Bitmap(width: 4, height: 4, fill: .white).writePNG(to: dir + "/s.png")
        let bytes = Fixtures.bytes(dir + "/s.png")
        #expect((0..<(bytes.count - 4)).contains { bytes[$0..<($0 + 4)].elementsEqual("sRGB".utf8) })
    }
}
