/// A problem the decoder worked around: the image was decoded, perhaps partly grey.
public struct DecodingWarning: Hashable, Sendable, CustomStringConvertible {
    public var path: String
    /// The library's first message ("Premature end of JPEG file").
    public var message: String
    /// How many warnings the library emitted.
    public var count: Int
    /// True when image data was lost or is corrupt (a truncated file, a corrupt scan), not
    /// only something benign (an incorrect sRGB profile, extraneous bytes): what
    /// `--strict` refuses.
    public var isDataLoss: Bool = false

    public init(path: String, message: String, count: Int, isDataLoss: Bool = false) {
        self.path = path
        self.message = message
        self.count = count
        self.isDataLoss = isDataLoss
    }

    public var description: String {
        switch count {
        case ...1: return "\(path): \(message)"
        case 2: return "\(path): \(message) (and 1 more warning)"
        default: return "\(path): \(message) (and \(count - 1) more warnings)"
        }
    }
}
