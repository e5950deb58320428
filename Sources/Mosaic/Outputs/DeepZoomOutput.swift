/// A Deep Zoom pyramid: `NAME.dzi` and `NAME_files/`, with a viewer beside it.
public struct DeepZoomOutput: PyramidKind {
    public static let name = "dzi"
    public static let suffixes = [".dzi"]
    public static let hint = ".dzi for a Deep Zoom pyramid"
    public static let summary = "a Deep Zoom pyramid (NAME.dzi, NAME_files/)"
    public static let defaultTileSize = 254  // as libvips and OpenSeadragon: with its overlap, 256

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
    }

    public init(_ request: OutputRequest, options: SheetOptions) throws(OutputRequestError) {
        self.request = request
        self.options = options
        pyramidOptions = try Self.pyramidOptions(request.pyramid, format: DeepZoom(), opaque: options.style.background.isOpaque)
    }
}
