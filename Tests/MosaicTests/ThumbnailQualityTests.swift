import Foundation
import Testing

@testable import Mosaic

/// Cards are as faithful as a real filter on the full-resolution image makes them:
/// shrink-on-load leaves the Lanczos filter at least a factor of two (a scaled IDCT or a
/// block average alone aliases).
@Suite struct ThumbnailQualityTests {
    static let samples = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("SampleImages").path

    /// PSNR in dB of `a`'s `rect` against all of `b` (its size), over R, G and B.
    static func psnr(_ a: Bitmap, in rect: Rect, against b: Bitmap) -> Double {
        var squares = 0.0
        for y in 0..<rect.height {
            for x in 0..<rect.width {
                let p = a[rect.minX + x, rect.minY + y], q = b[x, y]
                for (u, v) in [(p.red, q.red), (p.green, q.green), (p.blue, q.blue)] {
                    let d = Double(Int(u) - Int(v))
                    squares += d * d
                }
            }
        }
        let mse = squares / Double(rect.width * rect.height * 3)
        return mse == 0 ? .infinity : 10 * log10(255 * 255 / mse)
    }

    /// One image alone on a sheet `width` px wide (no caption, padding, corners, shadow):
    /// its card, its frame, and the reference (the full decode resampled to the frame).
    static func card(_ path: String, width: Int) throws -> (sheet: Bitmap, frame: Rect, reference: Bitmap) {
        var options = SheetOptions()
        options.width = width
        options.columns = 1
        options.inset = 0
        options.padding = 0
        options.caption = .none
        options.style.cornerRadius = 0
        options.style.shadowBlur = 0
        options.style.shadowOffsetX = 0
        options.style.shadowOffsetY = 0
        options.style.borderWidth = 0
        let sheet = try ContactSheet(catalog: Catalog.files([path]), options: options, typesetter: Typesetter(fonts: try FontLibrary()))
        let sink = MemorySink()
        _ = try SheetRenderer(sheet: sheet).render(into: sink)
        let page = try #require(sink.pages.first)
        let card = try #require(sheet.layout.elements(onPage: 0).first { $0.kind == .card })
        let frame = try #require(card.imageFrame)
        let full = try ImageDecoder().decode(path).bitmap
        return (page, frame, full.resampled(width: frame.width, height: frame.height))
    }

    /// motorcycle.jpg (741x500) drawn 356 px wide: decoded at 1/2, the scaled IDCT was the
    /// only low-pass filter (30.2 dB); now it is decoded whole and the filter does it all.
    @Test func aJPEGShrunkOnLoadIsAsFaithfulAsTheFullDecodeResampled() throws {
        let (page, frame, reference) = try Self.card(Self.samples + "/motorcycle.jpg", width: 356)
        #expect(frame.size == Size(width: 356, height: 240))
        let score = Self.psnr(page, in: frame, against: reference)
        #expect(score >= 40, "PSNR \(score) dB")
    }

    /// A photo stored as PNG (astronaut, 512x512) drawn 120 px wide: averaged in 4 x 4
    /// blocks the filter had nothing left to do (35.5 dB); in 2 x 2 blocks it does half.
    @Test func aPNGReducedOnLoadIsAsFaithfulAsTheFullDecodeResampled() throws {
        let dir = NSTemporaryDirectory() + "mosaic-quality-\(getpid())-\(UUID().uuidString.prefix(6))"
        try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: dir) }
        try ImageDecoder().decode(Self.samples + "/astronaut.jpg").bitmap.writePNG(to: dir + "/astronaut.png")
        let (page, frame, reference) = try Self.card(dir + "/astronaut.png", width: 120)
        let score = Self.psnr(page, in: frame, against: reference)
        #expect(score >= 40, "PSNR \(score) dB")
    }

    /// A large PNG of fine texture (coloured noise in 2 x 2 grains over a stripe sweep),
    /// 1931x1091 drawn 241 px wide. It was averaged in 4 x 4 blocks, the last one partial
    /// (482.75 blocks resampled as if they were 483: the scale off, edges moved by up to a
    /// third of a card pixel), then filtered by a factor of two only: 32.4 dB (35.5 with the
    /// partial block counted for what it covers). In 2 x 2 blocks as well: 52.2 dB.
    @Test func aLargeFinePNGTextureIsAsFaithfulAsTheFullDecodeResampled() throws {
        let dir = NSTemporaryDirectory() + "mosaic-quality-\(getpid())-\(UUID().uuidString.prefix(6))"
        try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: dir) }
        var texture = Bitmap(width: 1931, height: 1091)
        var seed: UInt64 = 24
        for y in stride(from: 0, to: texture.height, by: 2) {
            for x in stride(from: 0, to: texture.width, by: 2) {
                seed = seed &* 6364136223846793005 &+ 1442695040888963407
                for (dx, dy) in [(0, 0), (1, 0), (0, 1), (1, 1)] where x + dx < texture.width && y + dy < texture.height {
                    let stripe = 128 + 100 * sin(Double(x + dx) * (0.05 + 0.4 * Double(y + dy) / Double(texture.height)))
                    texture[x + dx, y + dy] = RGBA(red: UInt8(seed >> 56), green: UInt8(clamping: Int(stripe)), blue: UInt8(seed >> 48 & 0xFF))
                }
            }
        }
        try texture.writePNG(to: dir + "/texture.png")
        let (page, frame, reference) = try Self.card(dir + "/texture.png", width: 241)
        #expect(frame.size == Size(width: 241, height: 136))
        let score = Self.psnr(page, in: frame, against: reference)
        #expect(score >= 45, "PSNR \(score) dB")
    }
}
