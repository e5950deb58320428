import MosaicImage

/// Which frames of a clip a video contact sheet shows (`--frames`, `--frame-interval`).
public enum FrameSpacing: Hashable, Sendable {
    /// This many frames, evenly spaced from 5% to 95% of the duration (one: the middle).
    case count(Int)
    /// A frame every this many seconds, the first half an interval in.
    case interval(Double)

    /// The most frames a clip gives (`--frame-interval 0.01` on a film).
    public static let maximumFrames = 1000

    /// The frame times, in seconds, for a clip of `duration` seconds.
    public func times(duration: Double) -> [Double] {
        guard duration.isFinite, duration > 0 else { return [0] }
        switch self {
        case .count(let n):
            guard n > 1 else { return [duration / 2] }
            let count = min(n, Self.maximumFrames)
            return (0..<count).map { duration * (0.05 + 0.9 * Double($0) / Double(count - 1)) }
        case .interval(let seconds):
            guard seconds.isFinite, seconds > 0 else { return [duration / 2] }
            var times: [Double] = []
            var t = seconds / 2
            while t < duration && times.count < Self.maximumFrames {
                times.append(t)
                t += seconds
            }
            return times.isEmpty ? [duration / 2] : times
        }
    }
}

extension Catalog {
    /// The default header of a video's section: its name, duration, file size, resolution,
    /// codec and frame rate.
    public static let defaultVideoHeader = "{name} · {duration} · {size} · {resolution} · {codec} · {fps} fps"

    /// The same catalog with each video turned into a section of its frames (a video
    /// contact sheet): after the section it was in, headed by `header` (a template with
    /// {name} {stem} {duration} {size} {resolution} {codec} {fps}), each frame an entry of
    /// the clip whose `VideoInfo.frameTime` says which and whose title is its timestamp
    /// ("1:02:03"). A clip whose duration is unknown stays a poster card. `columns` sets
    /// the frames' sections' columns (nil: the sheet's).
    ///
    /// An animation (an animated GIF, WebP or JPEG XL: `timelines` gives its frames, the decoder's
    /// `ImageDecoder.timeline`) is a clip too: each time is the frame shown then, captioned
    /// with that frame's start; a frame is shown once (an animation of fewer frames than
    /// asked shows each).
    public func expandingVideoFrames(
        _ spacing: FrameSpacing, header: String = Catalog.defaultVideoHeader, columns: Int? = nil,
        timelines: (CatalogEntry) -> AnimationTimeline? = { _ in nil }
    ) -> Catalog {
        var expanded = self
        expanded.sections = []
        for section in sections {
            var kept = section
            kept.entries = CatalogEntries()
            var clips: [CatalogSection] = []
            for entry in section.entries {
                var entry = entry
                var animation: AnimationTimeline?
                if entry.problem == nil, let info = entry.info, info.video == nil, let timeline = timelines(entry) {
                    animation = timeline
                    let name = info.format.rawValue
                    entry.info?.video = VideoInfo(
                        duration: timeline.duration, frameRate: Double(timeline.starts.count) / timeline.duration, codec: name, container: name,
                        codedWidth: info.width, codedHeight: info.height, pixelFormat: info.hasAlpha ? "rgba" : "rgb")
                }
                guard let info = entry.info, let video = info.video, let duration = video.duration, entry.problem == nil else {
                    kept.entries.append(entry)
                    continue
                }
                let tenths = duration < VideoInfo.tenthsBelow
                var frames = CatalogEntries()
                var times = spacing.times(duration: duration)
                if let animation {
                    // The frame shown at each time, by its own start; each frame once.
                    var seen = Set<Int>()
                    times = times.map { animation.frame(at: $0) }.filter { seen.insert($0).inserted }.map { animation.starts[$0] }
                }
                for time in times {
                    var frame = entry
                    frame.info?.video?.frameTime = time
                    frame.title = VideoInfo.timestamp(time, tenths: tenths)
                    frames.append(frame)
                }
                var clip = CatalogSection(header: Self.videoHeader(header, entry), entries: frames)
                clip.overrides.columns = columns
                clips.append(clip)
            }
            if !kept.entries.isEmpty || clips.isEmpty { expanded.sections.append(kept) }
            expanded.sections += clips
        }
        return expanded
    }

    /// `template` filled in for the clip `entry`.
    static func videoHeader(_ template: String, _ entry: CatalogEntry) -> String {
        CaptionMode.substitute(template[...]) { placeholder in
            switch placeholder {
            case "name": return entry.name
            case "stem": return entry.stem
            case "size": return CaptionMode.humanSize(entry.fileSize)
            case "duration", "codec", "fps", "resolution": return CaptionMode.videoValue(placeholder, entry)
            default: return nil
            }
        }
    }

    /// One catalog per video section of an expanded catalog (`expandingVideoFrames`), for
    /// `--each`: each named by its clip's stem and path, the catalog's skipped files and
    /// unread images told with the first. `leftOut` counts the cards in no video section
    /// (photos, clips of unknown duration).
    public func splitByVideo() -> (videos: [(stem: String, path: String, catalog: Catalog)], leftOut: Int) {
        var videos: [(stem: String, path: String, catalog: Catalog)] = []
        var leftOut = 0
        for section in sections {
            guard let first = section.entries.first, section.entries.allSatisfy({ $0.info?.video?.frameTime != nil }) else {
                leftOut += section.entries.count
                continue
            }
            var one = self
            one.sections = [section]
            if !videos.isEmpty { (one.skippedFiles, one.unreadableImages, one.unreadableFolders, one.symlinkLoops) = ([], [], [], []) }
            videos.append((first.stem, first.path, one))
        }
        return (videos, leftOut)
    }

    /// The placeholders a video header may use.
    public static let videoHeaderPlaceholders = ["name", "stem", "duration", "size", "resolution", "codec", "fps"]
}
