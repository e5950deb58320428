/// A request for an output that cannot be met, found before any work: a usage error (the
/// CLI exits 64 with this message).
public enum OutputRequestError: Error, Equatable, Sendable, CustomStringConvertible {
    /// `--format` names no kind.
    case unknownFormat(String, known: [String])
    /// The destination does not suit the kind; the message says what it should be.
    case destination(String)
    /// Two settings that do not go together, or a setting out of range.
    case settings(String)
    /// A length in points or millimetres (`flag`, as given) for a kind whose pages have no
    /// physical size (`OutputKind.printsOnPaper` false).
    case lengthWithoutPaper(flag: String, length: Length, kind: String)

    public var description: String {
        switch self {
        case .unknownFormat(let name, let known): return "--format: \"\(name)\" is not a format (use \(known.joined(separator: ", ")))"
        case .destination(let message), .settings(let message): return message
        case .lengthWithoutPaper(let flag, let length, let kind):
            return "\(flag) \(length): \(kind) output has no physical size; give \(flag) in pixels, or write a PDF (-o NAME.pdf)"
        }
    }
}
