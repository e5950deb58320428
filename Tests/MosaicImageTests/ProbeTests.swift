import Foundation
import MosaicImage
import Testing

@Suite struct ProbeTests {
    let decoder = ImageDecoder()

    @Test func formatComesFromTheSignatureNotTheExtension() throws {
        let dir = Fixtures.directory()
        Fixtures.writePNG(dir + "/really-a-png.jpg", width: 3, height: 2, rows: [UInt8](repeating: 9, count: 18), .init(colorType: 2))
        let info = try decoder.probe(dir + "/really-a-png.jpg")
        #expect(info.format == .png)
        #expect((info.width, info.height) == (3, 2))
        Fixtures.write(Array("hello, world".utf8), to: dir + "/text.png")
        #expect(throws: ImageDecodingError.unsupportedFormat(path: dir + "/text.png", signature: Array("hello, world".utf8), readable: CodecRegistry.standard.names)) {
            try decoder.probe(dir + "/text.png")
        }
        Fixtures.write([], to: dir + "/empty.jpg")
        #expect(throws: ImageDecodingError.unsupportedFormat(path: dir + "/empty.jpg", signature: [], readable: CodecRegistry.standard.names)) {
            try decoder.probe(dir + "/empty.jpg")
        }
    }

    @Test func missingFilesAndDirectories() throws {
        let dir = Fixtures.directory()
        #expect(throws: ImageDecodingError.unreadable(path: dir + "/nope.jpg", reason: "No such file or directory")) {
            try decoder.probe(dir + "/nope.jpg")
        }
        #expect(throws: ImageDecodingError.unreadable(path: dir, reason: "it is a directory")) { try decoder.probe(dir) }
    }

    /// A FIFO or a device is never opened for reading (a FIFO blocked the probe forever;
    /// /dev/zero never ends): the exact kind is named. Its message never shows bytes.
    @Test func specialFilesAreNeverRead() throws {
        let dir = Fixtures.directory()
        try #require(mkfifo(dir + "/pipe.jpg", 0o644) == 0)
        #expect(throws: ImageDecodingError.notAFile(path: dir + "/pipe.jpg", kind: "a FIFO (named pipe)")) { try decoder.probe(dir + "/pipe.jpg") }
        #expect(throws: ImageDecodingError.notAFile(path: dir + "/pipe.jpg", kind: "a FIFO (named pipe)")) { try decoder.decode(dir + "/pipe.jpg") }
        #expect(throws: ImageDecodingError.notAFile(path: "/dev/zero", kind: "a character device")) { try decoder.probe("/dev/zero") }
        #expect(ImageDecodingError.notAFile(path: "p", kind: "a socket").description == "p: not a file: it is a socket (not read)")
        #expect(ImageDecodingError.unsupportedFormat(path: "s", signature: Array("root:*:1".utf8), readable: CodecRegistry.standard.names).reason == "not a RAW, JPEG, PNG, WebP, GIF, HEIF, AVIF, TIFF, JPEG XL or video file")
    }

    @Test(arguments: 1...8)
    func jpegOrientationFromExif(orientation: Int) throws {
        let dir = Fixtures.directory()
        let path = dir + "/o\(orientation).jpg"
        Fixtures.writeJPEG(path, pixels: Fixtures.picture(width: 40, height: 30), width: 40, height: 30, components: 3, app1: Fixtures.exif(orientation: orientation, bigEndian: orientation % 2 == 0))
        let info = try decoder.probe(path)
        #expect(info.orientation.rawValue == orientation)
        #expect((info.width, info.height) == (40, 30))
        let swapped = orientation >= 5
        #expect((info.orientedWidth, info.orientedHeight) == (swapped ? 30 : 40, swapped ? 40 : 30))
    }

    @Test func invalidOrientationValuesCountAsUp() throws {
        let dir = Fixtures.directory()
        for value in [0, 9, 65535] {
            Fixtures.writeJPEG(dir + "/bad.jpg", pixels: Fixtures.picture(width: 8, height: 8), width: 8, height: 8, components: 3, app1: Fixtures.exif(orientation: value))
            #expect(try decoder.probe(dir + "/bad.jpg").orientation == .up)
        }
    }

    @Test func pngOrientationFromExif() throws {
        let dir = Fixtures.directory()
        Fixtures.writePNG(dir + "/o6.png", width: 4, height: 2, rows: [UInt8](repeating: 200, count: 24), .init(colorType: 2, exif: Fixtures.exif(orientation: 6, withHeader: false)))
        let info = try decoder.probe(dir + "/o6.png")
        #expect(info.orientation == .right)
        #expect((info.orientedWidth, info.orientedHeight) == (2, 4))
    }

    @Test func theSamplePortraitIsUpright() throws {
        let path = samplePhotos + "/astronaut-portrait-exif6.jpg"
        let info = try decoder.probe(path)
        #expect((info.width, info.height, info.orientation) == (512, 300, .right))
        #expect((info.orientedWidth, info.orientedHeight) == (300, 512))
    }

    @Test func jpegKinds() throws {
        let dir = Fixtures.directory()
        let rgb = Fixtures.picture(width: 16, height: 16)
        Fixtures.writeJPEG(dir + "/p.jpg", pixels: rgb, width: 16, height: 16, components: 3, progressive: true)
        Fixtures.writeJPEG(dir + "/g.jpg", pixels: [UInt8](repeating: 80, count: 256), width: 16, height: 16, components: 1)
        Fixtures.writeJPEG(dir + "/c.jpg", pixels: [UInt8](repeating: 80, count: 1024), width: 16, height: 16, components: 4)
        Fixtures.writeJPEG(dir + "/y.jpg", pixels: [UInt8](repeating: 80, count: 1024), width: 16, height: 16, components: 4, ycck: true)
        #expect(try decoder.probe(dir + "/p.jpg").isProgressive)
        #expect(try decoder.probe(dir + "/g.jpg").colorModel == "grey")
        #expect(try decoder.probe(dir + "/c.jpg").colorModel == "cmyk")
        #expect(try decoder.probe(dir + "/y.jpg").colorModel == "ycck")
        #expect(try decoder.probe(dir + "/p.jpg").colorModel == "ycbcr")
    }

    @Test func pngKinds() throws {
        let dir = Fixtures.directory()
        Fixtures.writePNG(dir + "/a.png", width: 2, height: 2, rows: [UInt8](repeating: 7, count: 16), .init(colorType: 6))
        Fixtures.writePNG(dir + "/t.png", width: 2, height: 2, rows: [0, 1, 1, 0], .init(colorType: 3, palette: [255, 0, 0, 0, 0, 255], trns: [0, 255]))
        Fixtures.writePNG(dir + "/i.png", width: 9, height: 9, rows: [UInt8](repeating: 7, count: 9 * 9 * 2), .init(colorType: 0, bitDepth: 16, interlaced: true))
        let a = try decoder.probe(dir + "/a.png"), t = try decoder.probe(dir + "/t.png"), i = try decoder.probe(dir + "/i.png")
        #expect(a.hasAlpha && a.colorModel == "rgba")
        #expect(t.hasAlpha && t.colorModel == "palette")
        #expect(!i.hasAlpha && i.isProgressive && i.bitDepth == 16)
    }

    /// A 12 MP JPEG's headers come from its first 64 KiB: probing never needs the scan data.
    @Test func probingReadsHeadersOnly() throws {
        let dir = Fixtures.directory()
        let (w, h) = (4032, 3024)
        var rgb = [UInt8](repeating: 0, count: w * h * 3)
        for i in stride(from: 0, to: rgb.count, by: 7) { rgb[i] = UInt8(truncatingIfNeeded: i &* 31) }  // noisy: a large file
        Fixtures.writeJPEG(dir + "/big.jpg", pixels: rgb, width: w, height: h, components: 3, quality: 90, app1: Fixtures.exif(orientation: 6))
        let file = Fixtures.bytes(dir + "/big.jpg")
        #expect(file.count > 1_000_000)
        let prefix = Array(file.prefix(64 * 1024))
        let info = try #require(try decoder.probe(bytes: prefix, isWholeFile: false, path: "big.jpg"))
        #expect((info.width, info.height, info.orientation) == (w, h, .right))
        // Scan data replaced by garbage: the probe does not notice.
        var damaged = file
        for i in (70 * 1024)..<damaged.count { damaged[i] = 0x5A }
        Fixtures.write(damaged, to: dir + "/damaged.jpg")
        #expect(try decoder.probe(dir + "/damaged.jpg").width == w)
    }

    /// Headers longer than the first read (a big APP1) make the probe read more.
    @Test func longHeadersAreReadInFull() throws {
        let dir = Fixtures.directory()
        var app1 = Fixtures.exif(orientation: 3)
        app1 += [UInt8](repeating: 0, count: 65_000 - app1.count)
        Fixtures.writeJPEG(dir + "/long.jpg", pixels: Fixtures.picture(width: 8, height: 8), width: 8, height: 8, components: 3, app1: app1)
        let bytes = Fixtures.bytes(dir + "/long.jpg")
        #expect(try decoder.probe(bytes: Array(bytes.prefix(1000)), isWholeFile: false, path: "long.jpg") == nil)
        #expect(try decoder.probe(dir + "/long.jpg").orientation == .down)
    }
}

/// The repository's SampleImages (public-domain and CC0 photos; see CREDITS.md there).
let samplePhotos: String = {
    let here = URL(fileURLWithPath: #filePath)
    let root = here.deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
    return root.appendingPathComponent("SampleImages").path
}()
