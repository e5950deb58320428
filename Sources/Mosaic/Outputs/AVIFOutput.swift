/// AVIF sheets (`-o sheet.avif`): libheif's AV1 encoder (libaom in Debian) at `--quality`
/// (default 90) or `--lossless`, at libaom speed `AVIFFileWriter.defaultSpeed`; a whole
/// picture per page, held in memory as for WebP. Alpha is kept.
public struct AVIFOutput: PagedKind {
    public static let name = "avif"
    public static let suffixes = [".avif"]
    public static let hint = ".avif for AVIF"
    public static let summary = "one file per page"
    public static let settings: [OutputSetting] = [.quality, .lossless]
    public static let maximumSide: Int? = AVIFSink.maximumSide

    public let request: OutputRequest
    public let options: SheetOptions

    public static func validate(_ request: OutputRequest, options: SheetOptions) throws(OutputRequestError) {
        try validatePaged(request)
        guard AVIFSink.isAvailable else { throw .settings("this build's libheif has no AV1 encoder: AVIF cannot be written here") }
    }

    public init(_ request: OutputRequest, options: SheetOptions) {
        self.request = request
        self.options = options
    }

    public static func isMosaicSheet(_ path: String) -> Bool { AVIFSink.isMosaicSheet(path) }

    public func sink(destination: String) -> any PageSink {
        AVIFSink(destination: destination, quality: request.integer(.quality) ?? AVIFFileWriter.defaultQuality, lossless: request.flag(.lossless), limits: options.limits)
    }
}
