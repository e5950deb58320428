import CMosaicFixtures
import Foundation
import MosaicImage
import Testing

@testable import Mosaic

/// Clips on a sheet: poster cards with their badge, sections of frames, clips left out.
@Suite struct VideoSheetTests {
    static let font = "/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf"

    /// A fresh folder.
    static func folder(_ name: String = #function) -> String {
        let path = NSTemporaryDirectory() + "mosaic-video-\(getpid())-\(name.filter(\.isLetter))-\(UUID().uuidString.prefix(8))"
        try! FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
        return path
    }

    /// A 2-second MPEG-4 clip of 50 frames at 25 fps (`video_fixture.c`: each frame shows its
    /// index as bars), `black` of them black first; or an audio-only QuickTime file.
    static func clip(_ path: String, black: Int = 0, audioOnly: Bool = false) throws {
        var message = [CChar](repeating: 0, count: 256)
        let status = path.withCString { cPath in
            (audioOnly ? "mov" : "mp4").withCString { container in
                "mpeg4".withCString { codec in
                    var f = mosaic_video_fixture()
                    (f.path, f.container, f.codec) = (cPath, container, codec)
                    (f.width, f.height, f.frames, f.fps, f.gop) = (160, 96, 50, 25, 12)
                    f.black_frames = Int32(black)
                    f.audio_only = audioOnly ? 1 : 0
                    return mosaic_write_video_fixture(&f, &message, message.count)
                }
            }
        }
        #expect(status == 0, "\(String(decoding: message.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self))")
    }

    /// The frame index a frame shows: its eight bars, sampled across `rect`'s upper half.
    static func index(_ bitmap: Bitmap, in rect: Rect) -> Int {
        var index = 0
        let y = rect.minY + rect.height * 3 / 8
        for bit in 0..<8 where bitmap[rect.minX + (bit * 2 + 1) * rect.width / 16, y].red > 128 { index |= 1 << bit }
        return index
    }

