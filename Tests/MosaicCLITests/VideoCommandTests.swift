import CMosaicFixtures
import Foundation
import Testing

/// `mosaic probe` on a clip, a sheet of its frames, and the video options' usage errors.
@Suite struct VideoCommandTests {
    /// A 2-second MPEG-4 clip (50 frames at 25 fps) in QuickTime, turned a quarter clockwise.
    static func clip(_ path: String, container: String = "mov") throws {
        var message = [CChar](repeating: 0, count: 256)
        let status = path.withCString { cPath in
            container.withCString { container in
                "mpeg4".withCString { codec in
                    var f = mosaic_video_fixture()
                    (f.path, f.container, f.codec) = (cPath, container, codec)
                    (f.width, f.height, f.frames, f.fps, f.gop, f.rotation) = (160, 96, 50, 25, 12, 90)
                    return mosaic_write_video_fixture(&f, &message, message.count)
                }
            }
        }
        #expect(status == 0, "\(String(decoding: message.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self))")
    }

    @Test func probePrintsTheVideosFacts() throws {
        let dir = CLI.temporaryDirectory()
        try Self.clip(dir + "/phone.mov")
        let result = try CLI.run(["probe", dir + "/phone.mov"])
        #expect(result.status == 0)
        #expect(result.stdout == "\(dir)/phone.mov: video mpeg4 160x96, displayed 96x160 (orientation 6 (rotate 90 CW)), 0:02 (2.00 s), 25 fps, yuv420p, in mov,mp4,m4a,3gp,3g2,mj2\n")
        let json = try CLI.run(["probe", "--json", dir + "/phone.mov"])
        let entry = try #require((try JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [[String: Any]])?.first)
        #expect(entry["codec"] as? String == "mpeg4")
        #expect(entry["duration"] as? Double == 2)
        #expect(entry["orientedWidth"] as? Int == 96)
    }

    @Test func framesMakeASectionWithTimesInTheMap() throws {
        let dir = CLI.temporaryDirectory()
        try Self.clip(dir + "/phone.mov")
        let result = try CLI.run(["render", dir + "/phone.mov", "-o", dir + "/sheet.png", "--frames", "3", "--json", dir + "/map.json", "-q"])
        #expect(result.status == 0, "\(result.stderr)")
        let map = try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: dir + "/map.json"))) as? [String: Any])
        let elements = try #require(map["elements"] as? [[String: Any]])
        #expect(elements.compactMap { $0["time"] as? Double } == [0.1, 1, 1.9])
        #expect(elements.first { $0["kind"] as? String == "header" }?["text"] as? String == "phone.mov · 0:02 · \(Self.size(dir + "/phone.mov")) · 96x160 · mpeg4 · 25 fps")
    }

    /// MPEG transport streams: a broadcast's 188-byte packets (`.ts`, `.mts`) and Blu-ray's
    /// 192-byte ones (`.m2ts`, a time code before each packet), recognised by content.
    @Test func transportStreamsAreVideos() throws {
        let dir = CLI.temporaryDirectory()
        try Self.clip(dir + "/camera.mts", container: "mpegts")
        let ts = try Data(contentsOf: URL(fileURLWithPath: dir + "/camera.mts"))
        #expect(ts.count % 188 == 0 && ts.first == 0x47)
        var m2ts = Data()
        for start in stride(from: 0, to: ts.count, by: 188) {
            m2ts.append(contentsOf: [0, 0, 0, 0])
            m2ts.append(ts[start..<(start + 188)])
        }
        try m2ts.write(to: URL(fileURLWithPath: dir + "/disc.m2ts"))
        for name in ["camera.mts", "disc.m2ts"] {
            let probe = try CLI.run(["probe", dir + "/" + name])
            #expect(probe.status == 0, "\(probe.stderr)")
            #expect(probe.stdout.contains(": video mpeg4 160x96") && probe.stdout.contains("in mpegts"), "\(probe.stdout)")
            let sheet = try CLI.run(["render", dir + "/" + name, "-o", dir + "/\(name).png", "--frames", "2", "-q"])
            #expect(sheet.status == 0, "\(sheet.stderr)")
        }
    }

    static func size(_ path: String) -> String {
        let bytes = (try? FileManager.default.attributesOfItem(atPath: path)[.size] as? Int) ?? 0
        return bytes < 10_000 ? String(format: "%.1f kB", Double(bytes) / 1000) : String(format: "%.0f kB", Double(bytes) / 1000)
    }

    @Test(arguments: [
        (["--poster", "soon"], "--poster: \"soon\" is not auto, a time in seconds (12.5) or a share of the duration (40%)"),
        (["--frames", "0"], "--frames must be between 1 and 1000, got 0"),
        (["--frame-interval", "-2"], "--frame-interval must be a number of seconds above 0, got -2.0"),
        (["--frames", "4", "--frame-interval", "2"], "--frames and --frame-interval: give one"),
        (["--frames", "4", "--videos", "skip"], "--frames goes with videos; --videos skip leaves them out"),
        (["--video-header", "{name}"], "--video-header goes with --frames or --frame-interval"),
        (["--frames", "4", "--video-header", "{title}"], "--video-header: no placeholder {title}; the placeholders are {name} {stem} {duration} {size} {resolution} {codec} {fps}"),
        (["--clip-timeout", "0"], "--clip-timeout must be a number of seconds above 0, got 0.0"),
    ])
    func usageErrors(arguments: [String], message: String) throws {
        let result = try CLI.run(["render", "clip.mp4"] + arguments)
        #expect(result.status == 64)
        #expect(result.stderr.contains(message), "\(result.stderr)")
    }
}

