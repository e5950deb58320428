/// What a video's container and stream headers say, beyond an image's facts (read without
/// decoding a frame), and which of its frames a card shows.
public struct VideoInfo: Sendable, Hashable, Codable {
    /// Seconds; nil when the container does not say.
    public var duration: Double?
    /// Frames a second; nil when unknown.
    public var frameRate: Double?
    /// FFmpeg's short name of the codec ("h264", "hevc", "mpeg4").
    public var codec: String
    /// The container's short name ("mov,mp4,m4a,3gp,3g2,mj2", "matroska,webm").
    public var container: String
    /// The stored frame size before the sample aspect ratio (`ImageInfo` holds the size
    /// displayed, before rotation).
    public var codedWidth: Int
    public var codedHeight: Int
    /// Bits a second of the whole file; nil when unknown.
    public var bitRate: Int?
    /// The pixel format ("yuv420p").
    public var pixelFormat: String
    /// The frame this card shows, in seconds from the clip's start: a frame of a video
    /// contact sheet (`--frames`); nil for a poster, chosen when decoding.
    public var frameTime: Double?
    /// Frames the stream's decoder may hold at once, at the stored size: the decoded
    /// picture buffer the codec's level allows (H.264, HEVC) and the frame being decoded; 2
    /// for a codec whose every frame is a keyframe (MJPEG, ProRes: the frame and the one
    /// before it); nil when the headers do not say.
    public var decoderFrames: Int?

    public init(
        duration: Double?, frameRate: Double?, codec: String, container: String, codedWidth: Int, codedHeight: Int, bitRate: Int? = nil,
        pixelFormat: String = "", frameTime: Double? = nil, decoderFrames: Int? = nil
    ) {
        self.duration = duration
        self.frameRate = frameRate
        self.codec = codec
        self.container = container
        self.codedWidth = codedWidth
        self.codedHeight = codedHeight
        self.bitRate = bitRate
        self.pixelFormat = pixelFormat
        self.frameTime = frameTime
        self.decoderFrames = decoderFrames
    }

    /// A clip's length as people read it: as `timestamp`, with tenths under a second
    /// ("0:00.8": a clip that plays is never "0:00").
    public static func duration(_ seconds: Double) -> String {
        timestamp(seconds, tenths: seconds > 0 && seconds < 1)
    }

    /// A position in a clip as people read it: "0:07", "1:02:03" (whole seconds, rounded
    /// down; minutes and seconds always, hours when there are any); with `tenths` (a clip
    /// of a few seconds, whose frames would share their seconds), "0:01.4".
    public static func timestamp(_ seconds: Double, tenths: Bool = false) -> String {
        let value = seconds.isFinite ? max(0, seconds) : 0
        let whole = Int(value.rounded(.down))
        let (h, m, s) = (whole / 3600, (whole / 60) % 60, whole % 60)
        func two(_ n: Int) -> String { n < 10 ? "0\(n)" : "\(n)" }
        let text = h > 0 ? "\(h):\(two(m)):\(two(s))" : "\(m):\(two(s))"
        guard tenths else { return text }
        return text + "." + String(min(9, Int(((value - Double(whole)) * 10 + 1e-6).rounded(.down))))
    }

    /// Clips shorter than this many seconds caption their frames with tenths of a second.
    public static let tenthsBelow = 10.0

    /// The frame rate as people read it: "25", "29.97", "23.976"; "?" when unknown.
    public var frameRateText: String {
        guard let frameRate, frameRate > 0 else { return "?" }
        let rounded = (frameRate * 1000).rounded() / 1000
        if rounded == rounded.rounded() { return String(Int(rounded)) }
        var text = String(rounded)
        while text.hasSuffix("0") { text.removeLast() }
        return text
    }
}

/// Which frame a poster card shows.
public enum PosterTime: Hashable, Sendable, CustomStringConvertible {
    /// From 10% of the clip on, the first frame that is not black, blank or a fade.
    case auto
    /// A fixed time, in seconds.
    case seconds(Double)
    /// A fixed fraction of the duration (0...1).
    case fraction(Double)

    /// Parses `auto`, `12.5` (seconds) or `40%`; nil for anything else.
    public init?(_ text: String) {
        if text == "auto" {
            self = .auto
        } else if text.hasSuffix("%"), let percent = Double(text.dropLast()), percent.isFinite, (0...100).contains(percent) {
            self = .fraction(percent / 100)
        } else if let seconds = Double(text), seconds.isFinite, seconds >= 0 {
            self = .seconds(seconds)
        } else {
            return nil
        }
    }

    public var description: String {
        switch self {
        case .auto: return "auto"
        case .seconds(let s): return String(s)
        case .fraction(let f): return String(f * 100) + "%"
        }
    }
}

/// How video frames are decoded: the poster's time, exact or fast seeking, the time limit.
public struct VideoDecoding: Hashable, Sendable {
    /// Which frame a poster shows (default `auto`).
    public var poster: PosterTime = .auto
    /// Decode each frame at its exact time (from the keyframe before it); false: the first
    /// frame from the keyframe before it (`--fast-seek`).
    public var exactFrames = true
    /// Seconds a clip's probe, or one frame's decode, may take (default 30).
    public var clipTimeout: Double = 30

    public init(poster: PosterTime = .auto, exactFrames: Bool = true, clipTimeout: Double = 30) {
        self.poster = poster
        self.exactFrames = exactFrames
        self.clipTimeout = clipTimeout
    }
}
