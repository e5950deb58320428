import Foundation
import MosaicImage
import Testing

/// The probe's colour model and interlacing are typed; their names (what `mosaic probe`
/// prints and the image map and catalog records keep) are the words they always were.
@Suite struct ColorModelTests {
    static let models: [ColorModel] = [
        .grey, .greyAlpha, .rgb, .rgba, .palette, .ycbcr, .cmyk, .ycck, .mask, .lab, .lossy, .lossless,
        .animation(frames: 1), .animation(frames: 3000), .ycbcrWithThumbnails(1), .ycbcrWithThumbnails(2),
        .other("unknown"), .other("photometric 32844"),
    ]

    @Test func everyNameReadsBackAsItsModel() {
        for model in Self.models { #expect(ColorModel(name: model.name) == model, "\(model.name)") }
        #expect(ColorModel.animation(frames: 1).name == "animation (1 frame)")
        #expect(ColorModel.ycbcrWithThumbnails(2).name == "ycbcr, 2 thumbnails")
        #expect(ColorModel.greyAlpha.name == "grey+alpha")
        // Near misses stay as they were written.
        #expect(ColorModel(name: "animation (1 frames)") == .other("animation (1 frames)"))
        #expect(ColorModel(name: "ycbcr, x thumbnails") == .other("ycbcr, x thumbnails"))
    }

    @Test func onlyCMYKAndYCCKAreInks() {
        #expect(Self.models.filter(\.isInks) == [.cmyk, .ycck])
        #expect(Self.models.filter(\.isAnimation).count == 2)
    }

    @Test func theJSONKeepsTheNames() throws {
        let info = ImageInfo(
            format: .jpeg, width: 8, height: 8, orientation: .up, hasAlpha: false, interlacing: .progressive, bitDepth: 8, colorModel: .ycck)
        let json = String(decoding: try JSONEncoder().encode(info), as: UTF8.self)
        #expect(json.contains(#""colorModel":"ycck""#) && json.contains(#""interlacing":"progressive""#))
        #expect(try JSONDecoder().decode(ImageInfo.self, from: Data(json.utf8)) == info)
    }
}
