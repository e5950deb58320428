/// A request for an output that cannot be met, found before any work: a usage error (the
/// CLI exits 64 with this message).
public enum OutputRequestError: Error, Equatable, Sendable, CustomStringConvertible {
    /// `--format` names no kind.
    case unknownFormat(String, known: [String])
    /// The destination does not suit the kind; the message says what it should be.
    case destination(String)
    /// Two settings that do not go together, or a setting out of range.
    case settings(String)
    /// No registered kind declares a setting called `name`.
    case unknownSetting(name: String, known: [String])
    /// The chosen kind does not take the setting `name`; `takers` do.
    case settingNotTaken(name: String, kind: String, takers: [String])
    /// A whole number outside its setting's declared range.
    case settingOutOfRange(name: String, value: Int, range: ClosedRange<Int>)
    /// A value that is not of its setting's kind (`expected`: "a whole number", "one of png, jpeg").
    case settingValue(name: String, value: String, expected: String)
    /// A length in points or millimetres (`flag`, as given) for a kind whose pages have no
    /// physical size (`OutputKind.printsOnPaper` false).
    case lengthWithoutPaper(flag: String, length: Length, kind: String)

    public var description: String { message(flag: OutputSetting.flag(for:)) }

    /// The message, each setting named by `flag` (the CLI names a setting without a flag of
    /// its own as `--output-setting NAME`).
    public func message(flag: (String) -> String) -> String {
        switch self {
        case .unknownFormat(let name, let known): return "--format: \"\(name)\" is not a format (use \(known.joined(separator: ", ")))"
        case .destination(let message), .settings(let message): return message
        case .unknownSetting(let name, let known):
            return "\(flag(name)): no output kind has a setting \"\(name)\" (they have \(known.joined(separator: ", ")))"
        case .settingNotTaken(let name, let kind, let takers):
            return "\(flag(name)) is not for \(kind) output (it is for \(takers.joined(separator: ", ")))"
        case .settingOutOfRange(let name, let value, let range):
            return "\(flag(name)) must be \(range.lowerBound) to \(range.upperBound), got \(value)"
        case .settingValue(let name, let value, let expected):
            return "\(flag(name)): \"\(value)\" is not \(expected)"
        case .lengthWithoutPaper(let flag, let length, let kind):
            return "\(flag) \(length): \(kind) output has no physical size; give \(flag) in pixels, or write a PDF (-o NAME.pdf)"
        }
    }
}
