import CMosaicFixtures
import CMosaicShims
import Foundation
import MosaicImage
import MosaicLayout
import Testing

/// Animated GIF, WebP and JPEG XL: their timelines read without decoding, and the frame at
/// a time composited on the canvas (`--frames`).
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

    /// A JPEG XL animation (`jxl_fixture.c`: each frame shows its index as bars) at `path`.
    static func jxl(_ path: String, width: Int = 64, height: Int = 32, durations: [UInt32], ticksPerSecond: (UInt32, UInt32)) throws {
        let result = mosaic_jxl_encode_indexed_animation(path, Int32(width), Int32(height), Int32(durations.count), durations, ticksPerSecond.0, ticksPerSecond.1)
        try #require(result.status == MOSAIC_OK, "\(ColorSourcesTests.messageOf(result))")
    }

    /// Its timeline from the frame headers' durations at the header's ticks per second (a
    /// frame of no duration blended into the next, as libjxl shows them), and the frame shown
    /// at a time, by its index.
    @Test func aJPEGXLsTimelineAndFrames() throws {
        let dir = Fixtures.directory()
        // Ticks of 1/20 s: 2, 1, 0 (shown with the next), 3, 1, 2.
        try Self.jxl(dir + "/anim.jxl", durations: [2, 1, 0, 3, 1, 2], ticksPerSecond: (20, 1))
        let info = try decoder.probe(dir + "/anim.jxl")
        #expect(info.colorModel == .animation(frames: 5))
        let timeline = try #require(decoder.timeline(dir + "/anim.jxl", info: info))
        #expect(timeline.starts.map { ($0 * 20).rounded() } == [0, 2, 3, 6, 7])
        #expect(abs(timeline.duration - 0.45) < 1e-9)
        for (time, shown) in [(0.0, 0), (0.12, 1), (0.16, 3), (0.34, 4), (0.44, 5), (9.0, 5)] {
            let bitmap = try decoder.decode(dir + "/anim.jxl", probed: frameInfo(dir + "/anim.jxl", time: time)).bitmap
            #expect(VideoFixtures.index(of: bitmap) == shown, "\(time) s")
        }
        // Without a frame time: the first frame, as before.
        #expect(VideoFixtures.index(of: try decoder.decode(dir + "/anim.jxl").bitmap) == 0)
    }

    /// The shim asked for a frame the animation does not have says so (the codec never asks:
    /// its frame comes from the timeline).
    @Test func aJPEGXLFramePastTheEndIsNamed() throws {
        let dir = Fixtures.directory()
        try Self.jxl(dir + "/three.jxl", width: 16, height: 8, durations: [1, 1, 1], ticksPerSecond: (10, 1))
        let bytes = Fixtures.bytes(dir + "/three.jxl")
        var out = [UInt8](repeating: 0, count: 16 * 8 * 4)
        var icc: UnsafeMutablePointer<UInt8>? = nil
        var iccSize = 0
        let result = mosaic_jxl_decode_frame(bytes, bytes.count, 0, 3, &out, 16 * 4, 16, 8, &icc, &iccSize)
        free(icc)
        #expect(result.status == MOSAIC_ERROR && ColorSourcesTests.messageOf(result) == "the animation has no frame 3")
        #expect(mosaic_jxl_decode_frame(bytes, bytes.count, 0, 2, &out, 16 * 4, 16, 8, &icc, &iccSize).status == MOSAIC_OK)
        free(icc)
    }

    /// Frames of 2^32 - 1 ticks at 1/1024 tick a second (about 140,000 years each): a
    /// timeline in seconds all the same, its frames found by time.
    @Test func aJPEGXLOfHugeDurationsHasATimeline() throws {
        let dir = Fixtures.directory()
        try Self.jxl(dir + "/long.jxl", width: 16, height: 8, durations: [.max, .max, 5], ticksPerSecond: (1, 1024))
        let timeline = try #require(decoder.timeline(dir + "/long.jxl", info: decoder.probe(dir + "/long.jxl")))
        let tick = 1024.0, long = Double(UInt32.max) * tick
        #expect(timeline.starts == [0, long, 2 * long])
        #expect(timeline.duration == 2 * long + 5 * tick)
        #expect(timeline.frame(at: 1.5 * long) == 1)
        let bitmap = try decoder.decode(dir + "/long.jxl", probed: frameInfo(dir + "/long.jxl", time: 2 * long + 1)).bitmap
        #expect(VideoFixtures.index(of: bitmap) == 2)
    }

    /// A million frames (an 8 x 8 frame's bytes repeated, about 20 MB): the probe counts
    /// them from their headers, the timeline keeps the first 100,000
    /// (`AnimationTimeline.maximumFrames`), and a frame near its end decodes (libjxl
    /// skipping the frames before it): bounded work, not a hang.
    @Test func aJPEGXLOfAMillionFramesIsBounded() throws {
        let dir = Fixtures.directory()
        let grey = [UInt8](repeating: 90, count: 8 * 8 * 3)
        try JXLTests.write(dir + "/two.jxl", pixels: grey + grey, width: 8, height: 8, channels: 3, frames: 2)
        try JXLTests.write(dir + "/three.jxl", pixels: grey + grey + grey, width: 8, height: 8, channels: 3, frames: 3)
        // Three frames are the header, a frame, the same frame, and the last (is_last set).
        let two = Fixtures.bytes(dir + "/two.jxl"), three = Fixtures.bytes(dir + "/three.jxl")
        let frame = three.count - two.count, header = two.count - 2 * frame
        try #require(frame > 0 && header > 0 && three[header..<(header + frame)] == three[(header + frame)..<(header + 2 * frame)])
        var chunk: [UInt8] = []
        for _ in 0..<10_000 { chunk += three[header..<(header + frame)] }
        _ = FileManager.default.createFile(atPath: dir + "/million.jxl", contents: nil)
        let file = try FileHandle(forWritingTo: URL(fileURLWithPath: dir + "/million.jxl"))
        try file.write(contentsOf: three[..<header])
        for _ in 0..<99 { try file.write(contentsOf: chunk) }
        try file.write(contentsOf: chunk.prefix(9_999 * frame) + three[(header + 2 * frame)...])
        try file.close()
        var info = try decoder.probe(dir + "/million.jxl")
        #expect(info.colorModel == .animation(frames: 1_000_000))
        let timeline = try #require(decoder.timeline(dir + "/million.jxl", info: info))
        #expect(timeline.starts.count == AnimationTimeline.maximumFrames)
        #expect(abs(timeline.duration - Double(AnimationTimeline.maximumFrames) / 10) < 1e-6)
        info.video = VideoInfo(duration: timeline.duration, frameRate: 10, codec: "jxl", container: "jxl", codedWidth: 8, codedHeight: 8, frameTime: timeline.duration * 0.95)
        let bitmap = try decoder.decode(dir + "/million.jxl", probed: info).bitmap
        #expect(bitmap[4, 4] == RGBA(red: 90, green: 90, blue: 90, alpha: 255))
    }

    /// A still GIF, WebP or JPEG XL has no timeline; nor has a format without animations (its file
    /// is not read).
    @Test func stillImagesHaveNoTimeline() throws {
        let dir = Fixtures.directory()
        try Self.gif(dir + "/one.gif", frames: 1, delay: 10, disposal: 1)
        #expect(try decoder.timeline(dir + "/one.gif", info: decoder.probe(dir + "/one.gif")) == nil)
        var rgba = [UInt8](repeating: 200, count: 8 * 8 * 4)
        #expect(mosaic_webp_encode_file(dir + "/still.webp", &rgba, 8, 8, 90, 1).status == MOSAIC_OK)
        #expect(try decoder.timeline(dir + "/still.webp", info: decoder.probe(dir + "/still.webp")) == nil)
        try JXLTests.write(dir + "/still.jxl", pixels: Fixtures.picture(width: 8, height: 8), width: 8, height: 8, channels: 3)
        #expect(try decoder.timeline(dir + "/still.jxl", info: decoder.probe(dir + "/still.jxl")) == nil)
        let info = ImageInfo(format: .png, width: 1, height: 1, orientation: .up, hasAlpha: false, bitDepth: 8, colorModel: .rgb)
        #expect(decoder.timeline(dir + "/no such file.png", info: info) == nil)
    }
}
