import CMosaicFixtures
import CMosaicShims
import Foundation
import MosaicImage
import MosaicLayout
import Testing

/// Camera RAW files through LibRaw: recognised by content before TIFF, drawn from a
/// preview or the raw data as the size asks, upright, and named when they cannot be drawn.
@Suite struct RawTests {
    let decoder = ImageDecoder()
    static let realFiles = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("Fixtures/Raw").path

    /// The scene as stored: red top-left, green top-right, blue bottom-left, grey
    /// bottom-right (sRGB values).
    static func scene(_ x: Int, _ y: Int, width: Int, height: Int) -> (Int, Int, Int) {
        switch (x < width / 2, y < height / 2) {
        case (true, true): return (210, 40, 40)
        case (false, true): return (40, 190, 60)
        case (true, false): return (40, 60, 210)
        case (false, false): return (128, 128, 128)
        }
    }

    static func linear(_ value: Int) -> Double {
        let v = Double(value) / 255
        return v <= 0.04045 ? v / 12.92 : pow((v + 0.055) / 1.055, 2.4)
    }

    /// Writes a DNG of a 240 x 160 CFA of the scene, with a `previewWidth` x
    /// `previewHeight` JPEG preview of it unless that is 0.
    static func writeDNG(
        _ path: String, orientation: Int = 1, previewWidth: Int = 120, previewHeight: Int = 80, adobeRGB: Bool = false, damage: Int = 0,
        jpegXL: Bool = false, previewColor: ((Int, Int, Int)) -> (Int, Int, Int) = { $0 }
    ) {
        let (width, height) = (240, 160)
        var cfa = [UInt16](repeating: 0, count: width * height)
        for y in 0..<height {
            for x in 0..<width {
                let (r, g, b) = scene(x, y, width: width, height: height)
                let channel = y % 2 == 0 ? (x % 2 == 0 ? r : g) : (x % 2 == 0 ? g : b)
                cfa[y * width + x] = UInt16((linear(channel) * 60000).rounded())
            }
        }
        var preview: [UInt8] = []
        for y in 0..<previewHeight {
            for x in 0..<previewWidth {
                let (r, g, b) = previewColor(scene(x, y, width: previewWidth, height: previewHeight))
                preview += [UInt8(r), UInt8(g), UInt8(b), 255]
            }
        }
        let result = cfa.withUnsafeBufferPointer { samples in preview.withUnsafeBufferPointer { rgba in
            var fixture = mosaic_dng_fixture()
            fixture.width = Int32(width)
            fixture.height = Int32(height)
            fixture.cfa = samples.baseAddress
            fixture.orientation = Int32(orientation)
            if previewWidth > 0 {
                fixture.preview_rgba = rgba.baseAddress
                fixture.preview_width = Int32(previewWidth)
                fixture.preview_height = Int32(previewHeight)
            }
            fixture.preview_adobe_rgb = adobeRGB ? 1 : 0
            fixture.damage = Int32(damage)
            fixture.jpeg_xl = jpegXL ? 1 : 0
            return mosaic_dng_encode_file(path, &fixture)
        } }
        #expect(result.status == MOSAIC_OK, "fixture DNG \(path) failed")
    }

    /// The pixel at a fraction of the bitmap's size.
    static func pixel(_ bitmap: Bitmap, _ fx: Double, _ fy: Double) -> (Int, Int, Int) {
        let x = Int(Double(bitmap.width) * fx), y = Int(Double(bitmap.height) * fy)
        let i = (y * bitmap.width + x) * 4
        return (Int(bitmap.pixels[i]), Int(bitmap.pixels[i + 1]), Int(bitmap.pixels[i + 2]))
    }

    static func isRed(_ p: (Int, Int, Int)) -> Bool { p.0 > p.1 + 60 && p.0 > p.2 + 60 }

