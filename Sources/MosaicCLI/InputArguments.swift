import ArgumentParser
import Foundation
import Mosaic

/// The files a --files-from list names, read when the arguments are validated (not an
/// argument itself: decoded empty), and handed to the catalog once: a list may hold a
/// million, and the catalog keeps them.
final class ListedFiles: Decodable {
    var entries = CatalogEntries()
    init() {}
    init(from decoder: any Decoder) throws {}

    /// The entries, no longer held here.
    func take() -> CatalogEntries {
        defer { entries = CatalogEntries() }
        return entries
    }
}

/// What to read: folders, manifests, files, a list of them; how a folder is ordered.
struct InputArguments: ParsableArguments {
    @Argument(help: "A folder of images, a manifest (.json or .csv), or image files.")
    var inputs: [String] = []
    @Option(help: ArgumentHelp("Read more inputs from FILE, one path a line (- for standard input).", valueName: "file"))
    var filesFrom: String?
    @Flag(name: .customShort("0"), help: "With --files-from: paths end in NUL bytes (find -print0).")
    var nullSeparated = false
    @Option(help: "Order of a folder's images (date: when taken, from EXIF).")
    var sort: FileOrder = .natural
    @Flag(help: "Reverse the order.")
    var reverse = false
    @Flag(help: "Include subfolders, each as a section headed by its name.")
    var recursive = false
    @Flag(help: "Fail, writing nothing, when any input fails.")
    var strict = false
    @Option(help: ArgumentHelp("Sections by the day, month or year taken, or by camera. (default: none)", valueName: "grouping"))
    var groupBy: Grouping?
    @Option(help: "RAW + JPEG, a Live Photo's still + MOV, a GoPro clip + proxies: one card (merge) or a card each.")
    var pairs: PairMode = .merge
    @Option(help: ArgumentHelp("Only photos rated N stars or more (XMP, embedded or a sidecar); a rejected one never. (default: all)", valueName: "n"))
    var minRating: Int?
    @Option(help: ArgumentHelp("Date groups' headers, strftime-like: '%A %-d %B' (default: 2024-03-14, March 2024, 2024).", valueName: "pattern"))
    var dateFormat: String?

    @OptionGroup(title: "Videos") var video: VideoArguments

    /// The files --files-from lists, packed (a list may hold a million).
    var listed = ListedFiles()

    mutating func validate() throws {
        if nullSeparated && filesFrom == nil { throw ValidationError("-0 goes with --files-from") }
        if let minRating, !(0...5).contains(minRating) { throw ValidationError("--min-rating must be between 0 and 5 (stars), got \(minRating)") }
        if let dateFormat {
            guard let groupBy, groupBy.isByDate else { throw ValidationError("--date-format goes with --group-by day, month or year") }
            do throws(DateFormat.Error) { _ = try DateFormat(dateFormat) } catch { throw ValidationError("--date-format: \(error)") }
        }
        if let groupBy, let manifest = inputs.first(where: { Self.isManifest($0) }) {
            throw ValidationError("--group-by \(groupBy.rawValue) regroups folders and files; \(FileNames.display(manifest)) is a manifest, whose sections are its own")
        }
        if let filesFrom {
            listed = ListedFiles()
            listed.entries = try Self.paths(listedIn: filesFrom, nullSeparated: nullSeparated)
        }
        if inputs.isEmpty && listed.entries.isEmpty {
            if let filesFrom { throw ValidationError("--files-from: \(filesFrom == "-" ? "standard input" : filesFrom) lists no files") }
            throw ValidationError("give a folder, a manifest or image files, or --files-from FILE")
        }
    }

    /// The files the list names, as a catalog not yet probed (for checks before any work).
    var listedCatalog: Catalog { Catalog(sections: [CatalogSection(entries: listed.entries)]) }

    func apply(to o: inout SheetOptions) {
        o.strict = strict
        video.apply(to: &o)
    }

    /// The --files-from list, when it is a file: read, so never written.
    var listFiles: [String] { filesFrom.map { $0 == "-" ? [] : [$0] } ?? [] }

