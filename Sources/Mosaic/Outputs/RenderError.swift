/// Why a render (`RenderJob`, `SheetRenderer`) wrote nothing: its stages' errors, each
/// with its facts, and the render's own refusals.
public enum RenderError: Error, Equatable, Sendable, CustomStringConvertible {
    /// The request does not suit its kind (`SheetRenderer.render(to:)` only: `RenderJob`
    /// refuses it when made).
    case request(OutputRequestError)
    /// A text could not be set while drawing (a caption, a placeholder).
    case text(TextError)
    /// An output could not be checked, written or sent.
    case output(OutputError)
    /// A shard's render could not take the shards' folder (another process holds it).
    case assembly(AssemblyError)
    /// Strict mode: these inputs failed, nothing was written.
    case inputsFailed([CardProblem])
    /// Not one of the `count` inputs could be drawn: nothing was written.
    case everyInputFailed(count: Int)

    /// The message as lines for people: one, or for `inputsFailed` a first line and one per
    /// input (every one named), so that a terminal writer can escape each line whole.
    public var lines: [String] {
        guard case .inputsFailed(let failures) = self else { return [description] }
        return ["\(failures.count) input\(failures.count == 1 ? "" : "s") failed (strict mode, nothing written):"] + failures.map(\.description)
    }

    public var description: String {
        switch self {
        case .request(let error): return "output: \(error.description)"
        case .text(let error): return error.description
        case .output(let error): return error.description
        case .assembly(let error): return error.description
        case .inputsFailed: return lines.joined(separator: "\n  ")
        case .everyInputFailed(let count):
            return count == 1 ? "the only input failed; nothing written" : "all \(count) inputs failed; nothing written"
        }
    }

    /// A stage's call, its output error as the render's.
    static func output<T>(_ body: () throws(OutputError) -> T) throws(RenderError) -> T {
        do { return try body() } catch { throw .output(error) }
    }
}
