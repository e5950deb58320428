/// A Deep Zoom pyramid: `NAME.dzi` and `NAME_files/`, with a viewer beside it.
public struct DeepZoomOutput: PyramidKind {
    public static let name = "dzi"
    public static let suffixes = [".dzi"]
    public static let hint = ".dzi for a Deep Zoom pyramid"
    public static let summary = "a Deep Zoom pyramid (NAME.dzi, NAME_files/)"
    public static let defaultTileSize = 254  // as libvips and OpenSeadragon: with its overlap, 256
    public static let settings = PyramidSettings.all + [overlap]
    /// Pixels each tile repeats from its neighbours.
    public static let overlap = OutputSetting(
        name: "overlap", help: "Deep Zoom: pixels each tile repeats from its neighbours.", kind: .integer(default: 1, range: 0...64))

    public let request: OutputRequest
    public let options: SheetOptions
    public let format = DeepZoom()
    public let pyramidOptions: PyramidOptions

    public static func namedFiles(_ request: OutputRequest) -> [String] { [request.resolvedDestination] }

    public static func validate(_ request: OutputRequest, options: SheetOptions) throws(OutputRequestError) {
        try validatePyramid(request, options: options)
        let destination = request.resolvedDestination
        guard destination.lowercased().hasSuffix(".dzi") else {
            throw .destination("--format dzi: the output names the descriptor, NAME.dzi; got \"\(destination)\"")
        }
        if let tileSize = request.integer(PyramidSettings.tileSize), let overlap = request.integer(overlap), overlap * 2 >= tileSize {
            throw .settings("--overlap \(overlap) must be less than half of --tile-size \(tileSize)")
        }
    }

    public init(_ request: OutputRequest, options: SheetOptions) throws(OutputRequestError) {
        self.request = request
        self.options = options
        pyramidOptions = try Self.pyramidOptions(
            request, format: DeepZoom(), overlap: request.integer(Self.overlap) ?? 1, opaque: options.style.background.isOpaque)
    }
}
