/// Why a card could not show its image: the input's path and the typed error of the layer
/// that found it. Kept whole from the catalog (headers) or the renderer (pixels) to the
/// summary, the strict-mode error, the image map and the CLI; nothing parses it.
public struct CardProblem: Error, Hashable, Sendable, CustomStringConvertible {
    /// The input, as the catalog names it (the whole path, whatever characters it holds).
    public var path: String
    /// What the image layer said.
    public var error: ImageDecodingError

    /// A problem of the input at `path`.
    public init(path: String, error: ImageDecodingError) {
        self.path = path
        self.error = error
    }

    /// The error's own message (it names the file).
    public var description: String { error.description }
}
