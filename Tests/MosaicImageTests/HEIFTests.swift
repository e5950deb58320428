import CMosaicFixtures
import CMosaicShims
import Foundation
import MosaicImage
import MosaicLayout
import Testing

/// HEIF (HEVC) and AVIF (AV1) through libheif: decoded close to the source, alpha, a
/// stored thumbnail used when it covers the size asked for, broken files as errors.
@Suite struct HEIFTests {
    let decoder = ImageDecoder()

    static func write(_ path: String, width: Int, height: Int, avif: Bool, alpha: Bool = false, thumbnail: Int = 0, exif: [UInt8] = []) {
        let pixels = WebPTests.rgba(width: width, height: height, alpha: alpha)
        let result = exif.withUnsafeBufferPointer { block in
            pixels.withUnsafeBufferPointer {
                mosaic_heif_encode_file(
                    path, $0.baseAddress, Int32(width), Int32(height), avif ? 1 : 0, 90, Int32(thumbnail), nil, 0, 0, 0, 0, 0,
                    exif.isEmpty ? nil : block.baseAddress, exif.count)
            }
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

    /// The capture date and camera from the file's Exif item (before: HEIF's EXIF was not
    /// read, so phone photos were all "Undated"). The block holds IFD0's DateTime, Make and
    /// Model only (DateTime is the fallback for DateTimeOriginal).
    @Test(arguments: [false, true])
    func readsTheExifItem(avif: Bool) throws {
        let path = Fixtures.directory() + (avif ? "/dated.avif" : "/dated.heic")
        let strings = ["2024:03:14 09:26:53", "Apple", "iPhone 15"].map { Array($0.utf8) + [0] }
        var tiff: [UInt8] = Array("MM".utf8) + [0, 42, 0, 0, 0, 8, 0, 3]
        var offset = 8 + 2 + 3 * 12 + 4
        for (tag, bytes) in zip([0x0132, 0x010F, 0x0110], strings) {
            tiff += [UInt8(tag >> 8), UInt8(tag & 0xFF), 0, 2, 0, 0, 0, UInt8(bytes.count), 0, 0, UInt8(offset >> 8), UInt8(offset & 0xFF)]
            offset += bytes.count
        }
        tiff += [0, 0, 0, 0] + strings.joined()
        Self.write(path, width: 64, height: 48, avif: avif, exif: tiff)
        var reading = ImageDecoder()
        reading.readsCaptureDate = true
        reading.readsCamera = true
        let info = try reading.probe(path)
        #expect(info.captured == CaptureDate(exif: "2024:03:14 09:26:53"))
        #expect(info.camera == "Apple iPhone 15")
        // Not asked: not read.
        #expect(try decoder.probe(path).captured == nil)
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
    /// thumbnail; one needing 200x100 the whole image, averaged in 2 x 2 blocks.
    @Test func aCoveringThumbnailIsDecodedInstead() throws {
        let dir = Fixtures.directory()
        Self.write(dir + "/t.heic", width: 512, height: 384, avif: false, thumbnail: 128)
        let info = try decoder.probe(dir + "/t.heic")
        #expect(info.colorModel == "ycbcr, 1 thumbnail")
        let small = try decoder.decode(dir + "/t.heic", minimumSize: Size(width: 100, height: 60))
        #expect(small.bitmap.width == 128 && small.bitmap.height == 96)
        let large = try decoder.decode(dir + "/t.heic", minimumSize: Size(width: 200, height: 100))
        #expect(large.bitmap.width == 256 && large.bitmap.height == 192 && large.reduction == 2)
        let resampled = large.bitmap.resampled(width: 128, height: 96)
        #expect(WebPTests.psnr(small.bitmap, resampled) >= 30)
    }

    /// Shrink-on-load: the planes averaged in k x k blocks and converted once per block
    /// give what libheif's full-size RGBA averaged the same way gives, for each matrix and
    /// range (before: always the full size, one decode at a time within the budget).
    @Test(arguments: [(false, 6, true), (true, 6, true), (false, 1, false), (true, 1, true), (true, 9, false), (false, 5, true)])
    func readReducedMatchesLibheifsConversion(avif: Bool, matrix: Int, fullRange: Bool) throws {
        let dir = Fixtures.directory()
        let path = dir + (avif ? "/r.avif" : "/r.heic")
        let (width, height) = (131, 97)
        try ColorSourcesTests.heif(
            path, avif: avif, primaries: 1, transfer: 13, matrix: matrix, fullRange: fullRange,
            pixels: WebPTests.rgba(width: width, height: height, alpha: false), width: width, height: height)
        let full = try decoder.decode(path).bitmap
        for k in [2, 3, 4] {
            let reduced = try decoder.decode(path, minimumSize: Size(width: width / k, height: height / k))
            #expect(reduced.reduction == k && reduced.bitmap.width == (width + k - 1) / k && reduced.bitmap.height == (height + k - 1) / k)
            // 131 / 2 = 65.5 of its 66 columns: the card is resampled from what the image
            // spans (it was the whole bitmap, the partial block stretching the scale).
            #expect(reduced.extent == (0, 0, Double(width) / Double(k), Double(height) / Double(k)))
            var worst = 0
            for oy in 0..<reduced.bitmap.height {
                for ox in 0..<reduced.bitmap.width {
                    var sums = [0, 0, 0], n = 0
                    for y in (oy * k)..<min(height, oy * k + k) {
                        for x in (ox * k)..<min(width, ox * k + k) {
                            let p = full[x, y]
                            sums[0] += Int(p.red); sums[1] += Int(p.green); sums[2] += Int(p.blue); n += 1
                        }
                    }
                    let p = reduced.bitmap[ox, oy]
                    for (got, sum) in zip([p.red, p.green, p.blue], sums) { worst = max(worst, abs(Int(got) - (sum + n / 2) / n)) }
                }
            }
            // libheif rounds each pixel's conversion; the block average rounds once.
            #expect(worst <= 2, "k \(k): largest difference \(worst)")
        }
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