/// `--each` with `--frames`: a sheet per video, named by `{stem}`.
@Suite struct VideoEachTests {
    @Test func aSheetPerVideoNamedByItsStem() throws {
        let dir = CLI.temporaryDirectory()
        try FileManager.default.createDirectory(atPath: dir + "/b", withIntermediateDirectories: true)
        try VideoCommandTests.clip(dir + "/walk.mov")
        try VideoCommandTests.clip(dir + "/b/swim.mov")
        try FileManager.default.copyItem(atPath: CLI.sampleImages + "/coins.png", toPath: dir + "/b/coins.png")
        let out = dir + "/sheets"
        let result = try CLI.run(
            ["render", dir + "/walk.mov", dir + "/b", "--each", "--frames", "3", "-o", out + "/{index}-{stem}.png", "--json", out + "/{stem}.json", "--no-progress"])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(try FileManager.default.contentsOfDirectory(atPath: out).sorted() == ["1-walk.png", "2-swim.png", "swim.json", "walk.json"])
        #expect(result.stderr.contains("note: 1 card is in no sheet: --each with --frames makes a sheet per video"), "\(result.stderr)")
        #expect(result.stderr.contains("2 of 2 sheets written"), "\(result.stderr)")
        for stem in ["walk", "swim"] {
            let map = try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: out + "/\(stem).json"))) as? [String: Any])
            let elements = try #require(map["elements"] as? [[String: Any]])
            #expect(elements.compactMap { $0["time"] as? Double } == [0.1, 1, 1.9])
            #expect((elements.first { $0["kind"] as? String == "header" }?["text"] as? String)?.hasPrefix("\(stem).mov") == true)
        }
    }

    /// Two clips of one stem: refused before anything is read or written, naming both.
    @Test func twoVideosOfOneStemAreRefused() throws {
        let dir = CLI.temporaryDirectory()
        try FileManager.default.createDirectory(atPath: dir + "/a", withIntermediateDirectories: true)
        try FileManager.default.createDirectory(atPath: dir + "/b", withIntermediateDirectories: true)
        try VideoCommandTests.clip(dir + "/a/clip.mov")
        try VideoCommandTests.clip(dir + "/b/clip.mov")
        let out = dir + "/sheets"
        let result = try CLI.run(["render", dir + "/a/clip.mov", dir + "/b/clip.mov", "--each", "--frames", "2", "-o", out + "/{stem}.png", "--no-progress"])
        #expect(result.status == 64, "\(result.stderr)")
        #expect(result.stderr.contains("--each: \"\(dir)/a/clip.mov\" and \"\(dir)/b/clip.mov\" would both be written to \(out)/clip.png"), "\(result.stderr)")
        #expect(!FileManager.default.fileExists(atPath: out))
    }

    /// `{stem}` names videos: without --frames it has no value; with --frames and `{folder}`,
    /// a sheet per folder as before.
    @Test func stemNeedsFrames() throws {
        let dir = CLI.temporaryDirectory()
        try FileManager.default.createDirectory(atPath: dir + "/a", withIntermediateDirectories: true)
        try VideoCommandTests.clip(dir + "/a/clip.mov")
        let result = try CLI.run(["render", dir + "/a", "--each", "-o", dir + "/{stem}.png", "--no-progress"])
        #expect(result.status == 64)
        #expect(result.stderr.contains("--output: {stem} has no value here (use {folder} or {index})"), "\(result.stderr)")
        let folders = try CLI.run(["render", dir + "/a", dir + "/a", "--each", "--frames", "2", "-o", dir + "/f{index}-{folder}.png", "-q"])
        #expect(folders.status == 0, "\(folders.stderr)")
        #expect(FileManager.default.fileExists(atPath: dir + "/f1-a.png") && FileManager.default.fileExists(atPath: dir + "/f2-a.png"))
    }
}