    @Test func aDNGIsRecognisedBeforeTIFFAndProbedWithItsPreview() throws {
        let path = Fixtures.directory() + "/a.dng"
        Self.writeDNG(path)
        let info = try decoder.probe(path)
        #expect(info.format == .raw)
        #expect(info.width == 240 && info.height == 160)
        #expect(info.orientation == .up)
        #expect(info.previews == [Size(width: 120, height: 80)])
        #expect(info.colorModel.name == "DNG raw, 1 preview")
        // Without the RAW codec, the same file is a TIFF (its preview directory).
        let tiffOnly = ImageDecoder(codecs: CodecRegistry(codecs: CodecRegistry.standard.codecs.filter { $0.format != .raw }))
        #expect(try tiffOnly.probe(path).format == .tiff)
    }

    @Test(arguments: [(6, Orientation.right), (8, Orientation.left)])
    func orientationTurnsTheCardUpright(exif: Int, orientation: Orientation) throws {
        let path = Fixtures.directory() + "/turned.dng"
        Self.writeDNG(path, orientation: exif)
        let info = try decoder.probe(path)
        #expect(info.orientation == orientation)
        #expect(info.orientedWidth == 160 && info.orientedHeight == 240)
        // From the preview and from the raw data alike: the stored top-left (red) lands at
        // the top right (6: a quarter turn clockwise) or the bottom left (8).
        for minimum in [Size(width: 40, height: 60), Size(width: 160, height: 240)] {
            let decoded = try decoder.decode(path, minimumSize: minimum)
            #expect(decoded.bitmap.width < decoded.bitmap.height)
            let corner = exif == 6 ? Self.pixel(decoded.bitmap, 0.75, 0.25) : Self.pixel(decoded.bitmap, 0.25, 0.75)
            #expect(Self.isRed(corner), "\(minimum): \(corner)")
        }
    }

    @Test func autoDrawsThePreviewThatCoversTheSizeElseTheRawData() throws {
        let path = Fixtures.directory() + "/a.dng"
        Self.writeDNG(path)
        // The 120 x 80 preview covers 100 x 60: JPEG-decoded, DCT-scaled.
        let small = try decoder.decode(path, minimumSize: Size(width: 50, height: 30))
        #expect(small.bitmap.width == 60 && small.bitmap.height == 40)
        #expect(small.warning == nil)
        // 110 x 75: the preview still.
        let preview = try decoder.decode(path, minimumSize: Size(width: 110, height: 75))
        #expect(preview.bitmap.width == 120 && preview.bitmap.height == 80)
        // 121 x 80: no preview covers it, half-size (120 x 80) does not: the full demosaic.
        let full = try decoder.decode(path, minimumSize: Size(width: 121, height: 80))
        #expect(full.bitmap.width == 240 && full.bitmap.height == 160)
        #expect(Self.isRed(Self.pixel(full.bitmap, 0.25, 0.25)))
        #expect(full.warning == nil)
    }

    @Test func halfSizeWhenItCoversAndThereIsNoPreview() throws {
        let path = Fixtures.directory() + "/none.dng"
        Self.writeDNG(path, previewWidth: 0, previewHeight: 0)
        let info = try decoder.probe(path)
        #expect(info.previews == nil)
        #expect(info.colorModel.name == "DNG raw, no preview")
        let half = try decoder.decode(path, minimumSize: Size(width: 100, height: 60))
        #expect(half.bitmap.width == 120 && half.bitmap.height == 80)
        #expect(half.reduction == 2)
        let colours = [(0.25, 0.25), (0.75, 0.25), (0.25, 0.75)].map { Self.pixel(half.bitmap, $0.0, $0.1) }
        #expect(Self.isRed(colours[0]))
        #expect(colours[1].1 > colours[1].0 + 60 && colours[1].1 > colours[1].2 + 40, "green: \(colours[1])")
        #expect(colours[2].2 > colours[2].0 + 60 && colours[2].2 > colours[2].1 + 60, "blue: \(colours[2])")
    }

