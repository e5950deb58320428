import Foundation
import MosaicImage
import MosaicLayout
import Testing

/// A format added from outside the module: binary PPM (P6), 8-bit. It proves the seam: one
/// type, registered in a registry, read by `ImageDecoder` with no other change.
struct PPMCodec: ImageCodec {
    static let format = ImageFormat(rawValue: "ppm")
    var format: ImageFormat { Self.format }
    var fileExtensions: [String] { ["ppm"] }

    func matches(signature: [UInt8]) -> Bool { signature.starts(with: Array("P6".utf8)) }

    /// "P6 W H 255\n" then RGB bytes.
    func header(_ bytes: [UInt8], path: String) throws(ImageDecodingError) -> (width: Int, height: Int, offset: Int) {
        var fields: [Int] = []
        var index = 2
        while fields.count < 3 {
            while index < bytes.count, bytes[index] == 0x20 || bytes[index] == 0x0A { index += 1 }
            var value = 0, digits = 0
            while index < bytes.count, (0x30...0x39).contains(bytes[index]) {
                value = value * 10 + Int(bytes[index] - 0x30)
                digits += 1
                index += 1
            }
            guard digits > 0 else { throw .codec(path: path, format: format, message: "a bad header") }
            fields.append(value)
        }
        return (fields[0], fields[1], index + 1)
    }

    func probe(_ bytes: [UInt8], isWholeFile: Bool, path: String) throws(ImageDecodingError) -> ImageInfo? {
        let (width, height, _) = try header(bytes, path: path)
        return ImageInfo(format: format, width: width, height: height, orientation: .up, hasAlpha: false, bitDepth: 8, colorModel: "rgb")
    }

    func decode(_ bytes: [UInt8], info: ImageInfo, request: DecodeRequest) throws(ImageDecodingError) -> DecodedImage {
        let (width, height, offset) = try header(bytes, path: request.path)
        guard bytes.count >= offset + width * height * 3 else {
            throw .codec(path: request.path, format: format, message: "the file ends early")
        }
        var bitmap = Bitmap(width: width, height: height)
        for y in 0..<height {
            for x in 0..<width {
                let i = offset + (y * width + x) * 3
                bitmap[x, y] = RGBA(red: bytes[i], green: bytes[i + 1], blue: bytes[i + 2])
            }
        }
        return DecodedImage(bitmap: bitmap, info: info, scaleEighths: 8, warning: nil)
    }

    func decodedBytes(_ info: ImageInfo, minimumSize: Size?) -> Int { info.width * info.height * 4 }
}

@Suite struct CodecRegistryTests {
    @Test func theStandardRegistryReadsEveryFormat() {
        #expect(CodecRegistry.standard.codecs.map(\.format) == [.raw, .jpeg, .png, .webp, .gif, .heif, .avif, .tiff, .jxl, .video])
        #expect(CodecRegistry.standard.formatNames == "RAW, JPEG, PNG, WebP, GIF, HEIF, AVIF, TIFF, JPEG XL or video")
        #expect(ImageFormat.webp.description == "WebP")
        #expect(ImageFormat.detect([0xFF, 0xD8, 0xFF, 0xE0], in: .standard) == .jpeg)
        #expect(ImageFormat.detect([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A], in: .standard) == .png)
        #expect(ImageFormat.detect(Array("P6 1 1 255\n".utf8), in: .standard) == nil)
    }

    /// The registry in use answers "which format is this" and names what it reads in its
    /// messages; before, the messages and `detect` read `CodecRegistry.standard` whatever
    /// the decoder was given.
    @Test func theRegistryInUseAnswers() throws {
        let own = CodecRegistry(codecs: [PPMCodec(), PNGCodec()])
        let decoder = ImageDecoder(codecs: own)
        #expect(ImageFormat.detect(Array("P6 1 1 255\n".utf8), in: own) == PPMCodec.format)
        #expect(ImageFormat.detect([0xFF, 0xD8, 0xFF, 0xE0], in: own) == nil)
        let error = #expect(throws: ImageDecodingError.self) { try decoder.probe(bytes: Array("hello, world, it is text".utf8), path: "t.txt") }
        #expect(error == .unsupportedFormat(path: "t.txt", signature: Array("hello, world, it".utf8), readable: ["PPM", "PNG"]))
        #expect(error?.reason == "not a PPM or PNG file")
        // A format known but not read is named, beside what this registry reads.
        let jp2 = Array("\0\0\0\u{0C}ftypjp2 ".utf8) + Array(repeating: 0, count: 12)
        let unread = #expect(throws: ImageDecodingError.self) { try decoder.probe(bytes: jp2, path: "a.jp2") }
        #expect(unread?.reason == "a JPEG 2000 image: mosaic reads PPM or PNG only")
    }

    @Test func aCodecAddedToARegistryIsRead() throws {
        let bytes = Array("P6 2 1 255\n".utf8) + [255, 0, 0, 0, 0, 255]
        let plain = ImageDecoder()
        #expect(throws: ImageDecodingError.unsupportedFormat(path: "x.ppm", signature: Array(bytes.prefix(16)), readable: CodecRegistry.standard.names)) {
            try plain.decode(bytes: bytes, path: "x.ppm")
        }
        let decoder = ImageDecoder(codecs: CodecRegistry(codecs: CodecRegistry.standard.codecs + [PPMCodec()]))
        let info = try #require(try decoder.probe(bytes: bytes, path: "x.ppm"))
        #expect(info.format == PPMCodec.format && info.size == Size(width: 2, height: 1))
        let decoded = try decoder.decode(bytes: bytes, path: "x.ppm")
        #expect(decoded.bitmap[0, 0] == RGBA(red: 255, green: 0, blue: 0))
        #expect(decoded.bitmap[1, 0] == RGBA(red: 0, green: 0, blue: 255))
        #expect(decoder.decodedBytes(info, minimumSize: nil) == 8)
        // The codec's own error, named by its format.
        #expect(throws: ImageDecodingError.codec(path: "y.ppm", format: PPMCodec.format, message: "the file ends early")) {
            try decoder.decode(bytes: Array(bytes.dropLast()), path: "y.ppm")
        }
        #expect(ImageDecodingError.codec(path: "y.ppm", format: PPMCodec.format, message: "m").description == "y.ppm: invalid PPM: m")
    }

    @Test func theDecodeBudgetAsksTheCodec() {
        let decoder = ImageDecoder()
        let jpeg = ImageInfo(format: .jpeg, width: 4032, height: 3024, orientation: .up, hasAlpha: false, bitDepth: 8, colorModel: "ycbcr")
        #expect(decoder.decodedBytes(jpeg, minimumSize: Size(width: 260, height: 195)) == 504 * 378 * 4)
        let unknown = ImageInfo(format: PPMCodec.format, width: 10, height: 10, orientation: .up, hasAlpha: false, bitDepth: 8, colorModel: "rgb")
        #expect(decoder.decodedBytes(unknown, minimumSize: nil) == 0)
    }
}
