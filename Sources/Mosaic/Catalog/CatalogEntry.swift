import Foundation

/// One input image as the catalog knows it: from its headers only.
public struct CatalogEntry: Sendable, Hashable {
    /// The path to open (as given, or joined to the folder or manifest it came from).
    public var path: String
    /// The path relative to the folder or manifest (for captions and the layout map).
    public var relativePath: String
    /// What the headers say; nil when they could not be read (see `failure`).
    public var info: ImageInfo?
    /// Why the file could not be probed: it becomes a placeholder card.
    public var failure: String?
    /// Manifest captions.
    public var title: String?
    public var description: String?
    public var fileSize: Int
    /// Seconds since 1970.
    public var modified: Double

    /// The file name, without folders.
    public var name: String { (relativePath as NSString).lastPathComponent }
    /// The name without its extension.
    public var stem: String { (name as NSString).deletingPathExtension }
    public var fileExtension: String { (name as NSString).pathExtension }
}
