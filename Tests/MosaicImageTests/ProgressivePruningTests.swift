import Foundation
import MosaicImage
import MosaicLayout
import Testing

/// A progressive JPEG shrunk on load reads only the scans its scale needs (the top-left
/// coefficients of each block; at 1/4 and below DC to within its last bit plane, AC to
/// within its last two), with
/// the error against reading every scan measured and bounded.
@Suite struct ProgressivePruningTests {
    static let samples = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("SampleImages").path
    let decoder = ImageDecoder()

    /// astronaut.jpg's pixels as packed RGB, and the same picture written baseline and
    /// progressive with the same quality (so the same quantized coefficients).
    func pair(_ dir: String) throws -> (baseline: String, progressive: String) {
        let picture = try decoder.decode(Self.samples + "/astronaut.jpg").bitmap
        var rgb: [UInt8] = []
        for y in 0..<picture.height {
            for x in 0..<picture.width {
                let p = picture[x, y]
                rgb += [p.red, p.green, p.blue]
            }
        }
        Fixtures.writeJPEG(dir + "/b.jpg", pixels: rgb, width: picture.width, height: picture.height, components: 3, quality: 90)
        Fixtures.writeJPEG(dir + "/p.jpg", pixels: rgb, width: picture.width, height: picture.height, components: 3, quality: 90, progressive: true)
        return (dir + "/b.jpg", dir + "/p.jpg")
    }

    static func psnr(_ a: Bitmap, _ b: Bitmap) -> (psnr: Double, largest: Int) {
        var squares = 0.0, largest = 0
        for y in 0..<a.height {
            for x in 0..<a.width {
                let p = a[x, y], q = b[x, y]
                for (u, v) in [(p.red, q.red), (p.green, q.green), (p.blue, q.blue)] {
                    let d = Int(u) - Int(v)
                    squares += Double(d * d)
                    largest = max(largest, abs(d))
                }
            }
        }
        let mse = squares / Double(a.width * a.height * 3)
        return (mse == 0 ? .infinity : 10 * log10(255 * 255 / mse), largest)
    }

    @Test(arguments: [2, 4])
    func aPrunedDecodeStaysCloseToTheFullOne(eighths: Int) throws {
        let (baseline, progressive) = try pair(Fixtures.directory())
        let size = Size(width: 512 * eighths / 8, height: 512 * eighths / 8)
        let full = try decoder.decode(baseline, minimumSize: size)
        let pruned = try decoder.decode(progressive, minimumSize: size)
        #expect(full.scaleEighths == eighths && pruned.scaleEighths == eighths)
        #expect(pruned.warning == nil)
        // As drawn: the renderer leaves the filter at least a factor of two.
        let half = Size(width: size.width / 2, height: size.height / 2)
        let (score, largest) = Self.psnr(
            pruned.bitmap.resampled(width: half.width, height: half.height), full.bitmap.resampled(width: half.width, height: half.height))
        print("pruned at \(eighths)/8: \(score) dB, largest difference \(largest)")
        #expect(score >= 40, "PSNR \(score) dB at \(eighths)/8")
        #expect(largest <= 48, "largest difference \(largest) at \(eighths)/8")
    }

    /// The file cut inside its last scan (the luma's last bit plane): shrunk on load it is
    /// whole, since that scan is never read; at full size it is damaged. Cut inside the
    /// luma's first refinement scan (the sixth of libjpeg's standard script), still whole
    /// at 1/4.
    @Test func theScansAfterTheNeededOnesAreNotRead() throws {
        let dir = Fixtures.directory()
        let (_, progressive) = try pair(dir)
        let bytes = try [UInt8](Data(contentsOf: URL(fileURLWithPath: progressive)))
        let lastScan = try #require((0..<(bytes.count - 1)).last { bytes[$0] == 0xFF && bytes[$0 + 1] == 0xDA })
        let cut = dir + "/cut.jpg"
        let middle = lastScan + (bytes.count - lastScan) / 2
        try Data(bytes[..<middle] + [0xFF, 0xD9]).write(to: URL(fileURLWithPath: cut))
        #expect(try decoder.decode(cut, minimumSize: Size(width: 128, height: 128)).warning == nil)
        let whole = try decoder.decode(cut)
        #expect(whole.warning?.isDataLoss == true)
        let scans = (0..<(bytes.count - 1)).filter { bytes[$0] == 0xFF && bytes[$0 + 1] == 0xDA }
        try #require(scans.count == 10)
        let early = dir + "/early.jpg"
        try Data(bytes[..<(scans[5] + (scans[6] - scans[5]) / 2)] + [0xFF, 0xD9]).write(to: URL(fileURLWithPath: early))
        let quarter = try decoder.decode(early, minimumSize: Size(width: 128, height: 128))
        #expect(quarter.scaleEighths == 2 && quarter.warning == nil)
        #expect(try decoder.decode(early, minimumSize: Size(width: 256, height: 256)).warning?.isDataLoss == true)
    }
}
