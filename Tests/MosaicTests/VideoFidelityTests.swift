import CMosaicFixtures
import Foundation
import MosaicImage
import Testing

@testable import Mosaic

/// Each frame of a video section against ffmpeg's own decode of the frame at the time the
/// section (and so the image map) states: within 40 dB PSNR. Needs the ffmpeg program.
@Suite struct VideoFidelityTests {
    static let ffmpeg = ["/usr/bin/ffmpeg", "/usr/local/bin/ffmpeg"].first { FileManager.default.isExecutableFile(atPath: $0) }

    /// ffmpeg's frame at `time`, as RGBA: decoded from the start, frames before the time
    /// dropped (output seeking: ffmpeg's input seeking lands on the keyframe after the time
    /// when B-frames put a keyframe's decoding time before its presentation, and gives that).
    static func ffmpegFrame(_ path: String, time: Double, ffmpeg: String) throws -> [UInt8] {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: ffmpeg)
        process.arguments = ["-v", "error", "-i", path, "-ss", String(format: "%.3f", time), "-frames:v", "1", "-f", "rawvideo", "-pix_fmt", "rgba", "-"]
        let pipe = Pipe()
        process.standardOutput = pipe
        try process.run()
        let data = pipe.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return [UInt8](data)
    }

    /// PSNR of two RGBA buffers' colour channels, in dB.
    static func psnr(_ a: [UInt8], _ b: [UInt8]) -> Double {
        var squares = 0.0
        var count = 0
        for i in 0..<min(a.count, b.count) where i % 4 != 3 {
            let d = Double(a[i]) - Double(b[i])
            squares += d * d
            count += 1
        }
        return squares == 0 ? .infinity : 10 * log10(255 * 255 / (squares / Double(count)))
    }

    /// A 2-second clip at 10 frames a second (the section's times fall on frames), a
    /// keyframe every 8: the times are reached by decoding from the keyframe before them
    /// (with B-frames, those shown before the time and referred to by none are skipped).
    @Test(.enabled(if: ffmpeg != nil, "needs the ffmpeg program (apt-get install ffmpeg)"), arguments: [0, 2])
    func framesMatchFfmpegsDecodeAtTheirTimes(bFrames: Int) throws {
        let ffmpeg = try #require(Self.ffmpeg)
        let folder = VideoSheetTests.folder("fidelity\(bFrames)")
        let path = folder + "/clip.mp4"
        var message = [CChar](repeating: 0, count: 256)
        let status = path.withCString { cPath in
            "mp4".withCString { container in
                "mpeg4".withCString { codec in
                    var f = mosaic_video_fixture()
                    (f.path, f.container, f.codec) = (cPath, container, codec)
                    (f.width, f.height, f.frames, f.fps, f.gop) = (160, 96, 20, 10, 8)
                    f.b_frames = Int32(bFrames)
                    return mosaic_write_video_fixture(&f, &message, message.count)
                }
            }
        }
        try #require(status == 0)
        let decoder = ImageDecoder()
        let catalog = try Catalog.folder(folder).expandingVideoFrames(.count(4))
        let entries = try #require(catalog.sections.first?.entries)
        #expect(entries.count == 4)
        var indices: [Int] = []
        for entry in entries {
            let info = try #require(entry.info)
            let time = try #require(info.video?.frameTime)
            let ours = try decoder.decode(path, probed: info).bitmap
            let theirs = try Self.ffmpegFrame(path, time: time, ffmpeg: ffmpeg)
            #expect(theirs.count == ours.width * ours.height * 4, "ffmpeg gave \(theirs.count) bytes at \(time) s")
            let db = Self.psnr(ours.pixels, theirs)
            #expect(db >= 40, "\(time) s: \(db) dB")
            indices.append(VideoSheetTests.index(ours, in: Rect(x: 0, y: 0, width: ours.width, height: ours.height)))
        }
        // 0.1, 0.7, 1.3, 1.9 s: frames 1, 7, 13, 19.
        #expect(indices == [1, 7, 13, 19])
    }
}
