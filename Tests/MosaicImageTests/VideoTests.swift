import CMosaicFixtures
import CMosaicShims
import Foundation
import MosaicLayout
import Testing

@testable import MosaicImage

/// Clips made through libavcodec's encoders (`video_fixture.c`): each frame shows its index
/// as bars, so a test knows which frame it got.
enum VideoFixtures {
    struct Clip {
        var container = "mp4"
        var codec = "mpeg4"
        var width = 160
        var height = 96
        var frames = 50
        var fps = 25
        var blackFrames = 0
        var rotation = 0
        var sar: (Int, Int) = (0, 0)
        var gop = 12
        var creationTime: String? = nil
        var appleCreation: String? = nil
        var make: String? = nil
        var model: String? = nil
        var audioOnly = false
        /// 16 (PQ) or 18 (HLG): a 10-bit HDR clip (see `mosaic_video_fixture`).
        var hdrTransfer = 0
        var interlaced = false
        /// H.264's level_idc (40: level 4.0); 0: the encoder's choice.
        var level = 0
    }

    /// This FFmpeg can encode `codec` for a fixture (H.264: libx264, which Debian's links).
    static func canEncode(_ codec: String) -> Bool { mosaic_video_fixture_can_encode(codec) != 0 }

    /// Writes `clip` to `name` in a fresh folder; its path.
    static func write(_ clip: Clip, name: String = "clip.mp4", folder: String? = nil, function: String = #function) throws -> String {
        let path = (folder ?? Fixtures.directory(function)) + "/" + name
        var message = [CChar](repeating: 0, count: 256)
        let status = path.withCString { cPath in
            clip.container.withCString { container in
                clip.codec.withCString { codec in
                    withOptional(clip.creationTime) { creation in
                        withOptional(clip.appleCreation) { apple in
                            withOptional(clip.make) { make in
                                withOptional(clip.model) { model in
                                    var f = mosaic_video_fixture()
                                    (f.path, f.container, f.codec) = (cPath, container, codec)
                                    (f.width, f.height, f.frames, f.fps) = (Int32(clip.width), Int32(clip.height), Int32(clip.frames), Int32(clip.fps))
                                    (f.black_frames, f.rotation, f.gop) = (Int32(clip.blackFrames), Int32(clip.rotation), Int32(clip.gop))
                                    (f.sar_num, f.sar_den) = (Int32(clip.sar.0), Int32(clip.sar.1))
                                    (f.creation_time, f.apple_creation, f.make, f.model) = (creation, apple, make, model)
                                    f.audio_only = clip.audioOnly ? 1 : 0
                                    (f.hdr_transfer, f.interlaced) = (Int32(clip.hdrTransfer), clip.interlaced ? 1 : 0)
                                    f.level = Int32(clip.level)
                                    return mosaic_write_video_fixture(&f, &message, message.count)
                                }
                            }
                        }
                    }
                }
            }
        }
        guard status == 0 else { throw FixtureError(message: String(decoding: message.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)) }
        return path
    }

    struct FixtureError: Error, CustomStringConvertible { var message: String; var description: String { message } }

    static func withOptional<R>(_ text: String?, _ body: (UnsafePointer<CChar>?) -> R) -> R {
        guard let text else { return body(nil) }
        return text.withCString { body($0) }
    }

    /// The frame index an upright, unrotated decoded frame shows (its bars).
    static func index(of bitmap: Bitmap) -> Int {
        var index = 0
        let y = bitmap.height * 3 / 8
        for bit in 0..<8 {
            let x = (bit * 2 + 1) * bitmap.width / 16
            if bitmap.pixels[(y * bitmap.width + x) * 4] > 128 { index |= 1 << bit }
        }
        return index
    }

    /// The mean luma (0...255) of `bitmap`.
    static func meanLuma(_ bitmap: Bitmap) -> Double {
        var sum = 0.0
        for i in stride(from: 0, to: bitmap.pixels.count, by: 4) { sum += Double(bitmap.pixels[i + 1]) }
        return sum / Double(bitmap.width * bitmap.height)
    }

