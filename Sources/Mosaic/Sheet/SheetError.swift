/// Why a sheet could not be laid out or drawn. Options are named by their `SheetOptions`
/// property (`maxAspect`); the command line maps them to its flags.
public enum SheetError: Error, Equatable, Sendable, CustomStringConvertible {
    /// The layout refused the board (its field names are the layout's).
    case layout(LayoutError)
    /// A font or text style could not be used.
    case text(TextError)
    /// An option out of range: `name` is the `SheetOptions` property.
    case option(name: String, message: String)
    /// A page could not be written.
    case output(ImageEncodingError)
    /// An output file is one of the inputs (resolved through links).
    case outputIsAnInput(path: String)
    /// An output names an existing folder (`option` names it: `-o`, `--json`).
    case outputIsAFolder(path: String, option: String)
    /// An output names a device, FIFO or socket (`/dev/full`, `/dev/stdout`): written
    /// beside it and renamed, it would replace that node with a file.
    case outputIsNotAFile(path: String, option: String)
    /// A folder above an output is a file (`out` for `-o out/sheet.png`): missing
    /// folders are created, but nothing is written through a file.
    case outputThroughAFile(path: String, option: String, file: String)
    /// Two outputs are the same file.
    case outputsCollide(path: String, options: [String])
    /// An output (a file or folder named, or beside one: a viewer page, a pyramid's
    /// folder) exists and mosaic did not write it: it is not replaced.
    case wouldReplaceAForeignFile(path: String)
    /// The default output (no `-o` given) exists and mosaic did not write it: it is not
    /// replaced unasked; naming it with `-o` replaces it.
    case defaultOutputExists(path: String)
    /// Strict mode: these inputs failed, nothing was written.
    case inputsFailed([CardProblem])
    /// Not one of the `count` inputs could be drawn: nothing was written.
    case everyInputFailed(count: Int)
    /// The image map could not be encoded (the encoder's message).
    case imageMap(message: String)
    /// `assemble` (or a shard's render, for the shards' lock) refused the shards.
    case assembly(AssemblyError)
    /// Standard output takes one page (a `format` file), and the board has `pageCount`.
    case onePageOnly(format: String, pageCount: Int, formatLimit: Int? = nil)
    /// The sheet at `path` could not be read back to send it to standard output.
    case cannotSend(path: String)

    /// The message as lines for people: one, or for `inputsFailed` a first line and one per
    /// input (every one named), so that a terminal writer can escape each line whole.
    public var lines: [String] {
        guard case .inputsFailed(let failures) = self else { return [description] }
        return ["\(failures.count) input\(failures.count == 1 ? "" : "s") failed (strict mode, nothing written):"] + failures.map(\.description)
    }

    /// A message for people; options by their `SheetOptions` names.
    public var description: String {
        switch self {
        case .layout(let error): return "layout: \(error)"
        case .text(let error): return error.description
        case .option(let name, let message): return "\(name): \(message)"
        case .output(let error): return error.description
        case .outputIsAnInput(let path): return "\(path): the output would overwrite one of the inputs"
        case .outputIsAFolder(let path, let option): return "\(path): \(option) names a folder, not a file"
        case .outputThroughAFile(let path, let option, let file):
            return "\(FileNames.display(path)): \(option) goes through \(FileNames.display(file)), which is a file, not a folder"
        case .outputIsNotAFile(let path, let option):
            return "\(path): \(option) names a device, FIFO or socket, not a file (mosaic writes a file beside it and renames it into place; for standard output give -)"
        case .outputsCollide(let path, let options): return "\(path): \(options.joined(separator: " and ")) would write the same file"
        case .wouldReplaceAForeignFile(let path):
            return "\(path) exists and mosaic did not write it; move it away or choose another output name"
        case .defaultOutputExists(let path):
            return "\(path) exists and mosaic did not write it; name the output with -o to replace it"
        case .inputsFailed: return lines.joined(separator: "\n  ")
        case .imageMap(let message): return "cannot encode the image map: \(message)"
        case .assembly(let error): return error.description
        case .onePageOnly(let format, let count, let limit?):
            return "--output - writes one \(format), and this board is longer than \(format)'s \(limit) px, so it makes \(count) pages; "
                + "name a file to write them all, or make the board shorter (more --columns, a smaller --width)"
        case .onePageOnly(let format, let count, nil):
            return "--output - writes one \(format), and this sheet has \(count) pages at --max-height; name a file, or drop --max-height"
        case .cannotSend(let path): return "\(path): cannot read the sheet back to send it to standard output"
        case .everyInputFailed(let count):
            return count == 1 ? "the only input failed; nothing written" : "all \(count) inputs failed; nothing written"
        }
    }
}
