/// JPEG sheets (`-o sheet.jpg`): libjpeg-turbo, written row by row at `--quality` (default
/// 90); pages past JPEG's 65,500 px are paginated. Opaque boards only.
public struct JPEGOutput: PagedKind {
    public static let name = "jpeg"
    public static let suffixes = [".jpg", ".jpeg"]
    public static let hint = ".jpg for JPEG"
    public static let summary = "one file per page"
    public static let settings: [OutputSetting] = [.quality]
    public static let maximumSide: Int? = JPEGSink.maximumSide

    public let request: OutputRequest
    public let options: SheetOptions

    public static func validate(_ request: OutputRequest, options: SheetOptions) throws(OutputRequestError) {
        try validatePaged(request)
        guard options.style.background.isOpaque else {
            throw .settings("the background is transparent, and JPEG has no alpha: give an opaque --background, or write .png or .webp")
        }
    }

    public init(_ request: OutputRequest, options: SheetOptions) {
        self.request = request
        self.options = options
    }

    public static func isMosaicSheet(_ path: String) -> Bool { JPEGSink.isMosaicSheet(path) }

    public func sink(destination: String) -> any PageSink {
        JPEGSink(destination: destination, quality: request.integer(.quality) ?? JPEGStream.defaultQuality, limits: options.limits)
    }
}
