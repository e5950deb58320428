import MosaicImage

/// Why a pair could not be compared (a failed pair): one of its images cannot be read,
/// the pair would hold too much pixel memory, or, read back from a sharded run's part, the
/// message its shard wrote.
public enum PairError: Error, Equatable, Sendable, CustomStringConvertible {
    /// An image of the pair cannot be read.
    case image(ImageDecodingError)
    /// Comparing the image with its pair would hold more pixel memory (`bytes`, from the
    /// headers, before any pixel memory is taken) than the limit: a tiny file declaring a
    /// huge canvas.
    case tooMuchMemory(path: String, bytes: Int, limit: Int)
    /// An error read back from a report (a sharded `mosaic diff`'s part): its message as
    /// the run that met it wrote it, whole ("path: reason").
    case reported(path: String, message: String)

    /// The file the error is about.
    public var path: String {
        switch self {
        case .image(let error): return error.path
        case .tooMuchMemory(let path, _, _), .reported(let path, _): return path
        }
    }

    /// What went wrong, without the path.
    public var reason: String {
        switch self {
        case .image(let error): return error.reason
        case .tooMuchMemory(_, let bytes, let limit):
            return "comparing it would take \(bytes / (1 << 20)) MiB of pixels, more than the limit of \(limit / (1 << 20)) MiB"
        case .reported(let path, let message):
            let prefix = FileNames.display(path) + ": "
            return message.hasPrefix(prefix) ? String(message.dropFirst(prefix.count)) : message
        }
    }

    /// "path: reason", the path as people read it (bytes that are not UTF-8 as U+FFFD).
    public var description: String {
        if case .reported(_, let message) = self { return message }
        return "\(FileNames.display(path)): \(reason)"
    }
}
