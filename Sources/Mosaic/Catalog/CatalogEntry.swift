import Foundation

/// One input image as the catalog knows it: from its headers only.
public struct CatalogEntry: Sendable, Hashable {
    /// The path to open (as given, or joined to the folder or manifest it came from).
    public var path: String
    /// The path relative to the folder or manifest (for captions and the layout map).
    public var relativePath: String
    /// What the headers say; nil when they could not be read (see `problem`).
    public var info: ImageInfo?
    /// Why the file could not be probed: it becomes a placeholder card.
    public var problem: CardProblem?
    /// Pixels already in memory (a diff board's side-by-side strip), upright: drawn instead
    /// of decoding `path`, which then only names the card.
    public var bitmap: Bitmap?
    /// Manifest captions.
    public var title: String?
    /// Manifest description (the caption's second part).
    public var description: String?
    /// The file's size in bytes (0 when unknown).
    public var fileSize: Int
    /// Seconds since 1970.
    public var modified: Double

    /// An entry known by its paths only; the rest is filled in as it is learnt.
    public init(
        path: String, relativePath: String, info: ImageInfo? = nil, problem: CardProblem? = nil, title: String? = nil,
        description: String? = nil, fileSize: Int = 0, modified: Double = 0
    ) {
        self.path = path
        self.relativePath = relativePath
        self.info = info
        self.problem = problem
        self.title = title
        self.description = description
        self.fileSize = fileSize
        self.modified = modified
    }

    /// The image's size as displayed (after its orientation), from the headers or the
    /// bitmap; nil when neither is known.
    public var orientedSize: Size? {
        if let info { return Size(width: info.orientedWidth, height: info.orientedHeight) }
        return bitmap.map { Size(width: $0.width, height: $0.height) }
    }

    /// The file name, without folders.
    public var name: String { FileNames.display((relativePath as NSString).lastPathComponent) }
    /// The name without its extension.
    public var stem: String { (name as NSString).deletingPathExtension }
    /// The name's extension, without the dot.
    public var fileExtension: String { (name as NSString).pathExtension }
}
