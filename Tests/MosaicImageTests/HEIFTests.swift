import CMosaicShims
import Foundation
import MosaicImage
import MosaicLayout
import Testing

/// HEIF (HEVC) and AVIF (AV1) through libheif: decoded close to the source, alpha, a
/// stored thumbnail used when it covers the size asked for, broken files as errors.
@Suite struct HEIFTests {
    let decoder = ImageDecoder()

    static func write(_ path: String, width: Int, height: Int, avif: Bool, alpha: Bool = false, thumbnail: Int = 0) {
        let pixels = WebPTests.rgba(width: width, height: height, alpha: alpha)
        let result = pixels.withUnsafeBufferPointer {
            mosaic_heif_encode_file(path, $0.baseAddress, Int32(width), Int32(height), avif ? 1 : 0, 90, Int32(thumbnail), nil, 0, 0, 0)
        }
        precondition(result.status == MOSAIC_OK, "libheif could not write the fixture")
    }

    @Test(arguments: [false, true])
    func decodesCloseToTheSource(avif: Bool) throws {
        let dir = Fixtures.directory()
        let path = dir + (avif ? "/a.avif" : "/a.heic")
        Self.write(path, width: 128, height: 96, avif: avif)
        let info = try decoder.probe(path)
        #expect(info.format == (avif ? .avif : .heif) && info.size == Size(width: 128, height: 96) && !info.hasAlpha)
        let decoded = try decoder.decode(path).bitmap
        let source = Bitmap(width: 128, height: 96, pixels: WebPTests.rgba(width: 128, height: 96, alpha: false))!
        #expect(WebPTests.psnr(decoded, source) >= 30)
    }

    @Test func alphaIsKept() throws {
        let dir = Fixtures.directory()
        Self.write(dir + "/alpha.heic", width: 64, height: 48, avif: false, alpha: true)
        let info = try decoder.probe(dir + "/alpha.heic")
        #expect(info.hasAlpha)
        let decoded = try decoder.decode(dir + "/alpha.heic").bitmap
        #expect(decoded[0, 10].alpha < 16 && decoded[63, 10].alpha > 240)
    }

    /// A 512x384 photo with a thumbnail fitting 128: a card needing 100x60 gets the
    /// thumbnail; one needing 200x100 the whole image.
    @Test func aCoveringThumbnailIsDecodedInstead() throws {
        let dir = Fixtures.directory()
        Self.write(dir + "/t.heic", width: 512, height: 384, avif: false, thumbnail: 128)
        let info = try decoder.probe(dir + "/t.heic")
        #expect(info.colorModel == "ycbcr, 1 thumbnail")
        let small = try decoder.decode(dir + "/t.heic", minimumSize: Size(width: 100, height: 60))
        #expect(small.bitmap.width == 128 && small.bitmap.height == 96)
        let large = try decoder.decode(dir + "/t.heic", minimumSize: Size(width: 200, height: 100))
        #expect(large.bitmap.width == 512 && large.bitmap.height == 384)
        let resampled = large.bitmap.resampled(width: 128, height: 96)
        #expect(WebPTests.psnr(small.bitmap, resampled) >= 30)
    }

    @Test func brokenFilesAreErrorsNamingThem() throws {
        let dir = Fixtures.directory()
        Self.write(dir + "/ok.heic", width: 64, height: 48, avif: false)
        let bytes = Fixtures.bytes(dir + "/ok.heic")
        Fixtures.write(Array(bytes.prefix(bytes.count - 100)), to: dir + "/cut.heic")
        #expect(throws: ImageDecodingError.self) { try decoder.decode(dir + "/cut.heic") }
        Fixtures.write(Array(bytes.prefix(40)), to: dir + "/header.heic")
        #expect(throws: ImageDecodingError.self) { try decoder.probe(dir + "/header.heic") }
        let small = ImageDecoder(limits: ImageLimits(maximumInputPixels: 1000))
        #expect(throws: ImageDecodingError.tooLarge(path: dir + "/ok.heic", width: 64, height: 48, limit: 1000)) {
            try small.decode(dir + "/ok.heic")
        }
    }
}
