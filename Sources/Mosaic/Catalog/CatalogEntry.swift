import Foundation

/// One input image as the catalog knows it: from its headers only.
public struct CatalogEntry: Sendable, Hashable {
    /// The path to open (as given, or joined to the folder or manifest it came from).
    public var path: String
    /// The path relative to the folder or manifest (for captions and the layout map).
    public var relativePath: String
    /// What the headers say; nil when they could not be read (see `problem`).
    public var info: ImageInfo?
    /// What few entries have (a problem, pixels, manifest captions), kept apart so that an
    /// entry of a folder's image stays small: a board of 100,000 cards holds 100,000.
    var rare: Rare?
    /// The file's size in bytes (0 when unknown).
    public var fileSize: Int
    /// Seconds since 1970.
    public var modified: Double

    final class Rare: Sendable, Hashable {
        let title: String?
        let description: String?
        /// The rest, rarer still, in a box of its own: an entry with captions alone (every
        /// card of a captioned manifest) holds only them (64 bytes, not 161).
        let other: Other?

        final class Other: Sendable {
            let problem: CardProblem?
            let bitmap: Bitmap?
            let pixels: CardPixels?
            let summarizedFailures: Int?
            let companions: [Companion]

            init(problem: CardProblem?, bitmap: Bitmap?, pixels: CardPixels?, summarizedFailures: Int?, companions: [Companion]) {
                self.problem = problem
                self.bitmap = bitmap
                self.pixels = pixels
                self.summarizedFailures = summarizedFailures
                self.companions = companions
            }
        }

        var problem: CardProblem? { other?.problem }
        var bitmap: Bitmap? { other?.bitmap }
        var pixels: CardPixels? { other?.pixels }
        var summarizedFailures: Int? { other?.summarizedFailures }
        var companions: [Companion] { other?.companions ?? [] }

        init(
            problem: CardProblem?, bitmap: Bitmap?, title: String?, description: String?, summarizedFailures: Int? = nil,
            pixels: CardPixels? = nil, companions: [Companion] = []
        ) {
            self.title = title
            self.description = description
            other = problem == nil && bitmap == nil && pixels == nil && summarizedFailures == nil && companions.isEmpty
                ? nil
                : Other(problem: problem, bitmap: bitmap, pixels: pixels, summarizedFailures: summarizedFailures, companions: companions)
        }

        /// Nil when every field is.
        static func make(
            problem: CardProblem?, bitmap: Bitmap?, title: String?, description: String?, summarizedFailures: Int? = nil,
            pixels: CardPixels? = nil, companions: [Companion] = []
        ) -> Rare? {
            problem == nil && bitmap == nil && title == nil && description == nil && summarizedFailures == nil && pixels == nil && companions.isEmpty
                ? nil
                : Rare(
                    problem: problem, bitmap: bitmap, title: title, description: description, summarizedFailures: summarizedFailures, pixels: pixels,
                    companions: companions)
        }

        /// A copy with one field changed (the setters of `CatalogEntry`).
        static func with(
            _ rare: Rare?, problem: CardProblem?? = nil, bitmap: Bitmap?? = nil, pixels: CardPixels?? = nil, title: String?? = nil,
            description: String?? = nil, companions: [Companion]? = nil
        ) -> Rare? {
            make(
                problem: problem ?? rare?.problem, bitmap: bitmap ?? rare?.bitmap, title: title ?? rare?.title,
                description: description ?? rare?.description, summarizedFailures: rare?.summarizedFailures, pixels: pixels ?? rare?.pixels,
                companions: companions ?? rare?.companions ?? [])
        }

        static func == (a: Rare, b: Rare) -> Bool {
            a.problem == b.problem && a.bitmap == b.bitmap && a.title == b.title && a.description == b.description
                && a.summarizedFailures == b.summarizedFailures && a.pixels == b.pixels && a.companions == b.companions
        }

        func hash(into hasher: inout Hasher) {
            hasher.combine(problem)
            hasher.combine(title)
            hasher.combine(description)
            hasher.combine(summarizedFailures)
            hasher.combine(companions)
        }
    }

