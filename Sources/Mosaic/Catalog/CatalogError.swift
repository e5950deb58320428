/// Why a catalog could not be made.
public enum CatalogError: Error, Equatable, Sendable, CustomStringConvertible {
    case notFound(path: String)
    case notADirectory(path: String)
    case unreadableDirectory(path: String, reason: String)
    /// No image mosaic reads: `skipped` other files, and `unreadable` images in formats it
    /// has no codec for (each names its file and format).
    /// `subfolders`: folders inside it that were not looked in (no `recursive`); `readable`:
    /// the names of the formats the registry in use reads (`CodecRegistry.names`).
    case noImages(path: String, skipped: Int, unreadable: [CardProblem] = [], subfolders: Int = 0, readable: [String])
    case manifest(path: String, message: String)
    /// `--min-rating` left no photo: `count` were rated below `minimum` (or not at all).
    case noneRated(minimum: Int, count: Int)

    /// A message for people, naming the path.
    public var description: String {
        switch self {
        case .notFound(let path): return "\(path): no such file or folder"
        case .notADirectory(let path): return "\(path): not a folder"
        case .unreadableDirectory(let path, let reason): return "\(path): cannot list the folder: \(reason)"
        case .noImages(let path, let skipped, _, let subfolders, _) where subfolders > 0:
            // Its images are in its subfolders, most likely: say so, and how to take them.
            let others = skipped > 0 ? " (\(skipped) other file\(skipped == 1 ? "" : "s") skipped)" : ""
            return "\(path): no images in the folder itself\(others); it holds \(subfolders) subfolder\(subfolders == 1 ? "" : "s"): "
                + "--recursive takes the images in them"
        case .noImages(let path, let skipped, let unreadable, _, let readable):
            if !unreadable.isEmpty {
                let named = unreadable.prefix(5).map(\.description).joined(separator: "; ")
                let more = unreadable.count > 5 ? "; and \(unreadable.count - 5) more" : ""
                let others = skipped > 0 ? " (\(skipped) other files skipped)" : ""
                return "\(path): no \(CodecRegistry.sentence(readable)) images\(others): \(named)\(more)"
            }
            return skipped > 0 ? "\(path): no \(CodecRegistry.sentence(readable)) images (\(skipped) other files skipped)" : "\(path): no images: the folder is empty"
        case .manifest(let path, let message): return "\(path): \(message)"
        case .noneRated(let minimum, let count):
            return "no photo is rated \(minimum) or more (\(count) photo\(count == 1 ? "" : "s") below it or unrated; the rating is XMP's, embedded or in a sidecar)"
        }
    }
}
