import CMosaicFixtures
import CMosaicShims
import Foundation
import MosaicImage
import MosaicLayout
import Testing

/// Photos with gain maps (Ultra HDR JPEGs, Apple's HEICs, ISO 21496-1's tmap items) draw
/// their standard image in its own colours (the Display P3 patches, converted), never the
/// grey map; the probe names the map. Before, the probe said nothing of it.
@Suite struct GainMapTests {
    let decoder = ImageDecoder()

    /// The map: a flat grey that no patch is.
    static func grey(count: Int) -> [UInt8] { [UInt8](repeating: 77, count: count) }

    static func ultraHDR(_ path: String, isoMarker: Bool) throws {
        let icc = try #require(ColorTransforms.iccBytes(.displayP3, .sRGB))
        let rgb = ColorManagementTests.rgb()
        let gain = Self.grey(count: 16 * 16)
        let result = rgb.withUnsafeBufferPointer { pixels in
            gain.withUnsafeBufferPointer { map in
                icc.withUnsafeBufferPointer {
                    mosaic_ultrahdr_encode_file(path, pixels.baseAddress, 32, 32, map.baseAddress, 16, 16, $0.baseAddress, $0.count, isoMarker ? 1 : 0)
                }
            }
        }
        try #require(result.status == MOSAIC_OK, "\(messageText(result.message))")
    }

    static func heic(_ path: String, gainMap: Int32, xmp: String? = nil) throws {
        let icc = try #require(ColorTransforms.iccBytes(.displayP3, .sRGB))
        let rgba = Fixtures.rgba(fromRGB: ColorManagementTests.rgb())
        let gain = Self.grey(count: 16 * 16 * 4)
        let packet = Array((xmp ?? "").utf8)
        let result = rgba.withUnsafeBufferPointer { pixels in
            gain.withUnsafeBufferPointer { map in
                icc.withUnsafeBufferPointer { profile in
                    packet.withUnsafeBufferPointer { xmpBytes in
                        xmpBytes.withMemoryRebound(to: CChar.self) {
                            mosaic_heif_encode_gain_map_file(
                                path, pixels.baseAddress, 32, 32, map.baseAddress, gainMap, profile.baseAddress, profile.count,
                                xmp == nil ? nil : $0.baseAddress, packet.count)
                        }
                    }
                }
            }
        }
        try #require(result.status == MOSAIC_OK, "\(messageText(result.message))")
    }

    static func messageText<T>(_ tuple: T) -> String {
        withUnsafeBytes(of: tuple) { String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self) }
    }

    @Test(arguments: [false, true]) func anUltraHDRJPEGDrawsItsStandardImage(isoMarker: Bool) throws {
        let path = Fixtures.directory() + "/ultrahdr.jpg"
        try Self.ultraHDR(path, isoMarker: isoMarker)
        let info = try decoder.probe(path)
        #expect(info.gainMap == .ultraHDR)
        #expect(info.size == Size(width: 32, height: 32))
        ColorSourcesTests.check(try decoder.decode(path).bitmap, ColorSourcesTests.displayP3, tolerance: 6, "Ultra HDR")
    }

    /// Only ISO 21496-1's APP2 marker, no hdrgm XMP (the marker is the standard's own).
    @Test func anISOMarkerAloneNamesTheMap() throws {
        var bytes = [UInt8](repeating: 0, count: 0)
        bytes += [0xFF, 0xD8]
        let urn = Array("urn:iso:std:iso:ts:21496:-1".utf8) + [0, 0, 0, 0, 0]
        bytes += [0xFF, 0xE2, 0, UInt8(urn.count + 2)] + urn
        bytes += [0xFF, 0xDA]
        #expect(JPEGCodec.gainMap(bytes) == .iso21496)
        // Cut short, or a marker that lies about its length: no map, no crash.
        #expect(JPEGCodec.gainMap(Array(bytes.prefix(20))) == nil)
        #expect(JPEGCodec.gainMap([0xFF, 0xD8, 0xFF, 0xE2, 0xFF, 0xFF, 0]) == nil)
    }

    @Test(arguments: [(Int32(1), GainMap.apple), (2, .iso21496)]) func aHEICWithAGainMapDrawsItsStandardImage(kind: Int32, expected: GainMap) throws {
        let path = Fixtures.directory() + "/gainmap.heic"
        try Self.heic(path, gainMap: kind)
        let info = try decoder.probe(path)
        #expect(info.gainMap == expected)
        #expect(info.size == Size(width: 32, height: 32))
        ColorSourcesTests.check(try decoder.decode(path).bitmap, ColorSourcesTests.displayP3, tolerance: 6, "HEIC \(expected)")
        // Shrunk on load: the map (half the size, grey) is no thumbnail to draw from.
        let small = try decoder.decode(path, minimumSize: Size(width: 8, height: 8)).bitmap
        let p = small[small.width / 4, small.height / 4]
        #expect(abs(Int(p.red) - 217) <= 8 && abs(Int(p.green) - 42) <= 8, "\(p)")
    }

    @Test func photosWithoutAMapSayNone() throws {
        let dir = Fixtures.directory()
        try Self.heic(dir + "/plain.heic", gainMap: 0)
        #expect(try decoder.probe(dir + "/plain.heic").gainMap == nil)
        Fixtures.writeJPEG(dir + "/plain.jpg", pixels: ColorManagementTests.rgb(), width: 32, height: 32, components: 3)
        #expect(try decoder.probe(dir + "/plain.jpg").gainMap == nil)
    }
}
