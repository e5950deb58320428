import Foundation
@testable import MosaicDiff
import MosaicImage
import MosaicLayout
import Testing

/// The SSIM mode's colour check (`ColourShift`): a region's mean colour in CIELAB,
/// CIEDE2000 between the two images' means, against `DiffTolerance.maximumDeltaE`.
@Suite struct ColourShiftTests {
    /// Sharma, Wu and Dalal's test data (2005), pairs 1, 7, 13, 17, 25 and 34.
    @Test(arguments: [
        ((50.0, 2.6772, -79.7751), (50.0, 0.0, -82.7485), 2.0425),
        ((50.0, 0.0, 0.0), (50.0, -1.0, 2.0), 2.3669),
        ((50.0, 2.4900, -0.0010), (50.0, -2.4900, 0.0009), 7.1792),
        ((50.0, 2.5, 0.0), (73.0, 25.0, -18.0), 27.1492),
        ((60.2574, -34.0099, 36.2677), (60.4626, -34.1751, 39.4387), 1.2644),
        ((22.7233, 20.0904, -46.6940), (23.0331, 14.9730, -42.5619), 2.0373),
    ])
    func ciede2000MatchesSharmasData(pair: ((Double, Double, Double), (Double, Double, Double), Double)) {
        let (c1, c2, expected) = pair
        let value = ColourShift.ciede2000((c1.0, c1.1, c1.2), (c2.0, c2.1, c2.2))
        #expect(abs(value - expected) < 0.0001, "\(value) against \(expected)")
    }

    /// A page with a red button.
    static func page(button: RGBA) -> Bitmap {
        var page = Bitmap(width: 160, height: 120, fill: RGBA(red: 250, green: 250, blue: 252))
        for y in 60..<85 { for x in 40..<121 { page[x, y] = button } }
        for y in 10..<14 { for x in 10..<150 { page[x, y] = RGBA(red: 225, green: 228, blue: 235) } }
        return page
    }

    static var ssim: ComparisonOptions {
        var options = ComparisonOptions()
        options.metric = .ssim
        return options
    }

    /// Red to green of (nearly) equal luma: SSIM on luma passes it, the colour check fails it.
    @Test func aRedButtonTurnedGreenFails() throws {
        let red = RGBA(red: 220, green: 50, blue: 50), green = RGBA(red: 50, green: 137, blue: 50)
        let result = ImageComparison.compare(Self.page(button: red), Self.page(button: green), options: Self.ssim)
        #expect((result.ssim ?? 0) > 0.999 && (result.lowestRegionSSIM ?? 0) > 0.99, "\(result.ssim ?? 0) \(result.lowestRegionSSIM ?? 0)")
        let deltaE = try #require(result.largestRegionDeltaE)
        #expect(deltaE > 50, "\(deltaE)")
        #expect(!DiffTolerance().accepts(result))
        #expect(DiffTolerance(maximumDeltaE: 100).accepts(result))
    }

    /// Anti-aliasing noise (edge pixels changed by up to 35 levels both ways) hardly moves
    /// the region's mean: it passes.
    @Test func antialiasingNoisePasses() throws {
        let a = try RegionAndSSIMTests.load("ssim/button-a.png"), b = try RegionAndSSIMTests.load("ssim/button-aa-noise-b.png")
        let result = ImageComparison.compare(a, b, options: Self.ssim, premultiplied: false)
        #expect(result.differingPixels > 0)
        let deltaE = try #require(result.largestRegionDeltaE)
        #expect(deltaE < 1, "\(deltaE)")
        #expect(DiffTolerance().accepts(result))
    }

    /// The pixelmatch mode measures no colour shift.
    @Test func pixelmatchModeHasNoColourShift() {
        let result = ImageComparison.compare(Self.page(button: RGBA(red: 220, green: 50, blue: 50)), Self.page(button: RGBA(red: 50, green: 137, blue: 50)))
        #expect(result.largestRegionDeltaE == nil && result.regions.allSatisfy { $0.deltaE == nil })
    }
}
