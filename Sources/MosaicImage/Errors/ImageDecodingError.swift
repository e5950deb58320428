/// Why an image could not be read. Every case names the file; library failures carry the
/// library's own message.
public enum ImageDecodingError: Error, Hashable, Sendable, CustomStringConvertible {
    /// The file could not be opened or read (`reason` is the system's message).
    case unreadable(path: String, reason: String)
    /// The path is a FIFO, socket or device (`kind` says which: "a FIFO (named pipe)"):
    /// never opened for reading, since reading it could block forever or never end.
    case notAFile(path: String, kind: String)
    /// No codec of the registry in use recognises the signature: the first bytes (up to
    /// 16), for naming a known format mosaic does not read
    /// (`ImageSignatures.unreadableFormat`), never shown in a message; `readable`, the names
    /// of the formats that registry reads (`CodecRegistry.names`).
    case unsupportedFormat(path: String, signature: [UInt8], readable: [String])
    /// The format's library refused the file, with its own message.
    case codec(path: String, format: ImageFormat, message: String)
    /// The image is larger than the limit allows (checked from the header, before any
    /// pixel memory is taken).
    case tooLarge(path: String, width: Int, height: Int, limit: Int)
    /// The file is one mosaic recognises (a camera RAW) but its library cannot draw, and it
    /// holds nothing else to draw: `reason` says why ("DNG compressed with JPEG XL: LibRaw
    /// 0.20 cannot decode it", "the raw data is cut short...").
    case undrawable(path: String, format: ImageFormat, reason: String)
    /// Strict mode: the decoder had to work around damaged or missing data.
    case damaged(path: String, message: String)
    /// Decoding would hold `bytes` of memory, more than the per-image limit
    /// (`ImageLimits.maximumDecodeMemory`): an animation's canvas, a GIF's screen. Checked
    /// from the header, before any allocation.
    case overMemoryLimit(path: String, bytes: Int, limit: Int)
    /// The system refused memory the decode needed (about `bytes` in all): the file may
    /// well be fine.
    case outOfMemory(path: String, bytes: Int)

    /// A video (`VideoCodec`) could not be read: the kind of problem, with FFmpeg's message
    /// where it gave one.
    case video(path: String, problem: VideoProblem)

    public var path: String {
        switch self {
        case .unreadable(let path, _), .notAFile(let path, _), .unsupportedFormat(let path, _, _), .codec(let path, _, _), .undrawable(let path, _, _),
            .tooLarge(let path, _, _, _), .damaged(let path, _), .overMemoryLimit(let path, _, _), .outOfMemory(let path, _),
            .video(let path, _):
            return path
        }
    }

    /// A stable name of the case, for machine-readable reports ("codec", "tooLarge").
    public var code: String {
        switch self {
        case .unreadable: return "unreadable"
        case .notAFile: return "notAFile"
        case .unsupportedFormat: return "unsupportedFormat"
        case .codec: return "codec"
        case .undrawable: return "undrawable"
        case .tooLarge: return "tooLarge"
        case .damaged: return "damaged"
        case .overMemoryLimit: return "overMemoryLimit"
        case .outOfMemory: return "outOfMemory"
        case .video: return "video"
        }
    }

    /// What went wrong, without the path.
    public var reason: String {
        switch self {
        case .unreadable(_, let reason):
            return "cannot read: \(reason)"
        case .notAFile(_, let kind):
            return "not a file: it is \(kind) (not read)"
        case .unsupportedFormat(_, let signature, let readable):
            if let format = ImageSignatures.unreadableFormat(signature) {
                return "a \(format) image: mosaic reads \(CodecRegistry.sentence(readable)) only"
            }
            // Never the bytes themselves: the file may be a secret (`/etc/shadow` through a
            // manifest), and the message goes to terminals, logs and the image map.
            if signature.isEmpty { return "not an image: the file is empty" }
            return "not a \(CodecRegistry.sentence(readable)) file"
        case .codec(_, let format, let message):
            return "invalid \(format): \(message)"
        case .undrawable(_, let format, let reason):
            return "a \(format) that cannot be drawn: \(reason)"
        case .tooLarge(_, let width, let height, let limit):
            return "\(width)x\(height) is \(width * height) pixels, more than the limit of \(limit)"
        case .damaged(_, let message):
            return "damaged: \(message)"
        case .overMemoryLimit(_, let bytes, let limit):
            return "decoding needs \(Self.megabytes(bytes)), more than the limit of \(Self.megabytes(limit)) per image"
        case .outOfMemory(_, let bytes):
            return "out of memory: the system refused the memory decoding needs (\(Self.megabytes(bytes)))"
        case .video(_, let problem):
            return problem.description
        }
    }

    /// `bytes` in whole megabytes (MiB), at least 1: "1024 MB".
    static func megabytes(_ bytes: Int) -> String {
        "\(max(1, (bytes + (1 << 20) - 1) >> 20)) MB"
    }

    /// "path: reason", the path as people read it (bytes that are not UTF-8 as U+FFFD).
    public var description: String {
        "\(FileNames.display(path)): \(reason)"
    }
}
