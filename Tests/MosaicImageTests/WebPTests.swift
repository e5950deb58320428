import CMosaicFixtures
import CMosaicShims
import Foundation
import MosaicImage
import MosaicLayout
import Testing

/// WebP: lossless and lossy, alpha, shrink-on-load through libwebp's scaling, EXIF
/// orientation from a VP8X file's EXIF chunk, and broken files as errors naming them.
@Suite struct WebPTests {
    let decoder = ImageDecoder()

    /// A photo-like RGBA picture: gradients, a block, alpha across the width.
    static func rgba(width: Int, height: Int, alpha: Bool) -> [UInt8] {
        let rgb = Fixtures.picture(width: width, height: height)
        var out: [UInt8] = []
        out.reserveCapacity(width * height * 4)
        for i in 0..<(width * height) {
            out += [rgb[3 * i], rgb[3 * i + 1], rgb[3 * i + 2], alpha ? UInt8((i % width) * 255 / max(1, width - 1)) : 255]
        }
        return out
    }

    static func write(_ path: String, width: Int, height: Int, alpha: Bool = false, lossless: Bool = false) {
        let pixels = rgba(width: width, height: height, alpha: alpha)
        let result = pixels.withUnsafeBufferPointer {
            mosaic_webp_encode_file(path, $0.baseAddress, Int32(width), Int32(height), 90, lossless ? 1 : 0)
        }
        precondition(result.status == MOSAIC_OK)
    }

    static func psnr(_ a: Bitmap, _ b: Bitmap) -> Double {
        var squares = 0.0
        for (u, v) in zip(a.pixels, b.pixels) { squares += Double((Int(u) - Int(v)) * (Int(u) - Int(v))) }
        let mse = squares / Double(a.pixels.count)
        return mse == 0 ? .infinity : 10 * log10(255 * 255 / mse)
    }

    @Test func losslessWithAlphaIsExact() throws {
        let dir = Fixtures.directory()
        Self.write(dir + "/a.webp", width: 40, height: 30, alpha: true, lossless: true)
        let info = try decoder.probe(dir + "/a.webp")
        #expect(info.format == .webp && info.size == Size(width: 40, height: 30) && info.hasAlpha && info.colorModel == "lossless")
        let bitmap = try decoder.decode(dir + "/a.webp").bitmap
        let source = Self.rgba(width: 40, height: 30, alpha: true)
        for i in 0..<(40 * 30) {
            let expected = RGBA(straightRed: source[4 * i], green: source[4 * i + 1], blue: source[4 * i + 2], alpha: source[4 * i + 3])
            #expect(bitmap[i % 40, i / 40] == expected)
        }
    }

    @Test func lossyIsCloseToTheSource() throws {
        let dir = Fixtures.directory()
        Self.write(dir + "/l.webp", width: 64, height: 48)
        let info = try decoder.probe(dir + "/l.webp")
        #expect(info.colorModel == "lossy" && !info.hasAlpha)
        let decoded = try decoder.decode(dir + "/l.webp").bitmap
        let source = Bitmap(width: 64, height: 48, pixels: Self.rgba(width: 64, height: 48, alpha: false))!
        #expect(Self.psnr(decoded, source) >= 30)
    }

    /// Shrunk on load by libwebp to the smallest size that covers the request, and close
    /// to the full decode resampled there.
    @Test func shrinkOnLoadCoversTheRequest() throws {
        let dir = Fixtures.directory()
        Self.write(dir + "/big.webp", width: 800, height: 600)
        let scaled = try decoder.decode(dir + "/big.webp", minimumSize: Size(width: 200, height: 100))
        #expect(scaled.bitmap.width == 200 && scaled.bitmap.height == 150)
        let full = try decoder.decode(dir + "/big.webp").bitmap.resampled(width: 200, height: 150)
        #expect(Self.psnr(scaled.bitmap, full) >= 35)
        #expect(try decoder.decode(dir + "/big.webp", minimumSize: Size(width: 900, height: 10)).bitmap.width == 800)
    }