    static func render(_ catalog: Catalog, _ options: SheetOptions) throws -> (ContactSheet, Bitmap) {
        let sheet = try ContactSheet(catalog: catalog, options: options, typesetter: Typesetter(fonts: try FontLibrary()))
        let sink = MemorySink()
        _ = try SheetRenderer(sheet: sheet).render(into: sink)
        return (sheet, try #require(sink.pages.first))
    }

    static var options: SheetOptions {
        var options = SheetOptions()
        options.width = 600
        options.columns = 2
        options.style.font = .file(font)
        options.style.shadowColor = .transparent
        return options
    }

    @Test func aFolderClipIsAPosterAndAClipWithoutVideoIsNamedAndLeftOut() throws {
        let folder = Self.folder()
        try Self.clip(folder + "/clip.mp4")
        try Self.clip(folder + "/voice.mov", audioOnly: true)
        let catalog = try Catalog.folder(folder)
        #expect(catalog.entries.map(\.relativePath) == ["clip.mp4"])
        #expect(catalog.entries.first?.info?.video?.codec == "mpeg4")
        #expect(catalog.unreadableImages.map(\.error) == [.video(path: folder + "/voice.mov", problem: .noVideoStream(audioStreams: 1))])
    }

    @Test func videosSkipLeavesThemOut() throws {
        let folder = Self.folder()
        try Self.clip(folder + "/clip.mp4")
        let catalog = try Catalog.folder(folder).leavingOutVideos()
        #expect(catalog.sections.isEmpty)
        #expect(catalog.skippedFiles == ["clip.mp4"])
    }

    @Test func frameTimesFromFiveToNinetyFivePercent() {
        func close(_ a: [Double], _ b: [Double]) -> Bool { a.count == b.count && zip(a, b).allSatisfy { abs($0 - $1) < 1e-9 } }
        #expect(close(FrameSpacing.count(5).times(duration: 100), [5, 27.5, 50, 72.5, 95]))
        #expect(FrameSpacing.count(1).times(duration: 100) == [50])
        #expect(FrameSpacing.interval(30).times(duration: 100) == [15, 45, 75])
        #expect(FrameSpacing.count(4).times(duration: .nan) == [0])
    }

    @Test func eachClipASectionOfItsFramesUnderItsHeader() throws {
        let folder = Self.folder()
        try Self.clip(folder + "/clip.mp4")
        let catalog = try Catalog.folder(folder).expandingVideoFrames(.count(4), header: "{name} {duration} {resolution} {codec} {fps} fps", columns: 2)
        #expect(catalog.sections.count == 1)
        let section = try #require(catalog.sections.first)
        #expect(section.header == "clip.mp4 0:02 160x96 mpeg4 25 fps")
        #expect(section.overrides.columns == 2)
        let times = section.entries.map { $0.info?.video?.frameTime ?? -1 }
        #expect(zip(times, [0.1, 0.7, 1.3, 1.9]).allSatisfy { abs($0 - $1) < 1e-9 })
        #expect(section.entries.map { $0.title ?? "" } == ["0:00.1", "0:00.7", "0:01.3", "0:01.9"])
    }

    @Test func framesAreDrawnAtTheirTimesAndTheMapSaysWhich() throws {
        let folder = Self.folder()
        try Self.clip(folder + "/clip.mp4")
        let catalog = try Catalog.folder(folder).expandingVideoFrames(.count(4), columns: 2)
        var options = Self.options
        options.caption = .template("{timestamp}")
        let (sheet, page) = try Self.render(catalog, options)
        let map = sheet.imageMap(output: nil)
        #expect(map.schemaVersion >= 2)
        let cards = map.elements.filter { $0.kind == "card" }
        #expect(zip(cards.map { $0.time ?? -1 }, [0.1, 0.7, 1.3, 1.9]).allSatisfy { abs($0 - $1) < 1e-9 })
        #expect(cards.map { $0.title ?? "" } == ["0:00.1", "0:00.7", "0:01.3", "0:01.9"])
        // Frames 2, 17, 32 and 47 (exact, not their keyframes 0, 12, 24, 36).
        #expect(cards.map { Self.index(page, in: try! #require($0.imageFrame)) } == [2, 17, 32, 47])
    }

    /// An animated JPEG XL is a clip too: each frame drawn as shown at its time (its index
    /// bars), the map giving each frame's start.
    @Test func anAnimatedJPEGXLsFramesAreDrawnAtTheirTimes() throws {
        let folder = Self.folder()
        // Ten frames of 0.2 s: the times 0.1, 0.7, 1.3 and 1.9 s show frames 0, 3, 6 and 9.
        let durations = [UInt32](repeating: 2, count: 10)
        #expect(mosaic_jxl_encode_indexed_animation(folder + "/anim.jxl", 160, 96, 10, durations, 10, 1).status.rawValue == 0)
        let decoder = ImageDecoder()
        let catalog = try Catalog.folder(folder).expandingVideoFrames(.count(4), columns: 2) { entry in
            entry.info.flatMap { decoder.timeline(entry.path, info: $0) }
        }
        let (sheet, page) = try Self.render(catalog, Self.options)
        let cards = sheet.imageMap(output: nil).elements.filter { $0.kind == "card" }
        #expect(zip(cards.map { $0.time ?? -1 }, [0, 0.6, 1.2, 1.8]).allSatisfy { abs($0 - $1) < 1e-9 }, "\(cards.map(\.time))")
        #expect(cards.map { Self.index(page, in: try! #require($0.imageFrame)) } == [0, 3, 6, 9])
    }

    @Test func aPosterHasItsBadgeUnlessAskedNot() throws {
        let folder = Self.folder()
        try Self.clip(folder + "/clip.mp4")
        let catalog = try Catalog.folder(folder)
        var options = Self.options
        options.caption = .template("{duration} {codec}")
        let (sheet, withBadge) = try Self.render(catalog, options)
        options.videoBadge = false
        let (_, without) = try Self.render(catalog, options)
        let card = try #require(sheet.imageMap(output: nil).elements.first { $0.kind == "card" })
        #expect(card.title == "0:02 mpeg4")
        let image = try #require(card.imageFrame)
        // The badge's corner: darker with the badge (a translucent black pill), the rest alike.
        let corner = Rect(x: image.minX, y: image.maxY - image.height / 4, width: image.width / 3, height: image.height / 4)
        func luma(_ page: Bitmap, _ rect: Rect) -> Int {
            var sum = 0
            for y in rect.minY..<rect.maxY { for x in rect.minX..<rect.maxX { sum += Int(page[x, y].green) } }
            return sum / (rect.width * rect.height)
        }
        #expect(luma(withBadge, corner) < luma(without, corner) - 10)
        let top = Rect(x: image.minX, y: image.minY, width: image.width, height: image.height / 2)
        #expect(luma(withBadge, top) == luma(without, top))
    }

    @Test func anAutoPosterIsNotBlack() throws {
        let folder = Self.folder()
        try Self.clip(folder + "/clip.mp4", black: 20)
        let (sheet, page) = try Self.render(try Catalog.folder(folder), Self.options)
        let image = try #require(sheet.imageMap(output: nil).elements.first { $0.kind == "card" }?.imageFrame)
        #expect(Self.index(page, in: image) >= 20)
    }
}
