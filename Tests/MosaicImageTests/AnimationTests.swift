import CMosaicFixtures
import CMosaicShims
import Foundation
import MosaicImage
import MosaicLayout
import Testing

/// Animated GIF and WebP: their timelines read without decoding, and the frame at a time
/// composited on the canvas (`--frames`).
@Suite struct AnimationTests {
    let decoder = ImageDecoder()

    /// Frame i's colour in the fixtures.
    static func colour(_ i: Int) -> RGBA { RGBA(red: UInt8(truncatingIfNeeded: i * 37), green: UInt8(truncatingIfNeeded: 255 - i * 11), blue: UInt8(truncatingIfNeeded: i * 5)) }

    static func gif(_ path: String, frames: Int, delay: Int, disposal: Int) throws {
        #expect(mosaic_gif_encode_animation(path, 24, 10, Int32(frames), Int32(delay), Int32(disposal)).status == MOSAIC_OK)
    }

    static func webp(_ path: String, frames: Int, duration: Int) throws {
        #expect(mosaic_webp_encode_animation(path, 24, 10, Int32(frames), Int32(duration)).status == MOSAIC_OK)
    }

    /// The info a section's frame card carries: the probe's, with the frame's time.
    func frameInfo(_ path: String, time: Double) throws -> ImageInfo {
        var info = try decoder.probe(path)
        info.video = VideoInfo(duration: 1, frameRate: 1, codec: "gif", container: "gif", codedWidth: info.width, codedHeight: info.height, frameTime: time)
        return info
    }

    @Test func aGIFsTimelineAndFrames() throws {
        let dir = Fixtures.directory()
        // 6 frames of 0.2 s; a delay of 0 counts as a tenth of a second.
        try Self.gif(dir + "/keep.gif", frames: 6, delay: 20, disposal: 1)
        try Self.gif(dir + "/fast.gif", frames: 3, delay: 0, disposal: 1)
        let info = try decoder.probe(dir + "/keep.gif")
        let timeline = try #require(decoder.timeline(dir + "/keep.gif", info: info))
        #expect(timeline.starts.map { ($0 * 100).rounded() } == [0, 20, 40, 60, 80, 100])
        #expect(abs(timeline.duration - 1.2) < 1e-9)
        #expect(timeline.frame(at: 0.59) == 2 && timeline.frame(at: 0.6) == 3 && timeline.frame(at: 9) == 5)
        #expect(abs((try decoder.timeline(dir + "/fast.gif", info: decoder.probe(dir + "/fast.gif"))?.duration ?? 0) - 0.3) < 1e-9)
        // Frame 3 at 0.6 s: its colour on the left half, frame 0's kept on the right.
        let bitmap = try decoder.decode(dir + "/keep.gif", probed: frameInfo(dir + "/keep.gif", time: 0.65)).bitmap
        #expect(bitmap[2, 5] == Self.colour(3))
        #expect(bitmap[20, 5] == Self.colour(0))
        // Without a frame time: the first image, as before.
        #expect(try decoder.decode(dir + "/keep.gif").bitmap[2, 5] == Self.colour(0))
    }

    /// Disposal 2: the frame's rectangle cleared before the next, so frame 0's right half
    /// is transparent under frame 2.
    @Test func aGIFsDisposalIsApplied() throws {
        let dir = Fixtures.directory()
        try Self.gif(dir + "/clear.gif", frames: 3, delay: 10, disposal: 2)
        let bitmap = try decoder.decode(dir + "/clear.gif", probed: frameInfo(dir + "/clear.gif", time: 0.2)).bitmap
        #expect(bitmap[2, 5] == Self.colour(2))
        #expect(bitmap[20, 5].alpha == 0)
    }

    @Test func aWebPsTimelineAndFrames() throws {
        let dir = Fixtures.directory()
        try Self.webp(dir + "/anim.webp", frames: 5, duration: 300)
        let info = try decoder.probe(dir + "/anim.webp")
        let timeline = try #require(decoder.timeline(dir + "/anim.webp", info: info))
        #expect(timeline.starts.map { ($0 * 10).rounded() } == [0, 3, 6, 9, 12])
        #expect(abs(timeline.duration - 1.5) < 1e-9)
        for (time, frame) in [(0.0, 0), (0.95, 3), (1.4, 4)] {
            let bitmap = try decoder.decode(dir + "/anim.webp", probed: frameInfo(dir + "/anim.webp", time: time)).bitmap
            #expect(bitmap[12, 5] == Self.colour(frame), "\(time) s")
        }
    }

    /// A still GIF or WebP has no timeline; nor has a format without animations (its file
    /// is not read).
    @Test func stillImagesHaveNoTimeline() throws {
        let dir = Fixtures.directory()
        try Self.gif(dir + "/one.gif", frames: 1, delay: 10, disposal: 1)
        #expect(try decoder.timeline(dir + "/one.gif", info: decoder.probe(dir + "/one.gif")) == nil)
        var rgba = [UInt8](repeating: 200, count: 8 * 8 * 4)
        #expect(mosaic_webp_encode_file(dir + "/still.webp", &rgba, 8, 8, 90, 1).status == MOSAIC_OK)
        #expect(try decoder.timeline(dir + "/still.webp", info: decoder.probe(dir + "/still.webp")) == nil)
        let info = ImageInfo(format: .png, width: 1, height: 1, orientation: .up, hasAlpha: false, bitDepth: 8, colorModel: .rgb)
        #expect(decoder.timeline(dir + "/no such file.png", info: info) == nil)
    }
}