    /// A VP8X file with an EXIF chunk after the image data: the orientation is read (the
    /// probe asks for the whole file) and applied.
    @Test func exifOrientationFromTheExifChunk() throws {
        let dir = Fixtures.directory()
        Self.write(dir + "/plain.webp", width: 40, height: 30)
        let plain = Fixtures.bytes(dir + "/plain.webp")
        let image = Array(plain[12...])  // the VP8 chunk
        func le32(_ v: Int) -> [UInt8] { [UInt8(v & 0xFF), UInt8(v >> 8 & 0xFF), UInt8(v >> 16 & 0xFF), UInt8(v >> 24 & 0xFF)] }
        func le24(_ v: Int) -> [UInt8] { [UInt8(v & 0xFF), UInt8(v >> 8 & 0xFF), UInt8(v >> 16 & 0xFF)] }
        var exif = Fixtures.exif(orientation: 6, withHeader: false)
        if exif.count % 2 == 1 { exif.append(0) }
        let vp8x = Array("VP8X".utf8) + le32(10) + [0x08, 0, 0, 0] + le24(39) + le24(29)
        let exifChunk = Array("EXIF".utf8) + le32(exif.count) + exif
        let body = Array("WEBP".utf8) + vp8x + image + exifChunk
        let file = Array("RIFF".utf8) + le32(body.count) + body
        Fixtures.write(file, to: dir + "/rotated.webp")
        let info = try decoder.probe(dir + "/rotated.webp")
        #expect(info.orientation == .right)
        let upright = try decoder.decode(dir + "/rotated.webp").bitmap
        #expect(upright.width == 30 && upright.height == 40)
    }

