import CMosaicShims
import Foundation
import MosaicTestSupport
import Testing

/// The sequential JPEG reader at 1/8 and 1/4 (jpeg_fast.c) is held to libjpeg: the same
/// bytes for every file it takes, and for every file it declines or that is damaged, the
/// same pixels, status and warnings as libjpeg alone gives.
@Suite struct JPEGFastReaderTests {
    struct Decoded: Equatable {
        var status: Int
        var warnings: Int
        var damage: Int
        var pixels: [UInt8]
    }

    static func outputSize(_ bytes: [UInt8], scale: Int) -> (Int, Int)? {
        var width: Int32 = 0, height: Int32 = 0
        // The frame header: the first SOF0/SOF1/SOF2 marker's size.
        var at = 2
        while at + 9 < bytes.count {
            guard bytes[at] == 0xFF else { return nil }
            let marker = bytes[at + 1]
            let length = Int(bytes[at + 2]) << 8 | Int(bytes[at + 3])
            if (0xC0...0xCF).contains(marker), marker != 0xC4, marker != 0xC8, marker != 0xCC {
                height = Int32(bytes[at + 5]) << 8 | Int32(bytes[at + 6])
                width = Int32(bytes[at + 7]) << 8 | Int32(bytes[at + 8])
                break
            }
            at += 2 + length
        }
        guard width > 0, height > 0 else { return nil }
        return ((Int(width) * scale + 7) / 8, (Int(height) * scale + 7) / 8)
    }

    /// Decodes through libjpeg alone (`libjpegOnly`) or as mosaic does.
    static func decode(_ bytes: [UInt8], scale: Int, width: Int, height: Int, libjpegOnly: Bool) -> Decoded {
        var pixels = [UInt8](repeating: 7, count: width * height * 4)
        let result = bytes.withUnsafeBufferPointer { data in
            pixels.withUnsafeMutableBufferPointer { out in
                if libjpegOnly {
                    return mosaic_jpeg_decode_libjpeg(data.baseAddress, data.count, Int32(scale), out.baseAddress, width * 4, Int32(width), Int32(height), 0, 0)
                }
                return mosaic_jpeg_decode(data.baseAddress, data.count, Int32(scale), out.baseAddress, width * 4, Int32(width), Int32(height), 0, 0, 0)
            }
        }
        return Decoded(status: Int(result.status.rawValue), warnings: Int(result.warning_count), damage: Int(result.damage_count), pixels: pixels)
    }

    /// Whether the fast reader takes the file (and what it wrote).
    static func fast(_ bytes: [UInt8], scale: Int, width: Int, height: Int) -> [UInt8]? {
        var pixels = [UInt8](repeating: 7, count: width * height * 4)
        var hasICC: Int32 = 0
        let taken = bytes.withUnsafeBufferPointer { data in
            pixels.withUnsafeMutableBufferPointer { out in
                mosaic_jpeg_decode_fast(data.baseAddress, data.count, Int32(scale), out.baseAddress, width * 4, Int32(width), Int32(height), &hasICC)
            }
        }
        return taken == 1 ? pixels : nil
    }

    /// Pixels with edges, gradients and noise: every coefficient size occurs.
    static func pixels(width: Int, height: Int, components: Int, seed: UInt64) -> [UInt8] {
        var random = SeededGenerator(seed: seed)
        var pixels = [UInt8](repeating: 0, count: width * height * components)
        for y in 0..<height {
            for x in 0..<width {
                for c in 0..<components {
                    let base = (x * (3 + c) + y * (5 - c)) & 0xFF
                    let edge = (x / 7 + y / 5) % 2 == 0 ? 60 : 0
                    pixels[(y * width + x) * components + c] = UInt8(truncatingIfNeeded: base + edge + Int(random.next() % 24))
                }
            }
        }
        return pixels
    }

    static func fixture(width: Int, height: Int, components: Int, quality: Int, restart: Int, seed: UInt64) throws -> [UInt8] {
        let dir = Fixtures.directory()
        let path = dir + "/f.jpg"
        Fixtures.writeJPEG(path, pixels: pixels(width: width, height: height, components: components, seed: seed), width: width, height: height,
                           components: components, quality: quality, restartInterval: restart)
        return try [UInt8](Data(contentsOf: URL(fileURLWithPath: path)))
    }

    @Test(arguments: [1, 2])
    func everyCleanSequentialFileGivesLibjpegsBytes(scale: Int) throws {
        var checked = 0
        for (width, height) in [(1, 1), (7, 5), (8, 8), (16, 16), (17, 33), (100, 75), (333, 129), (1000, 3), (3, 700)] {
            for components in [1, 3] {
                for quality in [40, 90, 100] {
                    for restart in [0, 1, 3] {
                        let bytes = try Self.fixture(width: width, height: height, components: components, quality: quality, restart: restart,
                                                     seed: UInt64(width * 31 + height + quality))
                        let (w, h) = try #require(Self.outputSize(bytes, scale: scale))
                        let reference = Self.decode(bytes, scale: scale, width: w, height: h, libjpegOnly: true)
                        let fast = Self.fast(bytes, scale: scale, width: w, height: h)
                        let name = "\(width)x\(height) c\(components) q\(quality) r\(restart) at \(scale)/8"
                        #expect(fast != nil, "declined \(name)")
                        #expect(fast == nil || fast == reference.pixels, "not libjpeg's bytes: \(name)")
                        checked += 1
                    }
                }
            }
        }
        #expect(checked == 9 * 2 * 3 * 3)
    }

