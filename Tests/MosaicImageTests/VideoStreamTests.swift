import CMosaicFixtures
import Foundation
import MosaicLayout
import Testing

@testable import MosaicImage

/// HDR clips tone mapped into sRGB, interlaced clips deinterlaced, both in the one
/// conversion that scales the frame to the size asked.
@Suite struct VideoStreamTests {
    let decoder = ImageDecoder()

    /// The mean of the green channel over rows `rows` of `bitmap`.
    static func mean(_ bitmap: Bitmap, rows: Range<Int>) -> Double {
        var sum = 0.0
        for y in rows { for x in 0..<bitmap.width { sum += Double(bitmap[x, y].green) } }
        return sum / Double(rows.count * bitmap.width)
    }

    /// Reference white (203 nits) comes out near SDR white and 10 nits dark, for PQ and
    /// HLG: not the washed-out grey of the signal read as BT.709 (PQ's 203 nits is code
    /// 0.58, read so about 148; its 10 nits about 77).
    @Test(arguments: [16, 18])
    func hdrIsToneMapped(transfer: Int) throws {
        var clip = VideoFixtures.Clip()
        (clip.container, clip.hdrTransfer, clip.frames, clip.width, clip.height) = ("matroska", transfer, 10, 64, 48)
        let path = try VideoFixtures.write(clip, name: "hdr.mkv", function: "hdr\(transfer)")
        let info = try decoder.probe(path)
        #expect(info.bitDepth == 10)
        let bitmap = try decoder.decode(path, probed: info).bitmap
        let white = Self.mean(bitmap, rows: 4..<20), dim = Self.mean(bitmap, rows: 28..<44)
        #expect(white > 215 && white < 250, "reference white: \(white)")
        #expect(dim > 30 && dim < 80, "10 nits: \(dim)")
        // Neutral stays neutral through the primaries' matrix.
        let pixel = bitmap[10, 10]
        #expect(abs(Int(pixel.red) - Int(pixel.green)) <= 3 && abs(Int(pixel.blue) - Int(pixel.green)) <= 3, "\(pixel)")
    }

    /// The HDR frame is converted at the size asked (the decode covers the card, not the
    /// stored frame), and its budget counts the 16-bit step at that size.
    @Test func hdrIsConvertedAtTheReducedSize() throws {
        var clip = VideoFixtures.Clip()
        (clip.container, clip.hdrTransfer, clip.frames, clip.width, clip.height) = ("matroska", 16, 10, 320, 240)
        let path = try VideoFixtures.write(clip, name: "hdr.mkv")
        let info = try decoder.probe(path)
        let decoded = try decoder.decode(path, probed: info, minimumSize: Size(width: 40, height: 30))
        #expect(decoded.bitmap.width == 40 && decoded.bitmap.height == 30)
        #expect(Self.mean(decoded.bitmap, rows: 2..<12) > 215)
        let codec = VideoCodec()
        #expect(codec.decodedBytes(info, minimumSize: Size(width: 40, height: 30)) == 11 * 320 * 240 * 3 / 2 * 2 + 40 * 30 * 10)
    }

    /// An interlaced frame whose fields differ (top field white, bottom black) shows one
    /// field, rows interpolated: no comb of alternate rows, at full size or reduced.
    @Test func interlacedFramesAreDeinterlaced() throws {
        var clip = VideoFixtures.Clip()
        (clip.container, clip.interlaced, clip.frames) = ("matroska", true, 10)
        let path = try VideoFixtures.write(clip, name: "fields.mkv")
        let info = try decoder.probe(path)
        let full = try decoder.decode(path, probed: info).bitmap
        #expect(full.height == 96)
        var combs = 0
        for y in 56..<90 where abs(Int(full[80, y].green) - Int(full[80, y + 1].green)) > 60 { combs += 1 }
        #expect(combs == 0, "\(combs) rows differ from the next by more than 60")
        #expect(Self.mean(full, rows: 56..<90) > 200)
        let reduced = try decoder.decode(path, probed: info, minimumSize: Size(width: 40, height: 24)).bitmap
        #expect(reduced.height == 24 && Self.mean(reduced, rows: 14..<22) > 200)
    }
}