    @Test func brokenFilesAreErrorsNamingThem() throws {
        let dir = Fixtures.directory()
        Self.write(dir + "/ok.webp", width: 64, height: 48)
        let bytes = Fixtures.bytes(dir + "/ok.webp")
        Fixtures.write(Array(bytes.prefix(bytes.count / 2)), to: dir + "/cut.webp")
        #expect(throws: ImageDecodingError.codec(path: dir + "/cut.webp", format: .webp, message: "the file ends early")) {
            try decoder.decode(dir + "/cut.webp")
        }
        var corrupt = bytes
        for i in 40..<min(corrupt.count, 200) { corrupt[i] = 0xFF }
        Fixtures.write(corrupt, to: dir + "/corrupt.webp")
        #expect(throws: ImageDecodingError.self) { try decoder.decode(dir + "/corrupt.webp") }
        Fixtures.write(Array(bytes.prefix(14)), to: dir + "/header.webp")
        #expect(throws: ImageDecodingError.self) { try decoder.probe(dir + "/header.webp") }
        // Oversized: refused from the header, before any pixel memory.
        let small = ImageDecoder(limits: ImageLimits(maximumInputPixels: 1000))
        #expect(throws: ImageDecodingError.tooLarge(path: dir + "/ok.webp", width: 64, height: 48, limit: 1000)) {
            try small.decode(dir + "/ok.webp")
        }
    }

    /// An animated WebP put together chunk by chunk: a `canvas` (VP8X, ANIM) and `frames`
    /// ANMF frames, each the same 1x1 lossless bitstream at (2, 2). 70 bytes a frame.
    static func animation(canvas: Size, frames: Int) throws -> [UInt8] {
        func le(_ v: Int, _ count: Int) -> [UInt8] { (0..<count).map { UInt8(v >> (8 * $0) & 0xFF) } }
        func chunk(_ tag: String, _ payload: [UInt8]) -> [UInt8] {
            Array(tag.utf8) + le(payload.count, 4) + payload + (payload.count % 2 == 1 ? [0] : [])
        }
        let dir = Fixtures.directory()
        let pixel: [UInt8] = [200, 30, 60, 255]
        let encoded = pixel.withUnsafeBufferPointer { mosaic_webp_encode_file(dir + "/pixel.webp", $0.baseAddress, 1, 1, 90, 1) }
        try #require(encoded.status == MOSAIC_OK)
        // RIFF header (12 bytes), then the still image's one chunk: VP8L.
        let bitstream = Array(Fixtures.bytes(dir + "/pixel.webp").dropFirst(12))
        var body = chunk("VP8X", [0x02, 0, 0, 0] + le(canvas.width - 1, 3) + le(canvas.height - 1, 3))
        body += chunk("ANIM", [0, 0, 0, 0] + le(0, 2))
        let frame = chunk("ANMF", le(1, 3) + le(1, 3) + le(0, 3) + le(0, 3) + le(100, 3) + [0] + bitstream)
        for _ in 0..<frames { body += frame }
        return Array("RIFF".utf8) + le(4 + body.count, 4) + Array("WEBP".utf8) + body
    }

    /// A 144-byte animation declaring a 16384 x 16384 canvas took 3.2 GB
    /// and seconds, and under a memory limit its failure read "corrupt": its canvas is
    /// counted against the per-image limit first (libwebp holds it three times) and
    /// refused before any allocation. A canvas within the limit still decodes.
    @Test func aHugeAnimatedCanvasIsRefusedBeforeAnyAllocation() throws {
        let dir = Fixtures.directory()
        Fixtures.write(try Self.animation(canvas: Size(width: 16384, height: 16384), frames: 2), to: dir + "/huge.webp")
        let info = try decoder.probe(dir + "/huge.webp")
        #expect(info.size == Size(width: 16384, height: 16384))
        let started = Date()
        #expect(throws: ImageDecodingError.overMemoryLimit(path: dir + "/huge.webp", bytes: 16384 * 16384 * 4 * 3, limit: ImageLimits.defaultDecodeMemory)) {
            try decoder.decode(dir + "/huge.webp", minimumSize: Size(width: 260, height: 260))
        }
        #expect(Date().timeIntervalSince(started) < 1)
        #expect(
            ImageDecodingError.overMemoryLimit(path: "huge.webp", bytes: 16384 * 16384 * 4 * 3, limit: ImageLimits.defaultDecodeMemory).description
                == "huge.webp: decoding needs 3072 MB, more than the limit of 1088 MB per image")
        Fixtures.write(try Self.animation(canvas: Size(width: 40, height: 30), frames: 2), to: dir + "/small.webp")
        let small = try decoder.decode(dir + "/small.webp", minimumSize: Size(width: 10, height: 10)).bitmap
        #expect(small.width == 40 && small.height == 30)
        #expect(small[2, 2] == RGBA(red: 200, green: 30, blue: 60))
        #expect(small[0, 0] == RGBA(red: 0, green: 0, blue: 0, alpha: 0))
        let tight = ImageDecoder(limits: ImageLimits(maximumDecodeMemory: 40 * 30 * 4 * 3 - 1))
        #expect(throws: ImageDecodingError.overMemoryLimit(path: dir + "/small.webp", bytes: 40 * 30 * 4 * 3, limit: 40 * 30 * 4 * 3 - 1)) {
            try tight.decode(dir + "/small.webp")
        }
    }

    /// A 3,000-frame animation's frame count is the demuxer's over the whole file: the
    /// probe read a 64 KiB prefix and counted the frames in it ("animation (1309 frames)").
    @Test func theFrameCountOfALongAnimationIsTheWholeFiles() throws {
        let dir = Fixtures.directory()
        let bytes = try Self.animation(canvas: Size(width: 40, height: 30), frames: 3000)
        #expect(bytes.count > 2 * 64 * 1024)
        Fixtures.write(bytes, to: dir + "/long.webp")
        #expect(try decoder.probe(dir + "/long.webp").colorModel == "animation (3000 frames)")
    }
}
