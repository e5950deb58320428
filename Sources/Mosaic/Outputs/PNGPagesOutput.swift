/// PNG pages: `sheet.png`, or `sheet-1.png`, `sheet-2.png`, ... for a paginated board; `-`
/// sends a one-page sheet to standard output. The default kind.
public struct PNGPagesOutput: PagedKind {
    public static let name = "png"
    public static let suffixes = [".png"]
    public static let hint = ".png"
    public static let summary = "one file per page"
    /// PNG's own limit is far beyond any board: `ImageLimits` decides.
    public static let maximumSide: Int? = nil

    public let request: OutputRequest
    public let options: SheetOptions

    public init(_ request: OutputRequest, options: SheetOptions) {
        self.request = request
        self.options = options
    }

    public static func isMosaicSheet(_ path: String) -> Bool { PNGSink.isMosaicSheet(path) }

    public func sink(destination: String) -> any PageSink {
        PNGSink(destination: destination, compressionLevel: options.compressionLevel, limits: options.limits, threads: options.jobs)
    }
}