    /// The file's bytes with `search` (the first time it occurs) replaced by `replacement`.
    static func patch(_ path: String, _ search: [UInt8], _ replacement: [UInt8]) throws {
        var bytes = [UInt8](try Data(contentsOf: URL(fileURLWithPath: path)))
        guard let at = (0...(bytes.count - search.count)).first(where: { bytes[$0..<($0 + search.count)].elementsEqual(search) }) else {
            throw FixtureError(message: "\(search) not in \(path)")
        }
        bytes.replaceSubrange(at..<(at + replacement.count), with: replacement)
        try Data(bytes).write(to: URL(fileURLWithPath: path))
    }
}

@Suite struct VideoProbeTests {
    @Test func probesSizeDurationRateAndCodecWithoutAFrame() throws {
        let path = try VideoFixtures.write(.init())
        let info = try ImageDecoder().probe(path)
        #expect(info.format == .video)
        #expect((info.width, info.height) == (160, 96))
        #expect(info.orientation == .up)
        let video = try #require(info.video)
        #expect(video.codec == "mpeg4")
        #expect(abs((video.duration ?? 0) - 2.0) < 0.05)
        #expect(video.frameRate == 25)
        #expect(video.frameTime == nil)
    }

    @Test func recognisedByContentNotByName() throws {
        let folder = Fixtures.directory()
        let path = try VideoFixtures.write(.init(container: "matroska"), name: "clip.dat", folder: folder)
        let info = try ImageDecoder().probe(path)
        #expect(info.format == .video)
        #expect(info.video?.container == "matroska,webm")
    }

    @Test(arguments: [(90, Orientation.right), (180, .down), (270, .left)])
    func rotationFromTheDisplayMatrix(degrees: Int, orientation: Orientation) throws {
        let path = try VideoFixtures.write(.init(container: "mov", rotation: degrees), name: "phone.mov")
        let info = try ImageDecoder().probe(path)
        #expect(info.orientation == orientation)
        if degrees != 180 { #expect((info.orientedWidth, info.orientedHeight) == (96, 160)) }
    }

    @Test func sampleAspectRatioWidensTheDisplay() throws {
        let path = try VideoFixtures.write(.init(sar: (2, 1)))
        let info = try ImageDecoder().probe(path)
        #expect((info.width, info.height) == (320, 96))
        #expect((info.video?.codedWidth, info.video?.codedHeight) == (160, 96))
    }

    @Test func quickTimeCreationDateBeforeTheContainersAndTheCamera() throws {
        let path = try VideoFixtures.write(
            .init(container: "mov", creationTime: "2023-07-14T16:22:05.000000Z", appleCreation: "2023-07-14T18:22:05+0200", make: "Apple", model: "iPhone 12"),
            name: "phone.mov")
        let info = try ImageDecoder().probe(path)
        #expect(info.captured == CaptureDate(year: 2023, month: 7, day: 14, hour: 18, minute: 22, second: 5, offsetMinutes: 120))
        #expect(info.camera == "Apple iPhone 12")
    }

    @Test func containerCreationTimeInUTC() throws {
        let path = try VideoFixtures.write(.init(creationTime: "2021-01-02T03:04:05.000000Z"))
        let info = try ImageDecoder().probe(path)
        #expect(info.captured == CaptureDate(year: 2021, month: 1, day: 2, hour: 3, minute: 4, second: 5, offsetMinutes: 0))
    }

    @Test func creationDateForms() {
        #expect(VideoCodec.creationDate("2023-07-14T18:22:05+02:00") == CaptureDate(year: 2023, month: 7, day: 14, hour: 18, minute: 22, second: 5, offsetMinutes: 120))
        #expect(VideoCodec.creationDate("2023-07-14 18:22:05") == CaptureDate(year: 2023, month: 7, day: 14, hour: 18, minute: 22, second: 5))
        #expect(VideoCodec.creationDate("1904-01-01T00:00:00Z") == nil)
        #expect(VideoCodec.creationDate("yesterday") == nil)
    }

    @Test func timestamps() {
        #expect(VideoInfo.timestamp(0) == "0:00")
        #expect(VideoInfo.timestamp(7.9) == "0:07")
        #expect(VideoInfo.timestamp(3723) == "1:02:03")
        #expect(VideoInfo.timestamp(.nan) == "0:00")
        // A length under a second keeps its tenths; a longer one does not.
        #expect(VideoInfo.duration(0.82) == "0:00.8" && VideoInfo.duration(2.5) == "0:02" && VideoInfo.duration(0) == "0:00")
    }
}

@Suite struct VideoFrameTests {
    func decode(_ path: String, at time: Double?, exact: Bool = true, poster: PosterTime = .auto, minimum: Size? = nil) throws -> DecodedImage {
        var decoder = ImageDecoder()
        decoder.video.exactFrames = exact
        decoder.video.poster = poster
        var info = try decoder.probe(path)
        info.video?.frameTime = time
        return try decoder.decode(path, probed: info, minimumSize: minimum)
    }

