/// What a user asks a render to write: the destination, the kind, the image map, and each
/// kind's settings (a kind reads those it has).
public struct OutputRequest: Sendable {
    /// The file (or folder) to write; nil for the default, `sheet.png`, which replaces only
    /// a sheet mosaic wrote. `-` sends a one-page PNG to standard output.
    public var destination: String?
    /// The kind's name (`--format`); nil: from the destination's suffix.
    public var format: String?
    /// Where the JSON image map goes (`-` for standard output); nil for none.
    public var json: String?
    /// Tile pyramids' settings.
    public var pyramid = PyramidSettings()
    /// Lossy formats' quality, 1 to 100 (`--quality`); nil: the kind's default (90).
    public var quality: Int?
    /// WebP, AVIF and JPEG XL: lossless (`--lossless`).
    public var lossless = false
    /// PDF: the paper, `a4`, `letter` or `WIDTHxHEIGHTmm` (`--page-size`); nil: A4.
    public var pageSize: String?
    /// PDF: pixels per inch (`--dpi`); nil: 300.
    public var dpi: Int?
    /// The destination was made from a template (`--each`, `SheetNameTemplate`), not named
    /// by the user: like the default name, it replaces only files mosaic wrote.
    public var isFromTemplate = false

    /// The settings of kinds' own that the request gives (a kind refuses those it does not take).
    public var givenSettings: [OutputSetting] {
        var given: [OutputSetting] = []
        if quality != nil { given.append(.quality) }
        if lossless { given.append(.lossless) }
        if pageSize != nil { given.append(.pageSize) }
        if dpi != nil { given.append(.dpi) }
        return given
    }

    public init(destination: String? = nil, format: String? = nil, json: String? = nil) {
        self.destination = destination
        self.format = format
        self.json = json
    }

    /// The destination, `sheet.png` when none was named.
    public var resolvedDestination: String { destination ?? "sheet.png" }
    /// `-o -`: the sheet goes to standard output.
    public var toStandardOutput: Bool { destination == "-" }
}

/// What a tile pyramid is asked to be (`--tile-size`, `--overlap`, `--tile-format` ...).
public struct PyramidSettings: Sendable {
    /// Tile side in pixels; nil: the format's default (254 for Deep Zoom, 256 for IIIF).
    public var tileSize: Int?
    /// Deep Zoom: pixels each tile repeats from its neighbours.
    public var overlap = 1
    /// Tile encoding; nil: JPEG for an opaque board, PNG for a transparent one.
    public var tileEncoding: TileEncoding?
    /// JPEG tiles' quality, 1 to 100.
    public var tileQuality = 85
    /// Tiles that hold only the background are left out.
    public var skipBlankTiles = false
    /// The viewer page beside the pyramid.
    public var viewer = true
    /// Part K of N (`--shard`), as typed.
    public var shard: String?
    /// IIIF: the image's id in info.json.
    public var iiifID: String?

    /// A tile encoding as asked for.
    public enum TileEncoding: String, Sendable, CaseIterable {
        case png, jpeg
    }

    public init() {}
}

/// A setting that only some kinds take.
public enum OutputSetting: String, Sendable, CaseIterable {
    case quality, lossless, pageSize, dpi

    /// Its flag.
    public var flag: String {
        switch self {
        case .quality: return "--quality"
        case .lossless: return "--lossless"
        case .pageSize: return "--page-size"
        case .dpi: return "--dpi"
        }
    }
}
