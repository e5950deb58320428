/// A IIIF Image API 3 level-0 tile folder with its info.json, and a viewer beside it. Only
/// `--format iiif` picks it: the destination names the folder.
public struct IIIFOutput: PyramidKind {
    public static let name = "iiif"
    public static let suffixes: [String] = []
    public static let hint = "--format iiif for a IIIF folder"
    public static let summary = "a IIIF Image API 3 level-0 tile folder with info.json"
    public static let defaultTileSize = 256
    public static let settings = PyramidSettings.all + [id]
    /// The image's id in info.json; nil: the folder's name.
    public static let id = OutputSetting(name: "iiifID", help: "IIIF: the id in info.json (default: the folder's name).", kind: .text(form: "a URL"))

    public let request: OutputRequest
    public let options: SheetOptions
    public let format: IIIF
    public let pyramidOptions: PyramidOptions

    /// The folder is checked as a folder (mosaic's own, or none), not as a file.
    public static func namedFiles(_ request: OutputRequest) -> [String] { [] }

    public static func validate(_ request: OutputRequest, options: SheetOptions) throws(OutputRequestError) {
        try validatePyramid(request, options: options)
        let destination = request.resolvedDestination
        if OutputKinds.kind(suffixOf: destination) != nil {
            throw .destination("--format iiif: the output names a folder; got \"\(request.resolvedDestination)\"")
        }
    }

    public init(_ request: OutputRequest, options: SheetOptions) throws(OutputRequestError) {
        self.request = request
        self.options = options
        format = IIIF(id: request.text(Self.id))
        pyramidOptions = try Self.pyramidOptions(request, format: format, overlap: 0, opaque: options.style.background.isOpaque)
    }
}