    @Test(arguments: [0.0, 0.52, 1.0, 1.96])
    func exactFrameAtItsTime(time: Double) throws {
        let path = try VideoFixtures.write(.init())
        let decoded = try decode(path, at: time)
        #expect(VideoFixtures.index(of: decoded.bitmap) == Int((time * 25).rounded()))
    }

    @Test func fastSeekTakesTheKeyframeBefore() throws {
        let path = try VideoFixtures.write(.init(gop: 12))
        let decoded = try decode(path, at: 1.0, exact: false)
        #expect(VideoFixtures.index(of: decoded.bitmap) == 24)
    }

    @Test func reducedInTheConversionStillCoveringTheMinimum() throws {
        let path = try VideoFixtures.write(.init(width: 640, height: 384))
        let decoded = try decode(path, at: 0.4, minimum: Size(width: 80, height: 20))
        #expect((decoded.bitmap.width, decoded.bitmap.height) == (80, 48))
        #expect(VideoFixtures.index(of: decoded.bitmap) == 10)
    }

    @Test func rotatedFramesComeUpright() throws {
        let path = try VideoFixtures.write(.init(container: "mov", rotation: 90), name: "phone.mov")
        let decoded = try decode(path, at: 0.4)
        #expect((decoded.bitmap.width, decoded.bitmap.height) == (96, 160))
        // Turned a quarter clockwise: the top-left mark is now at the top right.
        let topRight = decoded.bitmap.pixels[(4 * 96 + 90) * 4]
        let topLeft = decoded.bitmap.pixels[(4 * 96 + 4) * 4]
        #expect(topRight > 200 && topLeft < 160)
    }

    @Test func mjpegInAVI() throws {
        let path = try VideoFixtures.write(.init(container: "avi", codec: "mjpeg"), name: "camera.avi")
        let decoded = try decode(path, at: 1.2)
        #expect(VideoFixtures.index(of: decoded.bitmap) == 30)
    }

    @Test func autoPosterSkipsABlackLeadIn() throws {
        // 0.8 s of black: 10% (0.2 s) and 20% (0.4 s) are black, 30% is not.
        let path = try VideoFixtures.write(.init(blackFrames: 20))
        let decoded = try decode(path, at: nil)
        #expect(VideoFixtures.meanLuma(decoded.bitmap) > 60)
        #expect(VideoFixtures.index(of: decoded.bitmap) >= 20)
    }

    @Test func autoPosterTakesTheKeyframeBefore10PercentFrom5Percent() throws {
        // 4 s, a keyframe every 8 frames: 10% is frame 10, the keyframe before it frame 8
        // (0.32 s, past 5%): one frame decoded, as a thumbnailer takes it.
        let path = try VideoFixtures.write(.init(frames: 100, gop: 8))
        #expect(VideoFixtures.index(of: try decode(path, at: nil).bitmap) == 8)
    }

