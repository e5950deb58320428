import Foundation
import MosaicImage
import MosaicLayout
import Testing

/// A decode given the headers a probe read (the catalog's) does not read them again, and
/// gives what a decode that probes gives; a file that changed format since is probed anew.
@Suite struct ProbedDecodeTests {
    let decoder = ImageDecoder()

    @Test(arguments: [false, true]) func theProbedDecodeIsTheDecode(progressive: Bool) throws {
        let dir = Fixtures.directory()
        let rgb = Fixtures.picture(width: 96, height: 64)
        Fixtures.writeJPEG(dir + "/a.jpg", pixels: rgb, width: 96, height: 64, components: 3, progressive: progressive)
        let info = try decoder.probe(dir + "/a.jpg")
        for minimum: Size? in [nil, Size(width: 12, height: 8), Size(width: 40, height: 30)] {
            let probed = try decoder.decode(dir + "/a.jpg", probed: info, minimumSize: minimum)
            let plain = try decoder.decode(dir + "/a.jpg", minimumSize: minimum)
            #expect(probed.bitmap == plain.bitmap && probed.scaleEighths == plain.scaleEighths)
        }
    }

    @Test func aFileThatChangedFormatIsProbedAnew() throws {
        let dir = Fixtures.directory()
        try Bitmap(width: 5, height: 3, fill: .white).writePNG(to: dir + "/x.img")
        let stale = try decoder.probe(dir + "/x.img")
        Fixtures.writeJPEG(dir + "/x.img", pixels: Fixtures.picture(width: 16, height: 24), width: 16, height: 24, components: 3)
        let decoded = try decoder.decode(dir + "/x.img", probed: stale)
        #expect(stale.format == .png && decoded.info.format == .jpeg)
        #expect(decoded.bitmap.width == 16 && decoded.bitmap.height == 24)
    }

    /// The catalog's facts may be stale: a probe that said CMYK for what is now an RGB file
    /// of the same size must not have RGB pixels taken for inks.
    @Test func aStaleColourModelDoesNotTurnRGBIntoInks() throws {
        let dir = Fixtures.directory()
        Fixtures.writeJPEG(dir + "/a.jpg", pixels: Fixtures.picture(width: 32, height: 32), width: 32, height: 32, components: 3)
        var stale = try decoder.probe(dir + "/a.jpg")
        stale.colorModel = .cmyk
        #expect(try decoder.decode(dir + "/a.jpg", probed: stale).bitmap == (try decoder.decode(dir + "/a.jpg").bitmap))
    }
}
