import Foundation
import MosaicImage
import MosaicLayout

/// Why a comparison could not be made.
public enum DiffError: Error, Equatable, Sendable, CustomStringConvertible {
    case notFound(path: String)
    case kindMismatch(baseline: String, current: String)
    case image(ImageDecodingError)
    /// Comparing the pair would hold more pixel memory than the limit (`PairError.tooMuchMemory`).
    case tooMuchMemory(path: String, bytes: Int, limit: Int)
    case unreadableDirectory(path: String, reason: String)
    /// A report's file (a diff image) could not be written.
    case cannotWrite(path: String, reason: String)
    /// Two folders of which one is the other or lies inside it, directly or through
    /// `link` (a symbolic link inside one that leads into the other): refused before any
    /// file is read, since every image of the inner one would be taken for an added or a
    /// removed pair of the outer one (and approving would delete or copy them).
    case overlapping(baseline: String, current: String, link: String?)
    /// A folder inside one that is the other, holds it or is one of its folders, though no
    /// path says so: a mount (`mount --bind`), found by its device and inode. Refused as
    /// `overlapping` is (approving deleted the current images through it).
    case mountedInside(baseline: String, current: String, folder: String)

    public var description: String {
        switch self {
        case .notFound(let path): return "\(path): no such file or folder"
        case .kindMismatch(let baseline, let current): return "\(baseline) and \(current): compare two files or two folders"
        case .image(let error): return error.description
        case .tooMuchMemory(let path, let bytes, let limit): return PairError.tooMuchMemory(path: path, bytes: bytes, limit: limit).description
        case .unreadableDirectory(let path, let reason): return "\(path): cannot list the folder: \(reason)"
        case .cannotWrite(let path, let reason): return "\(path): cannot write the diff image: \(reason)"
        case .overlapping(let baseline, let current, let link):
            let how = link.map { "\(FileNames.display($0)) is a link that leads into the other" } ?? "one is inside the other"
            return "\(FileNames.display(baseline)) and \(FileNames.display(current)) overlap (\(how)): compare two separate folders"
        case .mountedInside(let baseline, let current, let folder):
            return "\(FileNames.display(baseline)) and \(FileNames.display(current)) overlap (\(FileNames.display(folder)) is the other folder, holds it or is one of its folders, mounted there): compare two separate folders"
        }
    }
}
