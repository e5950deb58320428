import CMosaicFixtures
import Foundation
import Testing

/// `mosaic probe` on a clip, a sheet of its frames, and the video options' usage errors.
@Suite struct VideoCommandTests {
    /// A 2-second MPEG-4 clip (50 frames at 25 fps) in QuickTime, turned a quarter clockwise.
    static func clip(_ path: String) throws {
        var message = [CChar](repeating: 0, count: 256)
        let status = path.withCString { cPath in
            "mov".withCString { container in
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