    /// The paths listed in `list` (a file, or - for standard input): one a line (a
    /// carriage return before the newline dropped) or NUL-terminated; empty ones skipped.
    /// Bytes that are not UTF-8 are kept (`FileNames`).
    static func paths(listedIn list: String, nullSeparated: Bool) throws -> CatalogEntries {
        // Read with read(2) to its end, whatever the list is: a file, standard input, a
        // pipe (`--files-from <(find ...)`), /dev/null (an empty list).
        let descriptor = list == "-" ? STDIN_FILENO : FileNames.withSystemPath(list) { open($0, O_RDONLY | O_CLOEXEC) }
        guard descriptor >= 0 else { throw ValidationError("--files-from: cannot read \(list): \(String(cString: strerror(errno)))") }
        defer { if descriptor != STDIN_FILENO { close(descriptor) } }
        var data = Data()
        var chunk = [UInt8](repeating: 0, count: 1 << 16)
        while true {
            let got = chunk.withUnsafeMutableBytes { Glibc.read(descriptor, $0.baseAddress, $0.count) }
            if got < 0 {
                if errno == EINTR { continue }
                throw ValidationError("--files-from: cannot read \(list): \(String(cString: strerror(errno)))")
            }
            if got == 0 { break }
            data.append(contentsOf: chunk[0..<got])
        }
        let separator: UInt8 = nullSeparated ? 0 : 0x0A
        var paths = CatalogEntries()
        paths.reserveCapacity(data.count { $0 == separator } + 1)
        for piece in data.split(separator: separator, omittingEmptySubsequences: true) {
            var bytes = piece[...]
            if !nullSeparated, bytes.last == 0x0D { bytes = bytes.dropLast() }
            if bytes.isEmpty { continue }
            let path = FileNames.string(fromBytes: bytes)
            paths.append(path: path, relativePath: path)
        }
        return paths
    }

    /// The catalog: one folder, one manifest, or a list of files, probed on `jobs`
    /// threads. A folder's own earlier sheets (`output`, or its pages `NAME-N.png`) are
    /// left out, so that `mosaic render . -o sheet.png` can run again.
    func catalog(decoder: ImageDecoder, output: String? = nil, jobs: Int, columns: Int? = nil) throws -> Catalog {
        var decoder = decoder
        // Besides what the captions asked for (`ImageDecoder.readFields(for:)`).
        decoder.readsCaptureDate = decoder.readsCaptureDate || sort == .date || groupBy?.isByDate == true
        decoder.readsCamera = decoder.readsCamera || groupBy == .camera
        decoder.findsMotionPhotos = pairs == .merge
        decoder.readsXMP = decoder.readsXMP || minRating != nil
        decoder.video = video.decoding
        var catalog = try readCatalog(decoder: decoder, output: output, jobs: jobs)
        if let minRating { catalog = try catalog.keepingRated(atLeast: minRating) }
        guard let groupBy else { return video.arrange(catalog, columns: columns, decoder: decoder) }
        return video.arrange(catalog.grouped(by: groupBy, format: try dateFormat.map { try DateFormat($0) }, order: sort, reverse: reverse), columns: columns, decoder: decoder)
    }

    /// A manifest by its name (a .json or .csv that is not a folder).
    static func isManifest(_ input: String) -> Bool {
        let ext = (input as NSString).pathExtension.lowercased()
        return (ext == "json" || ext == "csv") && !FileNames.isFolder(input)
    }

    func readCatalog(decoder: ImageDecoder, output: String?, jobs: Int) throws -> Catalog {
        for input in inputs where FileNames.status(input) == nil { throw CatalogError.notFound(path: input) }
        for i in listed.entries.indices where FileNames.status(listed.entries.path(at: i)) == nil {
            throw CatalogError.notFound(path: listed.entries.path(at: i))
        }
        var catalog = Catalog(sections: [])
        var files: [String] = []
        func addFiles() {
            if !files.isEmpty { catalog.append(Catalog.files(files, decoder: decoder, jobs: jobs), headedBy: nil) }
            files = []
        }
        for input in inputs {
            let ext = (input as NSString).pathExtension.lowercased()
            if FileNames.isFolder(input) {
                addFiles()
                var folder = try Catalog.folder(input, sort: sort, reverse: reverse, recursive: recursive, pairs: pairs, decoder: decoder, jobs: jobs)
                if let output { folder.leaveOut(sheetsAt: output) }
                if folder.entries.isEmpty {
                    throw CatalogError.noImages(
                        path: input, skipped: folder.skippedFiles.count, unreadable: folder.unreadableImages, subfolders: folder.unvisitedFolders,
                        readable: decoder.codecs.names)
                }
                // Several folders: each is a section headed by its name (as --recursive heads subfolders).
                catalog.append(folder, headedBy: inputs.count > 1 ? input : nil)
            } else if Self.isManifest(input) {
                addFiles()
                catalog.append(try Catalog.manifest(input, decoder: decoder, jobs: jobs), headedBy: nil)
            } else if Self.otherManifestExtensions.contains(ext) {
                throw CatalogError.manifest(path: input, message: "mosaic reads manifests in JSON or CSV; save this .\(ext) file as .csv")
            } else {
                files.append(input)
            }
        }
        // The listed files follow the files named last, in one section with them.
        var last = listed.take()
        if !files.isEmpty {
            var named = CatalogEntries()
            for file in files { named.append(path: file, relativePath: file) }
            named.append(contentsOf: last)
            last = named
        }
        if !last.isEmpty { catalog.append(Catalog.files(last, decoder: decoder, jobs: jobs), headedBy: nil) }
        return catalog
    }

    /// Lists that look like manifests but are not read as one.
    static let otherManifestExtensions: Set<String> = ["tsv", "txt", "tab", "xml", "yaml", "yml", "xls", "xlsx", "ods", "numbers"]
}