    @Test func rawSettingForcesThePreviewOrTheRawData() throws {
        let path = Fixtures.directory() + "/a.dng"
        Self.writeDNG(path)
        let full = ImageDecoder(codecs: CodecRegistry.standard.replacing(RawCodec(drawing: .full)))
        #expect(try full.decode(path, minimumSize: Size(width: 20, height: 10)).bitmap.width == 240)
        let preview = ImageDecoder(codecs: CodecRegistry.standard.replacing(RawCodec(drawing: .preview)))
        #expect(try preview.decode(path, minimumSize: Size(width: 200, height: 150)).bitmap.width == 120)
        // The settings tell the registries apart (a sheet's digest).
        #expect(full.codecs != CodecRegistry.standard)
        #expect(full.codecs.description.hasPrefix("raw(full) jpeg"))
    }

    @Test func anAdobeRGBPreviewIsConvertedToSRGB() throws {
        let directory = Fixtures.directory()
        Self.writeDNG(directory + "/srgb.dng")
        Self.writeDNG(directory + "/adobe.dng", adobeRGB: true)
        let minimum = Size(width: 100, height: 60)
        let plain = Self.pixel(try decoder.decode(directory + "/srgb.dng", minimumSize: minimum).bitmap, 0.75, 0.25)
        let adobe = Self.pixel(try decoder.decode(directory + "/adobe.dng", minimumSize: minimum).bitmap, 0.75, 0.25)
        // Adobe RGB's green is deeper than sRGB's: in sRGB the same values have less red
        // and more green.
        #expect(adobe.0 + 10 < plain.0, "\(adobe) vs \(plain)")
        #expect(adobe.1 >= plain.1)
    }

