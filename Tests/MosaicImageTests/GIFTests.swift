import CMosaicFixtures
import CMosaicShims
import Foundation
import MosaicImage
import MosaicLayout
import Testing

/// GIF: the first image on the logical screen, transparency, interlacing, and broken
/// files as errors naming them.
@Suite struct GIFTests {
    let decoder = ImageDecoder()
    /// 16 colours: index i is (16 i, 255 - 16 i, 7 i).
    static let palette: [UInt8] = (0..<16).flatMap { (i: Int) -> [UInt8] in
        let c = colour(i)
        return [c.red, c.green, c.blue]
    }

    static func colour(_ index: Int) -> RGBA { RGBA(red: UInt8(index * 16), green: UInt8(255 - index * 16), blue: UInt8(index * 7)) }

    /// Writes a GIF whose image's index at (x, y) is (x + 2 y) % 16.
    static func write(
        _ path: String, screen: Size, frame: Rect, interlaced: Bool = false, transparent: Int = -1, frames: Int = 1
    ) {
        let indices = (0..<(frame.width * frame.height)).map { UInt8(($0 % frame.width + 2 * ($0 / frame.width)) % 16) }
        let result = palette.withUnsafeBufferPointer { palette in
            indices.withUnsafeBufferPointer { indices in
                var fixture = mosaic_gif_fixture()
                fixture.screen_width = Int32(screen.width)
                fixture.screen_height = Int32(screen.height)
                fixture.left = Int32(frame.minX)
                fixture.top = Int32(frame.minY)
                fixture.width = Int32(frame.width)
                fixture.height = Int32(frame.height)
                fixture.interlaced = interlaced ? 1 : 0
                fixture.palette = palette.baseAddress
                fixture.palette_count = 16
                fixture.indices = indices.baseAddress
                fixture.transparent = Int32(transparent)
                fixture.frames = Int32(frames)
                return mosaic_gif_encode_file(path, &fixture)
            }
        }
        precondition(result.status == MOSAIC_OK)
    }

    @Test(arguments: [false, true])
    func theFirstImageIsExact(interlaced: Bool) throws {
        let dir = Fixtures.directory()
        Self.write(dir + "/a.gif", screen: Size(width: 20, height: 13), frame: Rect(x: 0, y: 0, width: 20, height: 13), interlaced: interlaced, frames: 2)
        let info = try decoder.probe(dir + "/a.gif")
        #expect(info.format == .gif && info.size == Size(width: 20, height: 13) && !info.hasAlpha)
        #expect(info.interlacing == (interlaced ? .interlaced : nil))
        let bitmap = try decoder.decode(dir + "/a.gif").bitmap
        for y in 0..<13 {
            for x in 0..<20 { #expect(bitmap[x, y] == Self.colour((x + 2 * y) % 16), "(\(x), \(y))") }
        }
    }

    /// A transparent index and an image smaller than the screen: transparent around it.
    @Test func transparencyAndTheScreen() throws {
        let dir = Fixtures.directory()
        Self.write(dir + "/t.gif", screen: Size(width: 12, height: 10), frame: Rect(x: 3, y: 2, width: 6, height: 5), transparent: 0)
        let info = try decoder.probe(dir + "/t.gif")
        #expect(info.hasAlpha && info.size == Size(width: 12, height: 10))
        let bitmap = try decoder.decode(dir + "/t.gif").bitmap
        #expect(bitmap[0, 0] == .transparent && bitmap[11, 9] == .transparent)
        #expect(bitmap[3, 2] == .transparent)  // index 0
        #expect(bitmap[4, 2] == Self.colour(1))
        #expect(bitmap[3 + 5, 2 + 4] == Self.colour((5 + 8) % 16))
    }

    @Test func brokenFilesAreErrorsNamingThem() throws {
        let dir = Fixtures.directory()
        Self.write(dir + "/ok.gif", screen: Size(width: 64, height: 64), frame: Rect(x: 0, y: 0, width: 64, height: 64))
        let bytes = Fixtures.bytes(dir + "/ok.gif")
        Fixtures.write(Array(bytes.prefix(bytes.count - 40)), to: dir + "/cut.gif")
        #expect(throws: ImageDecodingError.codec(path: dir + "/cut.gif", format: .gif, message: "the file ends early")) {
            try decoder.decode(dir + "/cut.gif")
        }
        Fixtures.write(Array(bytes.prefix(10)), to: dir + "/header.gif")
        #expect(throws: ImageDecodingError.codec(path: dir + "/header.gif", format: .gif, message: "the file ends early")) {
            try decoder.probe(dir + "/header.gif")
        }
        // No image at all: the trailer right after the screen descriptor and colour table.
        Fixtures.write(Array(bytes.prefix(13 + 48)) + [0x3B], to: dir + "/empty.gif")
        #expect(throws: ImageDecodingError.codec(path: dir + "/empty.gif", format: .gif, message: "the file has no image")) {
            try decoder.decode(dir + "/empty.gif")
        }
        let small = ImageDecoder(limits: ImageLimits(maximumInputPixels: 1000))
        #expect(throws: ImageDecodingError.tooLarge(path: dir + "/ok.gif", width: 64, height: 64, limit: 1000)) {
            try small.decode(dir + "/ok.gif")
        }
    }

    /// A GIF's logical screen is decoded whole, whatever its image: a 16384 x 16384 screen
    /// around a 4 x 4 image (a file of a few dozen bytes) is counted from the header, before
    /// any allocation, against the per-image memory limit (the default admits it, as it
    /// admits every input the pixel limit does; here a limit of 1 GiB refuses it).
    @Test func aHugeScreenIsRefusedBeforeAnyAllocation() throws {
        let dir = Fixtures.directory()
        Self.write(dir + "/huge.gif", screen: Size(width: 16384, height: 16384), frame: Rect(x: 0, y: 0, width: 4, height: 4))
        let started = Date()
        #expect(throws: ImageDecodingError.overMemoryLimit(path: dir + "/huge.gif", bytes: 16384 * 16384 * 4 + 16384, limit: 1 << 30)) {
            try ImageDecoder(limits: ImageLimits(maximumDecodeMemory: 1 << 30)).decode(dir + "/huge.gif", minimumSize: Size(width: 260, height: 260))
        }
        #expect(Date().timeIntervalSince(started) < 1)
    }
}
