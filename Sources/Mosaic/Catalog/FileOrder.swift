/// How a folder's images are ordered.
public enum FileOrder: String, Sendable, CaseIterable, Codable {
    /// "img2" before "img10".
    case natural
    /// Byte order of the names.
    case name
    /// Oldest first.
    case mtime
    /// Smallest file first.
    case size
    /// As the file system lists them.
    case none
}