    @Test func damagedRawDataWithAFinePreviewDrawsThePreviewAndWarns() throws {
        let path = Fixtures.directory() + "/cut.dng"
        Self.writeDNG(path, damage: 1)
        let decoded = try decoder.decode(path, minimumSize: Size(width: 200, height: 150))
        #expect(decoded.bitmap.width == 120)
        let warning = try #require(decoded.warning)
        #expect(warning.isDataLoss)
        #expect(warning.message == "the raw data is cut short: 38400 of the 76800 bytes its size needs; drawn from its 120x80 preview")
        // Strict: an error.
        let strict = ImageDecoder(strict: true)
        #expect(throws: ImageDecodingError.damaged(path: path, message: "the raw data is cut short: 38400 of the 76800 bytes its size needs")) {
            try strict.decode(path, minimumSize: Size(width: 200, height: 150))
        }
    }

    @Test func damagedRawDataWithoutAPreviewIsNamedUndrawable() throws {
        let path = Fixtures.directory() + "/cut.dng"
        Self.writeDNG(path, previewWidth: 0, previewHeight: 0, damage: 1)
        #expect(throws: ImageDecodingError.undrawable(path: path, format: .raw, reason: "the raw data is cut short: 38400 of the 76800 bytes its size needs")) {
            try decoder.decode(path, minimumSize: Size(width: 50, height: 30))
        }
    }

    /// A card from a preview reads the file's directories and the preview's bytes alone
    /// (`RawCodec.decodeReadingParts`), and is the card the whole file gives; what that
    /// reading cannot serve (the raw data wanted, a damaged preview) goes the whole way.
    @Test func aPreviewCardReadsOnlyTheDirectoriesAndThePreview() throws {
        let directory = Fixtures.directory()
        let path = directory + "/parts.dng"
        Self.writeDNG(path)
        let info = try decoder.probe(path)
        for minimum in [Size(width: 50, height: 30), Size(width: 110, height: 75)] {
            let request = DecodeRequest(path: path, minimumSize: minimum, premultiplyAlpha: true, strict: false)
            let parts = try #require(try RawCodec().decodeReadingParts(ofFile: path, info: info, request: request))
            let whole = try RawCodec().decode(try decoder.fileBytes(path), info: info, request: request)
            #expect(parts.bitmap == whole.bitmap && parts.warning == nil)
            #expect(try decoder.decode(path, probed: info, minimumSize: minimum).bitmap == whole.bitmap)
        }
        // No preview covers 121 x 80: the raw data, read whole.
        let request = DecodeRequest(path: path, minimumSize: Size(width: 121, height: 80), premultiplyAlpha: true, strict: false)
        #expect(try RawCodec().decodeReadingParts(ofFile: path, info: info, request: request) == nil)
        // A damaged preview: not served from the parts; the whole file's decode warns.
        let damaged = directory + "/damaged.dng"
        Self.writeDNG(damaged, damage: 2)
        let damagedInfo = try decoder.probe(damaged)
        let small = DecodeRequest(path: damaged, minimumSize: Size(width: 50, height: 30), premultiplyAlpha: true, strict: false)
        #expect(try RawCodec().decodeReadingParts(ofFile: damaged, info: damagedInfo, request: small) == nil)
        let decoded = try decoder.decode(damaged, probed: damagedInfo, minimumSize: Size(width: 50, height: 30))
        #expect(decoded.bitmap.width == 240)
        #expect(decoded.warning?.message.hasSuffix("); drawn from the raw data") == true)
    }

    @Test func aDamagedPreviewGivesWayToTheRawDataWithAWarning() throws {
        let path = Fixtures.directory() + "/preview.dng"
        Self.writeDNG(path, damage: 2)
        let decoded = try decoder.decode(path, minimumSize: Size(width: 50, height: 30))
        #expect(decoded.bitmap.width == 240)
        #expect(Self.isRed(Self.pixel(decoded.bitmap, 0.25, 0.25)))
        let warning = try #require(decoded.warning)
        #expect(warning.isDataLoss)
        #expect(warning.message.hasPrefix("the embedded preview is damaged ("), "\(warning.message)")
        #expect(warning.message.hasSuffix("); drawn from the raw data"))
    }

    @Test func aJPEGXLDNGIsNamedAsSuchNotAsACorruptTIFF() throws {
        let path = Fixtures.directory() + "/jxl.dng"
        Self.writeDNG(path, previewWidth: 0, previewHeight: 0, jpegXL: true)
        let reason = "DNG compressed with JPEG XL: LibRaw 0.20 cannot decode it"
        #expect(throws: ImageDecodingError.undrawable(path: path, format: .raw, reason: reason)) { try decoder.decode(path) }
        #expect(ImageDecodingError.undrawable(path: path, format: .raw, reason: reason).reason == "a RAW that cannot be drawn: \(reason)")
        // With a preview: the preview, and the reason as a warning.
        let withPreview = Fixtures.directory() + "/jxl-preview.dng"
        Self.writeDNG(withPreview, jpegXL: true)
        let decoded = try decoder.decode(withPreview, minimumSize: Size(width: 200, height: 150))
        #expect(decoded.warning?.message == "\(reason); drawn from its 120x80 preview")
    }

    @Test func aJPEGNamedLikeARawIsAJPEG() throws {
        let path = Fixtures.directory() + "/photo.nef"
        Fixtures.writeJPEG(path, pixels: [UInt8](repeating: 128, count: 8 * 8 * 3), width: 8, height: 8, components: 3)
        #expect(try decoder.probe(path).format == .jpeg)
    }

    @Test func aPlainTIFFStaysATIFF() throws {
        let path = Fixtures.directory() + "/scan.tif"
        TIFFTests.write(path)
        #expect(try decoder.probe(path).format == .tiff)
    }

    @Test func aRealKodakRawIsDeveloped() throws {
        let path = Self.realFiles + "/KodakDC50.kdc"
        let info = try decoder.probe(path)
        #expect(info.format == .raw)
        #expect(info.width == 768 && info.height == 512)
        #expect(info.colorModel.name == "KDC raw, no preview")
        let decoded = try decoder.decode(path, minimumSize: Size(width: 300, height: 200))
        #expect(decoded.bitmap.width == 384 && decoded.bitmap.height == 256)
        #expect(decoded.warning == nil)
        // A daylight scene: the image is neither black nor white.
        let mean = stride(from: 0, to: decoded.bitmap.pixels.count, by: 4).reduce(0) { $0 + Int(decoded.bitmap.pixels[$1 + 1]) } / (384 * 256)
        #expect(mean > 40 && mean < 220, "mean green \(mean)")
    }

    /// ExifTool's test files keep a camera file's headers and strip its image data.
    @Test(arguments: [
        ("CanonRaw.cr2", "CR2"), ("CanonRaw.cr3", "CR3"), ("CanonRaw.crw", "CRW"), ("DNG.dng", "DNG"), ("FujiFilm.raf", "RAF"),
        ("Nikon.nef", "NEF"), ("Panasonic.rw2", "RW2"), ("Minolta.mrw", "MRW"),
    ])
    func strippedRealFilesAreRecognisedByContent(name: String, kind: String) throws {
        let path = Self.realFiles + "/" + name
        let bytes = try [UInt8](Data(contentsOf: URL(fileURLWithPath: path)))
        #expect(CodecRegistry.standard.codec(forHeader: bytes)?.format == .raw)
        do {
            let info = try decoder.probe(path)
            #expect(info.colorModel.name.hasPrefix(kind + " raw"))
        } catch {
            // LibRaw cannot open some of them at all: named, not a corrupt TIFF.
            guard case .undrawable = error else { Issue.record("\(name): \(error)"); return }
        }
    }

    @Test(arguments: [
        ("CanonRaw.cr2", "the raw data was stripped from the file (16 bytes left of it)"),
        ("DNG.dng", "the raw data was stripped from the file (22 bytes left of it)"),
        ("Nikon.nef", "the raw data was stripped from the file (18 bytes left of it)"),
        ("Panasonic.rw2", "the raw data was stripped from the file (12344 bytes for a 3724x2754 sensor)"),
        ("CanonRaw.cr3", "the raw data was stripped from the file (52502 bytes for a 6288x4056 sensor)"),
    ])
    func strippedRawDataIsNamed(name: String, reason: String) throws {
        let path = Self.realFiles + "/" + name
        #expect(throws: ImageDecodingError.undrawable(path: path, format: .raw, reason: reason)) { try decoder.decode(path, minimumSize: Size(width: 100, height: 100)) }
    }

    /// A TIFF-based RAW whose directories come first is probed from a prefix (a camera's
    /// 25 MB file is not read whole to lay it out); other RAWs ask for the whole file.
    @Test func aTIFFBasedRawIsProbedFromAPrefix() throws {
        let kdc = try [UInt8](Data(contentsOf: URL(fileURLWithPath: Self.realFiles + "/KodakDC50.kdc")))
        let whole = try #require(try decoder.probe(bytes: kdc, isWholeFile: true, path: "k"))
        let prefix = try #require(try decoder.probe(bytes: Array(kdc.prefix(4096)), isWholeFile: false, path: "k"))
        #expect(prefix == whole)
        #expect(prefix.width == 768)
        let raf = try [UInt8](Data(contentsOf: URL(fileURLWithPath: Self.realFiles + "/FujiFilm.raf")))
        #expect(try decoder.probe(bytes: Array(raf.prefix(4096)), isWholeFile: false, path: "f") == nil)
    }

    @Test func aRAFWithoutItsRawDataIsDrawnFromItsPreview() throws {
        let path = Self.realFiles + "/FujiFilm.raf"
        let info = try decoder.probe(path)
        #expect(info.previews == [Size(width: 8, height: 8)])
        let decoded = try decoder.decode(path, minimumSize: Size(width: 100, height: 100))
        #expect(decoded.bitmap.width == 8)
        #expect(decoded.warning?.message == "the raw data was stripped from the file (38452 bytes for a 4352x1444 sensor); drawn from its 8x8 preview")
    }

    @Test func theRawCodecIsAskedFirst() {
        #expect(CodecRegistry.standard.codecs.first?.format == .raw)
        #expect(CodecRegistry.standard.claims(name: "IMG_0001.CR3"))
    }
}
