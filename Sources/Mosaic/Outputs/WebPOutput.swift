/// WebP sheets (`-o sheet.webp`): lossy at `--quality` (default 90) or `--lossless`; libwebp
/// encodes a whole picture, so each page is held in memory (width x height x 4 bytes, plus
/// the encoder's own); pages past WebP's 16,383 px are paginated. Alpha is kept.
public struct WebPOutput: PagedKind {
    public static let name = "webp"
    public static let suffixes = [".webp"]
    public static let hint = ".webp for WebP"
    public static let summary = "one file per page"
    public static let settings: [OutputSetting] = [.quality, .lossless]
    public static let maximumSide: Int? = WebPSink.maximumSide

    public let request: OutputRequest
    public let options: SheetOptions

    public init(_ request: OutputRequest, options: SheetOptions) {
        self.request = request
        self.options = options
    }

    public static func isMosaicSheet(_ path: String) -> Bool { WebPSink.isMosaicSheet(path) }

    public func sink(destination: String) -> any PageSink {
        WebPSink(destination: destination, quality: request.integer(.quality) ?? WebPFileWriter.defaultQuality, lossless: request.flag(.lossless), limits: options.limits)
    }
}
