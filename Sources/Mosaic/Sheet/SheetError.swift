/// Why a sheet could not be laid out or drawn.
public enum SheetError: Error, Equatable, Sendable, CustomStringConvertible {
    case layout(LayoutError)
    case text(TextError)
    case option(name: String, message: String)
    case output(ImageEncodingError)
    case outputIsAnInput(path: String)
    /// `--strict`: these inputs failed, nothing was written.
    case inputsFailed([String])

    public var description: String {
        switch self {
        case .layout(let error): return "layout: \(error)"
        case .text(let error): return error.description
        case .option(let name, let message): return "--\(name): \(message)"
        case .output(let error): return error.description
        case .outputIsAnInput(let path): return "\(path): the output would overwrite one of the inputs"
        case .inputsFailed(let failures):
            return "\(failures.count) input\(failures.count == 1 ? "" : "s") failed (strict mode, nothing written):\n  " + failures.joined(separator: "\n  ")
        }
    }
}