    @Test func autoPosterTakesTheKeyframeAfter10PercentBefore20Percent() throws {
        // 4 s, a keyframe every 12 frames: the keyframe before 10% (frame 10) is the first
        // frame, before 5%; the one after it (frame 12, 0.48 s) lies before 20%.
        let path = try VideoFixtures.write(.init(frames: 100, gop: 12))
        #expect(VideoFixtures.index(of: try decode(path, at: nil).bitmap) == 12)
    }

    @Test func autoPosterDecodesToTenPercentWhenNoKeyframeIsNear() throws {
        // 4 s, one keyframe: neither candidate keyframe lies between 5% and 20%.
        let path = try VideoFixtures.write(.init(frames: 100, gop: 200))
        #expect(VideoFixtures.index(of: try decode(path, at: nil).bitmap) == 10)
    }

    @Test func autoPosterPassesOverABlackKeyframe() throws {
        // Black until frame 12: the keyframe at 8 is black, the frames from 10% on are
        // decoded on until one is not (frame 12).
        let path = try VideoFixtures.write(.init(frames: 100, blackFrames: 12, gop: 8))
        let decoded = try decode(path, at: nil)
        #expect(VideoFixtures.meanLuma(decoded.bitmap) > 60)
        #expect(VideoFixtures.index(of: decoded.bitmap) == 12)
    }

    /// A poster decoded through the shim: the frame it shows and the frames the decoder gave.
    func posterWork(_ path: String) throws -> (index: Int, frames: Int) {
        var request = mosaic_video_request()
        (request.time, request.exact, request.timeout) = (-1, 1, 30)
        var pixels = [UInt8](repeating: 0, count: 160 * 96 * 4)
        var (time, failure) = (0.0, MOSAIC_VIDEO_FAILED)
        let result = mosaic_video_decode_frame(path, &request, &pixels, 160 * 4, 160, 96, &time, &failure)
        #expect(result.status == MOSAIC_OK)
        let bitmap = try #require(Bitmap(width: 160, height: 96, pixels: pixels))
        return (VideoFixtures.index(of: bitmap), Int(request.frames_decoded))
    }

    /// A keyframe the poster turns down by its time (before 5%, or after 20%) is turned down
    /// by its packet's time, never decoded: the keyframe after 10% is the only frame decoded
    /// when it is taken, and the frames from the start to 10% when no keyframe is near. The
    /// frames shown are those the autoPoster tests above pin.
    @Test func autoPosterDecodesNoKeyframeItTurnsDown() throws {
        let after = try VideoFixtures.write(.init(frames: 100, gop: 12), name: "after.mp4")
        #expect(try posterWork(after) == (12, 1))
        let none = try VideoFixtures.write(.init(frames: 100, gop: 200), name: "none.mp4")
        #expect(try posterWork(none) == (10, 11))
        let before = try VideoFixtures.write(.init(frames: 100, gop: 8), name: "before.mp4")
        #expect(try posterWork(before) == (8, 1))
        let mkv = try VideoFixtures.write(.init(container: "matroska", frames: 100, gop: 12), name: "after.mkv")
        #expect(try posterWork(mkv) == (12, 1))
    }

    @Test func mjpegReducedInTheDecoderStillCoveringTheMinimum() throws {
        // Every MJPEG frame is a keyframe: decoded at an eighth of 640x384 (lowres), 80x48.
        let path = try VideoFixtures.write(.init(container: "avi", codec: "mjpeg", width: 640, height: 384), name: "camera.avi")
        let decoded = try decode(path, at: 1.2, minimum: Size(width: 80, height: 20))
        #expect((decoded.bitmap.width, decoded.bitmap.height) == (80, 48))
        #expect(VideoFixtures.index(of: decoded.bitmap) == 30)
    }

