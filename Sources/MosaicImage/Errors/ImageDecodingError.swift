/// Why an image could not be read. Every case names the file; library failures carry the
/// library's own message.
public enum ImageDecodingError: Error, Hashable, Sendable, CustomStringConvertible {
    /// The file could not be opened or read (`reason` is the system's message).
    case unreadable(path: String, reason: String)
    /// No registered codec recognises the signature: the first bytes (up to 16), for the
    /// message and for naming a known format mosaic does not read
    /// (`ImageSignatures.unreadableFormat`).
    case unsupportedFormat(path: String, signature: [UInt8])
    /// The format's library refused the file, with its own message.
    case codec(path: String, format: ImageFormat, message: String)
    /// The image is larger than the limit allows (checked from the header, before any
    /// pixel memory is taken).
    case tooLarge(path: String, width: Int, height: Int, limit: Int)
    /// Strict mode: the decoder had to work around damaged or missing data.
    case damaged(path: String, message: String)
    /// Comparing the image with its pair would hold more pixel memory (`bytes`, from the
    /// headers, before any pixel memory is taken) than the limit: a tiny file declaring a
    /// huge canvas.
    case tooMuchMemory(path: String, bytes: Int, limit: Int)

    public var path: String {
        switch self {
        case .unreadable(let path, _), .unsupportedFormat(let path, _), .codec(let path, _, _),
            .tooLarge(let path, _, _, _), .damaged(let path, _), .tooMuchMemory(let path, _, _):
            return path
        }
    }

    /// A stable name of the case, for machine-readable reports ("codec", "tooLarge").
    public var code: String {
        switch self {
        case .unreadable: return "unreadable"
        case .unsupportedFormat: return "unsupportedFormat"
        case .codec: return "codec"
        case .tooLarge: return "tooLarge"
        case .damaged: return "damaged"
        case .tooMuchMemory: return "tooMuchMemory"
        }
    }

    /// What went wrong, without the path.
    public var reason: String {
        switch self {
        case .unreadable(_, let reason):
            return "cannot read: \(reason)"
        case .unsupportedFormat(_, let signature):
            if let format = ImageSignatures.unreadableFormat(signature) {
                return "a \(format) image: mosaic reads \(CodecRegistry.standard.formatNames) only"
            }
            let hex = signature.prefix(8).map { byte in
                let digits = String(byte, radix: 16)
                return digits.count == 1 ? "0" + digits : digits
            }.joined(separator: " ")
            return "not a \(CodecRegistry.standard.formatNames) file (it starts with \(hex.isEmpty ? "nothing: it is empty" : hex))"
        case .codec(_, let format, let message):
            return "invalid \(format): \(message)"
        case .tooLarge(_, let width, let height, let limit):
            return "\(width)x\(height) is \(width * height) pixels, more than the limit of \(limit)"
        case .damaged(_, let message):
            return "damaged: \(message)"
        case .tooMuchMemory(_, let bytes, let limit):
            return "comparing it would take \(bytes / (1 << 20)) MiB of pixels, more than the limit of \(limit / (1 << 20)) MiB"
        }
    }

    /// "path: reason", the path as people read it (bytes that are not UTF-8 as U+FFFD).
    public var description: String { "\(FileNames.display(path)): \(reason)" }
}
