/// Why a sheet could not be laid out (`ContactSheet`): the layout refused the board, a
/// text could not be set, or an option is out of range. Options are named by their
/// `SheetOptions` property (`maxAspect`); the command line maps them to its flags.
public enum SheetError: Error, Equatable, Sendable, CustomStringConvertible {
    /// The layout refused the board (its field names are the layout's).
    case layout(LayoutError)
    /// A font or text style could not be used.
    case text(TextError)
    /// An option out of range: `name` is the `SheetOptions` property.
    case option(name: String, message: String)

    /// A message for people; options by their `SheetOptions` names.
    public var description: String {
        switch self {
        case .layout(let error): return "layout: \(error)"
        case .text(let error): return error.description
        case .option(let name, let message): return "\(name): \(message)"
        }
    }
}