    @Test func posterAtAFixedTimeOrFraction() throws {
        let path = try VideoFixtures.write(.init())
        #expect(VideoFixtures.index(of: try decode(path, at: nil, poster: .seconds(0.8)).bitmap) == 20)
        #expect(VideoFixtures.index(of: try decode(path, at: nil, poster: .fraction(0.5)).bitmap) == 25)
    }
}

@Suite struct VideoInputErrorTests {
    @Test func audioOnly() throws {
        let path = try VideoFixtures.write(.init(container: "mov", audioOnly: true), name: "voice.mov")
        #expect(throws: ImageDecodingError.video(path: path, problem: .noVideoStream(audioStreams: 1))) { try ImageDecoder().probe(path) }
        #expect(ImageDecodingError.video(path: path, problem: .noVideoStream(audioStreams: 1)).reason == "no video stream: audio only")
    }

    @Test func cutShortWithoutItsIndex() throws {
        let path = try VideoFixtures.write(.init())
        // The moov atom comes last: half the file holds none.
        let size = try FileManager.default.attributesOfItem(atPath: path)[.size] as! Int
        truncate(path, off_t(size / 2))
        #expect(throws: ImageDecodingError.video(path: path, problem: .incomplete)) { try ImageDecoder().probe(path) }
        #expect(ImageDecodingError.video(path: path, problem: .incomplete).reason == "no index (moov atom): the file is incomplete")
    }

    @Test func codecThisFFmpegCannotDecode() throws {
        let path = try VideoFixtures.write(.init(container: "mov", codec: "mjpeg"), name: "raw.mov")
        // The sample description's codec tag, made ProRes RAW's.
        try VideoFixtures.patch(path, Array("jpeg".utf8), Array("aprn".utf8))
        #expect(throws: ImageDecodingError.video(path: path, problem: .unknownCodec(codec: "aprn"))) {
            var decoder = ImageDecoder()
            var info = try decoder.probe(path)
            info.video?.frameTime = 0
            decoder.video.poster = .seconds(0)
            _ = try decoder.decode(path, probed: info, minimumSize: nil)
        }
    }

