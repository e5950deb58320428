import ArgumentParser
import Foundation
import Mosaic

/// How videos are drawn: a poster card each (its frame, badge), or a section of frames.
struct VideoArguments: ParsableArguments {
    enum Videos: String, ExpressibleByArgument, CaseIterable {
        case poster, skip
    }

    enum Badge: String, ExpressibleByArgument, CaseIterable {
        case play, none
    }

    @Option(help: "Videos: a poster card each (a frame, a play mark, the duration), or skip them.")
    var videos: Videos = .poster
    @Option(help: ArgumentHelp("A poster's frame: auto (the first not black nor blank from 10%), 12.5 (seconds) or 40%.", valueName: "time"))
    var poster = "auto"
    @Option(help: "The badge on a poster: play (a play mark and the duration) or none.")
    var videoBadge: Badge = .play
    @Option(parsing: .unconditional, help: ArgumentHelp("Each video a section of N frames from 5% to 95% of it, captioned with their times. (default: none)", valueName: "n"))
    var frames: Int?
    @Option(parsing: .unconditional, help: ArgumentHelp("As --frames, a frame every SECONDS instead. (default: none)", valueName: "seconds"))
    var frameInterval: Double?
    @Option(help: ArgumentHelp("A video section's header: {name} {stem} {duration} {size} {resolution} {codec} {fps} (default: all but {stem})", valueName: "template"))
    var videoHeader: String?
    @Flag(help: "With --frames: the keyframe before each time, not the exact frame (faster).")
    var fastSeek = false
    @Option(parsing: .unconditional, help: ArgumentHelp("Seconds a clip's probe, or one frame, may take; past it, a placeholder.", valueName: "seconds"))
    var clipTimeout: Double = 30

    mutating func validate() throws {
        guard PosterTime(poster) != nil else { throw ValidationError("--poster: \"\(poster)\" is not auto, a time in seconds (12.5) or a share of the duration (40%)") }
        if let frames, !(1...FrameSpacing.maximumFrames).contains(frames) {
            throw ValidationError("--frames must be between 1 and \(FrameSpacing.maximumFrames), got \(frames)")
        }
        if let frameInterval, !(frameInterval.isFinite && frameInterval > 0) {
            throw ValidationError("--frame-interval must be a number of seconds above 0, got \(frameInterval)")
        }
        if frames != nil && frameInterval != nil { throw ValidationError("--frames and --frame-interval: give one") }
        if videos == .skip && spacing != nil { throw ValidationError("--frames goes with videos; --videos skip leaves them out") }
        if videoHeader != nil && spacing == nil { throw ValidationError("--video-header goes with --frames or --frame-interval") }
        if let videoHeader {
            for placeholder in CaptionMode.placeholdersUsed(in: videoHeader) where !Catalog.videoHeaderPlaceholders.contains(placeholder) {
                throw ValidationError("--video-header: no placeholder {\(placeholder)}; the placeholders are {\(Catalog.videoHeaderPlaceholders.joined(separator: "} {"))}")
            }
        }
        guard clipTimeout.isFinite && clipTimeout > 0 else { throw ValidationError("--clip-timeout must be a number of seconds above 0, got \(clipTimeout)") }
    }

    /// The frames asked of each video, or nil for posters.
    var spacing: FrameSpacing? {
        if let frames { return .count(frames) }
        return frameInterval.map { .interval($0) }
    }

    /// How frames are decoded.
    var decoding: VideoDecoding {
        VideoDecoding(poster: PosterTime(poster) ?? .auto, exactFrames: !fastSeek, clipTimeout: clipTimeout)
    }

    func apply(to o: inout SheetOptions) {
        o.video = decoding
        o.videoBadge = videoBadge == .play
    }

    /// The catalog as these options draw its videos: left out, or each a section of frames.
    /// With --frames, an animated GIF, WebP or JPEG XL is a section of its frames too.
    func arrange(_ catalog: Catalog, columns: Int?, decoder: ImageDecoder) -> Catalog {
        if videos == .skip { return catalog.leavingOutVideos() }
        guard let spacing else { return catalog }
        return catalog.expandingVideoFrames(spacing, header: videoHeader ?? Catalog.defaultVideoHeader, columns: columns ?? 4) { entry in
            entry.info.flatMap { decoder.timeline(entry.path, info: $0) }
        }
    }
}