/// `--frames` on animated GIF and WebP files: a section of their frames, each shown at its
/// own start, captioned with tenths of a second (a short animation).
@Suite struct AnimationFramesTests {
    @Test func anAnimatedGIFAndWebPBecomeSections() throws {
        let dir = CLI.temporaryDirectory()
        #expect(mosaic_gif_encode_animation(dir + "/wave.gif", 48, 20, 10, 20, 1).status.rawValue == 0)
        #expect(mosaic_webp_encode_animation(dir + "/spin.webp", 48, 20, 3, 500).status.rawValue == 0)
        try FileManager.default.copyItem(atPath: CLI.sampleImages + "/coins.png", toPath: dir + "/coins.png")
        let result = try CLI.run(
            ["render", dir + "/wave.gif", dir + "/spin.webp", dir + "/coins.png", "-o", dir + "/sheet.png", "--frames", "4", "--json", dir + "/map.json",
             "--no-progress", "--caption", "{timestamp}"])
        #expect(result.status == 0, "\(result.stderr)")
        let map = try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: dir + "/map.json"))) as? [String: Any])
        let elements = try #require(map["elements"] as? [[String: Any]])
        // wave.gif: 2 s of ten 0.2 s frames; 4 times from 5% to 95% (0.1, 0.7, 1.3, 1.9 s)
        // are frames 0, 3, 6 and 9. spin.webp: 1.5 s of three frames; the 4 times show
        // each once.
        let times = elements.compactMap { $0["time"] as? Double }.map { ($0 * 10).rounded() / 10 }
        #expect(times == [0, 0.6, 1.2, 1.8, 0, 0.5, 1], "\(times)")
        let headers = elements.filter { $0["kind"] as? String == "header" }.compactMap { $0["text"] as? String }
        #expect(headers.contains { $0.hasPrefix("wave.gif · 0:02 · ") && $0.hasSuffix(" · 48x20 · gif · 5 fps") }, "\(headers)")
        #expect(headers.contains { $0.hasPrefix("spin.webp · 0:01 · ") && $0.hasSuffix(" · webp · 2 fps") }, "\(headers)")
        // The photo stays a card of its own, without a time.
        #expect(elements.contains { ($0["source"] as? String)?.hasSuffix("coins.png") == true && $0["time"] == nil })
        let text = try String(contentsOfFile: dir + "/map.json", encoding: .utf8)
        #expect(text.contains("\"0:00.6\"") && text.contains("\"0:01.8\""), "\(text.prefix(2000))")
    }

    /// An animated JPEG XL too (its frame headers' durations at the header's ticks a second),
    /// and one of frames of 2^32 - 1 ticks at 1/1024 tick a second (139,000 years each): a
    /// section all the same, captioned in hours.
    @Test func anAnimatedJPEGXLBecomesASection() throws {
        let dir = CLI.temporaryDirectory()
        #expect(mosaic_jxl_encode_indexed_animation(dir + "/wave.jxl", 48, 20, 10, [UInt32](repeating: 2, count: 10), 10, 1).status.rawValue == 0)
        #expect(mosaic_jxl_encode_indexed_animation(dir + "/ages.jxl", 48, 20, 3, [.max, .max, 5], 1, 1024).status.rawValue == 0)
        let result = try CLI.run(
            ["render", dir + "/wave.jxl", dir + "/ages.jxl", "-o", dir + "/sheet.png", "--frames", "4", "--json", dir + "/map.json", "--no-progress",
             "--caption", "{timestamp}"])
        #expect(result.status == 0, "\(result.stderr)")
        let map = try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: dir + "/map.json"))) as? [String: Any])
        let elements = try #require(map["elements"] as? [[String: Any]])
        // wave.jxl: 2 s of ten 0.2 s frames, as wave.gif above; ages.jxl: the 4 times show
        // its frames 0 and 1 (the last, 5 ticks long, starts after 95%).
        let times = elements.compactMap { $0["time"] as? Double }
        let long = Double(UInt32.max) * 1024
        #expect(times.prefix(4).map { ($0 * 10).rounded() / 10 } == [0, 0.6, 1.2, 1.8], "\(times)")
        #expect(Array(times.dropFirst(4)) == [0, long], "\(times)")
        let headers = elements.filter { $0["kind"] as? String == "header" }.compactMap { $0["text"] as? String }
        #expect(headers.contains { $0.hasPrefix("wave.jxl · 0:02 · ") && $0.hasSuffix(" · 48x20 · jxl · 5 fps") }, "\(headers)")
        #expect(headers.contains { $0.hasPrefix("ages.jxl · 2443359173:") }, "\(headers)")
    }

    /// An animation shorter than a second gives its length in tenths: a header said
    /// "blink.jxl · 0:00" of eight frames playing 0.8 s.
    @Test func aSubSecondAnimationsLengthHasTenths() throws {
        let dir = CLI.temporaryDirectory()
        #expect(mosaic_jxl_encode_indexed_animation(dir + "/blink.jxl", 48, 20, 8, nil, 10, 1).status.rawValue == 0)
        let result = try CLI.run(["render", dir + "/blink.jxl", "-o", dir + "/sheet.png", "--frames", "4", "--json", dir + "/map.json", "--no-progress"])
        #expect(result.status == 0, "\(result.stderr)")
        let map = try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: dir + "/map.json"))) as? [String: Any])
        let headers = try #require(map["elements"] as? [[String: Any]]).filter { $0["kind"] as? String == "header" }.compactMap { $0["text"] as? String }
        #expect(headers.contains { $0.hasPrefix("blink.jxl · 0:00.8 · ") }, "\(headers)")
    }

    /// The card cache tells an animation's frames apart: a second run, served from the
    /// cache, draws the same sheet (not frame 0 four times).
    @Test func theCardCacheKeepsEachFrame() throws {
        let dir = CLI.temporaryDirectory()
        #expect(mosaic_gif_encode_animation(dir + "/wave.gif", 48, 20, 10, 20, 1).status.rawValue == 0)
        for run in ["a", "b"] {
            let result = try CLI.run(["render", dir + "/wave.gif", "-o", dir + "/\(run).png", "--frames", "4", "-q", "--cache", dir + "/cache"], environment: ["MOSAIC_CACHE": ""])
            #expect(result.status == 0, "\(result.stderr)")
        }
        #expect(try Data(contentsOf: URL(fileURLWithPath: dir + "/a.png")) == Data(contentsOf: URL(fileURLWithPath: dir + "/b.png")))
    }
}