    @Test func corruptPacketsAreSkippedNeverAHang() throws {
        let path = try VideoFixtures.write(.init(gop: 50))
        var bytes = [UInt8](try Data(contentsOf: URL(fileURLWithPath: path)))
        // Garbage over the middle of the frames.
        for i in (bytes.count / 3)..<(bytes.count / 2) { bytes[i] = UInt8(truncatingIfNeeded: i &* 7919) }
        try Data(bytes).write(to: URL(fileURLWithPath: path))
        var decoder = ImageDecoder()
        decoder.video.clipTimeout = 10
        let info = try decoder.probe(path)
        for time in [0.2, 1.0, 1.9] {
            var frame = info
            frame.video?.frameTime = time
            let start = Date()
            let decoded = try? decoder.decode(path, probed: frame, minimumSize: nil)
            #expect(Date().timeIntervalSince(start) < 10)
            if let decoded { #expect(decoded.bitmap.width == 160) }
        }
    }

    @Test func aHeaderLyingAboutItsDurationGivesTheLastFrame() throws {
        let path = try VideoFixtures.write(.init())
        // mvhd (version 0): flags, creation, modification, timescale, then the duration.
        var bytes = [UInt8](try Data(contentsOf: URL(fileURLWithPath: path)))
        let mvhd = try #require((0..<(bytes.count - 4)).first { bytes[$0..<($0 + 4)].elementsEqual("mvhd".utf8) })
        let at = mvhd + 4 + 4 + 4 + 4 + 4
        let timescale = bytes[(mvhd + 16)..<(mvhd + 20)].reduce(0) { $0 << 8 | Int($1) }
        let lie = timescale * 40  // 40 s, for a clip of 2
        for k in 0..<4 { bytes[at + k] = UInt8(truncatingIfNeeded: lie >> (24 - 8 * k)) }
        try Data(bytes).write(to: URL(fileURLWithPath: path))
        var decoder = ImageDecoder()
        var info = try decoder.probe(path)
        #expect((info.video?.duration ?? 0) > 30)
        info.video?.frameTime = 36
        decoder.video.clipTimeout = 10
        let decoded = try decoder.decode(path, probed: info, minimumSize: nil)
        #expect(VideoFixtures.index(of: decoded.bitmap) == 49)
    }

    @Test func clipTimeout() throws {
        let path = try VideoFixtures.write(.init())
        var decoder = ImageDecoder()
        decoder.video.clipTimeout = 1e-9
        #expect(throws: ImageDecodingError.video(path: path, problem: .timedOut(seconds: 1e-9))) { try decoder.probe(path) }
    }

    @Test func aFIFOIsNeverOpened() throws {
        let path = Fixtures.directory() + "/clip.mp4"
        #expect(mkfifo(path, 0o644) == 0)
        #expect(throws: ImageDecodingError.notAFile(path: path, kind: "a FIFO (named pipe)")) { try ImageDecoder().probe(path) }
    }

    /// An H.264 decoder holds the decoded picture buffer the stream's level allows, not ten
    /// frames: at level 4.0 a 1080p frame's 8,160 macroblocks fit 4 times in 32,768, so 5
    /// with the frame being decoded (the level read from the MP4's avcC, the headers alone).
    /// Two such posters then decode at once within the render's 64 MiB budget; counted as
    /// ten frames, they took one at a time.
    @Test(.enabled(if: VideoFixtures.canEncode("h264"), "this FFmpeg has no H.264 encoder (libx264)"))
    func h264DecodeBudgetFollowsItsLevel() throws {
        var clip = VideoFixtures.Clip()
        (clip.codec, clip.width, clip.height, clip.frames, clip.level) = ("h264", 1920, 1080, 2, 40)
        let path = try VideoFixtures.write(clip)
        let info = try ImageDecoder().probe(path)
        #expect(info.video?.codec == "h264")
        #expect(info.video?.decoderFrames == 5)
        let card = Size(width: 720, height: 405)
        let bytes = VideoCodec().decodedBytes(info, minimumSize: card)
        #expect(bytes == 6 * 1920 * 1080 * 3 / 2 + 720 * 405 * 4)
        #expect(2 * bytes <= 64 << 20)
        // A level too low for the frame (1080p at level 3.0) says nothing: ten frames.
        clip.level = 30
        let low = try ImageDecoder().probe(try VideoFixtures.write(clip, name: "low.mp4"))
        #expect(low.video?.decoderFrames == nil)
        #expect(VideoCodec().decodedBytes(low, minimumSize: card) == 11 * 1920 * 1080 * 3 / 2 + 720 * 405 * 4)
    }

    /// A codec whose every frame is a keyframe (MJPEG) holds the frame it decodes and the
    /// one before it.
    @Test func intraOnlyDecodeBudgetCountsTwoFrames() throws {
        var clip = VideoFixtures.Clip()
        (clip.codec, clip.container, clip.width, clip.height, clip.frames) = ("mjpeg", "avi", 320, 240, 3)
        let info = try ImageDecoder().probe(try VideoFixtures.write(clip, name: "clip.avi"))
        #expect(info.video?.decoderFrames == 2)
        #expect(VideoCodec().decodedBytes(info, minimumSize: Size(width: 320, height: 240)) == 3 * 320 * 240 * 3 / 2 + 320 * 240 * 4)
    }

    @Test func decodeBudgetCountsTheDecodersFrames() throws {
        let path = try VideoFixtures.write(.init(width: 640, height: 384))
        let info = try ImageDecoder().probe(path)
        let bytes = VideoCodec().decodedBytes(info, minimumSize: Size(width: 64, height: 40))
        #expect(bytes >= 640 * 384 * 3 / 2 * 10)
        var decoder = ImageDecoder()
        decoder.limits.maximumDecodeMemory = bytes - 1
        var frame = info
        frame.video?.frameTime = 0
        #expect(throws: ImageDecodingError.overMemoryLimit(path: path, bytes: bytes, limit: bytes - 1)) {
            try decoder.decode(path, probed: frame, minimumSize: Size(width: 64, height: 40))
        }
    }
}
