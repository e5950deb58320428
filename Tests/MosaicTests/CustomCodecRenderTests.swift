import Foundation
import Mosaic
import Testing

/// A format from outside the package: "GREY", a width and a height (one byte each), then
/// one grey byte per pixel. It proves that the registry a program gives is the one the
/// renderer decodes with, not only the one the catalog probes with (before, the renderer
/// built its own decoder on the standard registry: the card became a placeholder).
struct GreyCodec: ImageCodec {
    static let format = ImageFormat(rawValue: "grey")
    var format: ImageFormat { Self.format }
    var fileExtensions: [String] { ["grey"] }

    func matches(signature: [UInt8]) -> Bool { signature.starts(with: Array("GREY".utf8)) }

    func probe(_ bytes: [UInt8], isWholeFile: Bool, path: String) throws(ImageDecodingError) -> ImageInfo? {
        guard bytes.count >= 6 else { return nil }  // more bytes, please
        return ImageInfo(format: format, width: Int(bytes[4]), height: Int(bytes[5]), orientation: .up, hasAlpha: false, bitDepth: 8, colorModel: "grey")
    }

    func decode(_ bytes: [UInt8], info: ImageInfo, request: DecodeRequest) throws(ImageDecodingError) -> DecodedImage {
        guard bytes.count >= 6 + info.width * info.height else { throw .codec(path: request.path, format: format, message: "the file ends early") }
        var bitmap = Bitmap(width: info.width, height: info.height)
        for y in 0..<info.height {
            for x in 0..<info.width {
                let v = bytes[6 + y * info.width + x]
                bitmap[x, y] = RGBA(red: v, green: v, blue: v)
            }
        }
        return DecodedImage(bitmap: bitmap, info: info, scaleEighths: 8, warning: nil)
    }

    func decodedBytes(_ info: ImageInfo, minimumSize: Size?) -> Int { info.width * info.height * 4 }
}

@Suite struct CustomCodecRenderTests {
    @Test func theRegistryInTheOptionsIsTheOneTheRendererDecodesWith() throws {
        let dir = NSTemporaryDirectory() + "mosaic-custom-codec-\(getpid())"
        try? FileManager.default.removeItem(atPath: dir)
        try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
        let path = dir + "/square.grey"
        try Data(Array("GREY".utf8) + [40, 30] + [UInt8](repeating: 77, count: 40 * 30)).write(to: URL(fileURLWithPath: path))
        let registry = CodecRegistry(codecs: CodecRegistry.standard.codecs + [GreyCodec()])
        var options = SheetOptions()
        options.width = 300
        options.columns = 1
        options.caption = .none
        options.codecs = registry
        let catalog = Catalog.files([path], decoder: ImageDecoder(codecs: registry), jobs: 1)
        #expect(catalog.entries.first?.info?.format == GreyCodec.format)
        let sheet = try ContactSheet(catalog: catalog, options: options, typesetter: Typesetter(fonts: FontLibrary()))
        let sink = MemorySink()
        let summary = try SheetRenderer(sheet: sheet).render(into: sink)
        #expect(summary.rendered == 1)
        #expect(summary.failures.isEmpty, "\(summary.failures)")
        // The card shows the file's grey, not a placeholder's pink.
        let page = try #require(sink.pages.first)
        let centre = page[page.width / 2, page.height / 2]
        #expect(centre.red == 77 && centre.green == 77 && centre.blue == 77)
    }
}
