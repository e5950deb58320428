import Foundation
import MosaicImage
import MosaicLayout
import Testing

/// A JPEG's ICC profile is read in its decode's libjpeg session. CMYK comes out of that
/// session as inks, then through the profile, or (no profile, or one that cannot convert
/// inks) through the uncalibrated formula: exactly the pixels of a decode that converts
/// in libjpeg's rows, as a decode without colour management does.
@Suite struct JPEGProfileSessionTests {
    @Test(arguments: [false, true]) func inksWithoutAUsableProfileAreTheFormulasPixels(ycck: Bool) throws {
        let dir = Fixtures.directory()
        let inks = ColorSourcesTests.cmyk(inverted: true)
        Fixtures.writeJPEG(dir + "/none.jpg", pixels: inks, width: 32, height: 32, components: 4, quality: 90, ycck: ycck)
        Fixtures.writeJPEG(dir + "/rgb.jpg", pixels: inks, width: 32, height: 32, components: 4, quality: 90, ycck: ycck, icc: ColorManagementTests.adobeRGB)
        var plain = ImageDecoder()
        plain.manageColor = false
        for name in ["none.jpg", "rgb.jpg"] {
            for minimum: Size? in [nil, Size(width: 16, height: 16), Size(width: 4, height: 4)] {
                let managed = try ImageDecoder().decode(dir + "/" + name, minimumSize: minimum)
                let formula = try plain.decode(dir + "/" + name, minimumSize: minimum)
                #expect(managed.bitmap == formula.bitmap, "\(name) at \(String(describing: minimum))")
                // The RGB profile cannot convert inks: said, as before.
                #expect((managed.warning != nil) == (name == "rgb.jpg"))
            }
        }
    }

    @Test func theDecodeFindsTheProfileTheProbeWouldFind() throws {
        let dir = Fixtures.directory()
        Fixtures.writeJPEG(dir + "/a.jpg", pixels: Fixtures.picture(width: 48, height: 32), width: 48, height: 32, components: 3, icc: ColorManagementTests.adobeRGB)
        let decoder = ImageDecoder()
        #expect(try decoder.colorProfile(dir + "/a.jpg") != nil)
        var plain = ImageDecoder()
        plain.manageColor = false
        // Converted from Adobe RGB: not the file's raw pixels.
        #expect(try decoder.decode(dir + "/a.jpg").bitmap != (try plain.decode(dir + "/a.jpg").bitmap))
    }
}