    /// Damaged files: flipped bytes, cut short, bytes put before a restart marker. The
    /// reader declines what libjpeg would warn about, so the result is libjpeg's own.
    @Test func aDamagedFileDecodesAsLibjpegAlone() throws {
        var random = SeededGenerator(seed: 0x5EED)
        var declined = 0, taken = 0
        for restart in [0, 2] {
            let clean = try Self.fixture(width: 120, height: 90, components: 3, quality: 85, restart: restart, seed: 11)
            let (w, h) = try #require(Self.outputSize(clean, scale: 2))
            for trial in 0..<150 {
                var bytes = clean
                switch trial % 3 {
                case 0:
                    for _ in 0..<(1 + Int(random.next() % 3)) {
                        let at = 300 + Int(random.next() % UInt64(bytes.count - 300))
                        bytes[at] ^= UInt8(1 << (random.next() % 8))
                    }
                case 1:
                    bytes = Array(bytes.prefix(300 + Int(random.next() % UInt64(bytes.count - 300))))
                default:
                    let at = 300 + Int(random.next() % UInt64(bytes.count - 300))
                    bytes.insert(contentsOf: [0x12, 0x34], at: at)
                }
                for scale in [1, 2] {
                    guard let (sw, sh) = scale == 2 ? (w, h) : Self.outputSize(bytes, scale: 1) else { continue }
                    let reference = Self.decode(bytes, scale: scale, width: sw, height: sh, libjpegOnly: true)
                    let ours = Self.decode(bytes, scale: scale, width: sw, height: sh, libjpegOnly: false)
                    let same = ours == reference
                    #expect(same, "trial \(trial), restart \(restart), \(scale)/8")
                    if Self.fast(bytes, scale: scale, width: sw, height: sh) == nil { declined += 1 } else { taken += 1 }
                }
            }
        }
        // Both sides were exercised: damage the reader saw through, and damage it left alone.
        #expect(declined > 100)
        #expect(taken > 10)
    }

    /// Files it leaves to libjpeg: progressive, arithmetic, 1/2 scale, full size, CMYK.
    @Test func whatItDoesNotReadIsLeftToLibjpeg() throws {
        let dir = Fixtures.directory()
        let rgb = Self.pixels(width: 40, height: 40, components: 3, seed: 3)
        let cmyk = Self.pixels(width: 40, height: 40, components: 4, seed: 4)
        Fixtures.writeJPEG(dir + "/p.jpg", pixels: rgb, width: 40, height: 40, components: 3, progressive: true)
        Fixtures.writeJPEG(dir + "/a.jpg", pixels: rgb, width: 40, height: 40, components: 3, arithmetic: true)
        Fixtures.writeJPEG(dir + "/k.jpg", pixels: cmyk, width: 40, height: 40, components: 4)
        Fixtures.writeJPEG(dir + "/s.jpg", pixels: rgb, width: 40, height: 40, components: 3)
        for (name, scale) in [("p", 2), ("a", 2), ("k", 2), ("s", 4), ("s", 8)] {
            let bytes = try [UInt8](Data(contentsOf: URL(fileURLWithPath: dir + "/\(name).jpg")))
            let (w, h) = try #require(Self.outputSize(bytes, scale: scale))
            let taken = Self.fast(bytes, scale: scale, width: w, height: h) != nil
            #expect(!taken, "\(name) at \(scale)/8")
        }
    }

    /// By hand, over real photos: MOSAIC_JPEG_FOLDER=DIR swift test --filter JPEGFastReaderTests
    @Test(.enabled(if: ProcessInfo.processInfo.environment["MOSAIC_JPEG_FOLDER"] != nil))
    func aFolderOfPhotosGivesLibjpegsBytes() throws {
        let folder = ProcessInfo.processInfo.environment["MOSAIC_JPEG_FOLDER"] ?? ""
        for name in try FileManager.default.contentsOfDirectory(atPath: folder).sorted() where name.lowercased().hasSuffix(".jpg") {
            let bytes = try [UInt8](Data(contentsOf: URL(fileURLWithPath: folder + "/" + name)))
            for scale in [1, 2] {
                guard let (w, h) = Self.outputSize(bytes, scale: scale) else { continue }
                // (A progressive file at 1/8 is the DC reader's, whose chroma is its own.)
                guard let fast = Self.fast(bytes, scale: scale, width: w, height: h) else { continue }
                let same = fast == Self.decode(bytes, scale: scale, width: w, height: h, libjpegOnly: true).pixels
                #expect(same, "\(name) at \(scale)/8")
            }
        }
    }
}
