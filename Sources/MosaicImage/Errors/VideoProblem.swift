/// Why a video could not be read: the cases mosaic tells apart (`ImageDecodingError.video`).
public enum VideoProblem: Hashable, Sendable, CustomStringConvertible {
    /// FFmpeg's libraries could not be loaded (the system's message).
    case unavailable(message: String)
    /// The file holds streams, none of them video (`audioStreams` of audio).
    case noVideoStream(audioStreams: Int)
    /// An MP4 or QuickTime file without its index (moov atom): cut short while recording.
    case incomplete
    /// This FFmpeg has no decoder for the codec (its name or tag, "aprn").
    case unknownCodec(codec: String)
    /// The clip took longer than its time limit (`--clip-timeout`, seconds).
    case timedOut(seconds: Double)
    /// No frame could be decoded.
    case noFrame(message: String)
    /// FFmpeg refused the file, with its message.
    case library(message: String)

    /// A stable name of the case.
    public var code: String {
        switch self {
        case .unavailable: return "unavailable"
        case .noVideoStream: return "noVideoStream"
        case .incomplete: return "incomplete"
        case .unknownCodec: return "unknownCodec"
        case .timedOut: return "timedOut"
        case .noFrame: return "noFrame"
        case .library: return "library"
        }
    }

    public var description: String {
        switch self {
        case .unavailable(let message): return "cannot read videos: \(message)"
        case .noVideoStream(let audio): return audio > 0 ? "no video stream: audio only" : "no video stream"
        case .incomplete: return "no index (moov atom): the file is incomplete"
        case .unknownCodec(let codec): return "this FFmpeg cannot decode \(codec)"
        case .timedOut(let seconds):
            let text = seconds == seconds.rounded() ? String(Int(seconds)) : String(seconds)
            return "the clip took longer than its limit of \(text) s (--clip-timeout)"
        case .noFrame(let message): return "no frame: \(message)"
        case .library(let message): return "invalid video: \(message)"
        }
    }
}
