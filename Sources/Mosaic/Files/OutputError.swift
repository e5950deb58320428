/// Why an output could not be checked, written or sent: the checks made before any work
/// (an output that is an input, a folder, a device, another output, another program's
/// file), a file that could not be written (`write`, with the system's or the encoder's
/// message), the image map, standard output. Every case names the file.
public enum OutputError: Error, Equatable, Sendable, CustomStringConvertible {
    /// A file could not be created, written or renamed into place.
    case write(ImageEncodingError)
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
    /// The image map could not be encoded (the encoder's message).
    case imageMap(message: String)
    /// Standard output takes one page (a `format` file), and the board has `pageCount`.
    case onePageOnly(format: String, pageCount: Int, formatLimit: Int? = nil)
    /// The sheet at `path` could not be read back to send it to standard output.
    case cannotSend(path: String)

    /// A message for people, naming the file.
    public var description: String {
        switch self {
        case .write(let error): return error.description
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
        case .imageMap(let message): return "cannot encode the image map: \(message)"
        case .onePageOnly(let format, let count, let limit?):
            return "--output - writes one \(format), and this board is longer than \(format)'s \(limit) px, so it makes \(count) pages; "
                + "name a file to write them all, or make the board shorter (more --columns, a smaller --width)"
        case .onePageOnly(let format, let count, nil):
            return "--output - writes one \(format), and this sheet has \(count) pages at --max-height; name a file, or drop --max-height"
        case .cannotSend(let path): return "\(path): cannot read the sheet back to send it to standard output"
        }
    }
}