    /// Why the file could not be probed: it becomes a placeholder card.
    public var problem: CardProblem? {
        get { rare?.problem }
        set { rare = .with(rare, problem: .some(newValue)) }
    }
    /// Pixels already in memory (a diff board's side-by-side strip), upright: drawn instead
    /// of decoding `path`, which then only names the card.
    public var bitmap: Bitmap? {
        get { rare?.bitmap }
        set { rare = .with(rare, bitmap: .some(newValue)) }
    }
    /// Pixels made when the renderer reaches the card (a diff board's strip, from the two
    /// images compared), drawn instead of decoding `path`: the board holds none of them.
    public var pixels: CardPixels? {
        get { rare?.pixels }
        set { rare = .with(rare, pixels: .some(newValue)) }
    }
    /// Manifest captions.
    public var title: String? {
        get { rare?.title }
        set { rare = .with(rare, title: .some(newValue)) }
    }
    /// Manifest description (the caption's second part).
    public var description: String? {
        get { rare?.description }
        set { rare = .with(rare, description: .some(newValue)) }
    }
    /// The files drawn as part of this card (`FilePairs`: a RAW beside its JPEG, a Live
    /// Photo's MOV, a GoPro clip's proxies), in the folder's order; empty for most.
    public var companions: [Companion] {
        get { rare?.companions ?? [] }
        set { rare = .with(rare, companions: newValue) }
    }

    /// The marks the card's corner shows: RAW for a RAW + JPEG pair, LIVE for a Live
    /// Photo, MOTION for a Motion Photo; empty for most.
    public var marks: [PairMark] {
        var marks: [PairMark] = []
        let companions = companions
        if companions.contains(where: { $0.role == .raw }) { marks.append(.raw) }
        if companions.contains(where: { $0.role == .live }) { marks.append(.live) }
        if info?.motionPhoto != nil { marks.append(.motion) }
        return marks
    }

    /// Set on the one card that stands for the inputs of its section that could not be read
    /// past the first `Catalog.placeholderLimit`: how many it stands for. It is drawn as a
    /// placeholder ("and N more could not be read"); each of them is named in the summary
    /// and the image map (`CatalogSection.summarizedProblems`).
    public var summarizedFailures: Int? { rare?.summarizedFailures }

    /// The card that stands for `count` inputs that could not be read.
    static func failureSummary(count: Int) -> CatalogEntry {
        var entry = CatalogEntry(path: "", relativePath: "")
        entry.rare = .make(problem: nil, bitmap: nil, title: nil, description: nil, summarizedFailures: count)
        return entry
    }

    /// An entry known by its paths only; the rest is filled in as it is learnt.
    public init(
        path: String, relativePath: String, info: ImageInfo? = nil, problem: CardProblem? = nil, title: String? = nil,
        description: String? = nil, fileSize: Int = 0, modified: Double = 0
    ) {
        self.path = path
        self.relativePath = relativePath
        self.info = info
        self.rare = .make(problem: problem, bitmap: nil, title: title, description: description)
        self.fileSize = fileSize
        self.modified = modified
    }

    /// The image's size as displayed (after its orientation), from the headers or the
    /// bitmap; nil when neither is known.
    public var orientedSize: Size? {
        if let info { return Size(width: info.orientedWidth, height: info.orientedHeight) }
        if let pixels { return pixels.size }
        return bitmap.map { Size(width: $0.width, height: $0.height) }
    }

    /// The file name, without folders.
    public var name: String { FileNames.display((relativePath as NSString).lastPathComponent) }
    /// The name without its extension.
    public var stem: String { (name as NSString).deletingPathExtension }
    /// The name's extension, without the dot.
    public var fileExtension: String { (name as NSString).pathExtension }
}

/// A card's pixels, made on demand (`CatalogEntry.pixels`): their size is known before
/// (for the layout), the pixels only when the renderer's band reaches the card; they are
/// dropped when it has passed. Equal only to itself.
public final class CardPixels: Sendable, Hashable {
    /// The size `make` gives (the card's aspect ratio; drawn at its frame's size).
    public let size: Size
    /// The bytes making them holds at most (for the render's decode budget).
    public let bytes: Int
    let make: @Sendable () throws(ImageDecodingError) -> Bitmap

    public init(size: Size, bytes: Int, make: @escaping @Sendable () throws(ImageDecodingError) -> Bitmap) {
        self.size = size
        self.bytes = bytes
        self.make = make
    }

    public static func == (a: CardPixels, b: CardPixels) -> Bool { a === b }
    public func hash(into hasher: inout Hasher) { hasher.combine(ObjectIdentifier(self)) }
}
