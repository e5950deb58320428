/// How a folder's images are ordered.
public enum FileOrder: String, Sendable, CaseIterable, Codable {
    /// "img2" before "img10".
    case natural
    /// Byte order of the names.
    case name
    /// Oldest first.
    case mtime
    /// Oldest first by the date the picture was taken (EXIF DateTimeOriginal, else
    /// DateTime), read as a wall-clock value; a file without one by its modification time
    /// (read in UTC, never the machine's time zone).
    case date
    /// Smallest file first.
    case size
    /// As the file system lists them.
    case none
}
