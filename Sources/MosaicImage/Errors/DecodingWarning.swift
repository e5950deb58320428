/// A problem the decoder worked around: the image was decoded, perhaps partly grey.
public struct DecodingWarning: Hashable, Sendable, CustomStringConvertible {
    public var path: String
    /// The library's first message ("Premature end of JPEG file").
    public var message: String
    /// How many warnings the library emitted.
    public var count: Int

    public var description: String {
        count > 1 ? "\(path): \(message) (and \(count - 1) more warnings)" : "\(path): \(message)"
    }
}
