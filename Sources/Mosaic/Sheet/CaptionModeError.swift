/// Why a `--caption` value was refused.
public enum CaptionModeError: Error, Equatable, Sendable, CustomStringConvertible {
    /// Neither a mode nor a template (no `{placeholder}`): most likely a misspelt mode.
    case notAModeOrTemplate(String, suggestion: String?)
    /// A template names a placeholder that does not exist.
    case unknownPlaceholder(String, suggestion: String?)
    /// A `{date:FORMAT}` placeholder whose format is not one.
    case dateFormat(String, DateFormat.Error)

    /// A message for people, with the suggestion when there is one.
    public var description: String {
        switch self {
        case .notAModeOrTemplate(let text, let suggestion):
            let hint = suggestion.map { " (did you mean \"\($0)\"?)" } ?? ""
            return "\"\(text)\" is neither a mode (\(CaptionMode.modeNames.joined(separator: ", "))) nor a template with {placeholders}\(hint)"
        case .unknownPlaceholder(let name, let suggestion):
            let hint = suggestion.map { " (did you mean {\($0)}?)" } ?? ""
            return "{\(name)} is not a placeholder\(hint); use \(CaptionMode.placeholders.map { "{\($0)}" }.joined(separator: " ")) or {date:FORMAT}"
        case .dateFormat(let placeholder, let error):
            return "{\(placeholder)}: \(error)"
        }
    }
}
