import Foundation

/// The plan of a run that makes one sheet per folder or per group (`--each`): which sheets,
/// what each is named, where each goes. Checked before any work: names that collide, a
/// template without a placeholder.
public struct EachSheets: Sendable {
    /// One sheet of the run.
    public struct Sheet: Sendable, Hashable {
        /// The folder's name or the group's header, as read (for messages: `FileNames.display`).
        public var name: String
        /// The folder read (folder mode); nil for a group.
        public var folder: String?
        /// The video the sheet shows (`--frames`); nil for a folder or a group.
        public var source: String? = nil
        /// The sheet's destination and image map, the templates filled in.
        public var destination: String
        public var json: String?
    }

    /// The sheets, in order.
    public var sheets: [Sheet]

    /// The folders `inputs` stand for: each folder named, or, when one folder is named,
    /// each of its immediate subfolders (not hidden ones), in natural order; the files
    /// directly in that one folder are not in any sheet (`looseFiles` counts them).
    ///
    /// - Throws: `OutputRequestError.settings` when an input is not a folder (a file or a
    ///   manifest: `--group-by` makes sheets of those) or one folder has no subfolders.
    public static func folders(of inputs: [String]) throws(OutputRequestError) -> (folders: [String], looseFiles: Int) {
        for input in inputs where !FileNames.isFolder(input) {
            throw .settings("--each makes a sheet per folder; \(FileNames.display(input)) is not a folder (with --group-by, a sheet per group of any inputs)")
        }
        guard inputs.count == 1, let root = inputs.first else { return (inputs, 0) }
        var folders: [String] = []
        var loose = 0
        for name in (FileNames.contentsOfDirectory(root) ?? []).sorted(by: naturalLess) where !name.hasPrefix(".") {
            let path = root.hasSuffix("/") ? root + name : root + "/" + name
            if FileNames.isFolder(path) { folders.append(path) } else { loose += 1 }
        }
        guard !folders.isEmpty else {
            throw .settings("--each makes a sheet per subfolder of \(FileNames.display(root)), which has none (name several folders, or use --group-by)")
        }
        return (folders, loose)
    }

    /// The sheets named `names` (folders' names, groups' headers or videos' stems), their
    /// destinations and maps from the templates; `sources` (the videos' paths) name them in
    /// messages when given.
    ///
    /// - Throws: `OutputRequestError.settings` when two sheets would write the same file,
    ///   or one's page (`NAME-2.png`) would be another's sheet.
    public init(names: [String], folders: [String]? = nil, sources: [String]? = nil, destination: SheetNameTemplate, json: SheetNameTemplate?) throws(OutputRequestError) {
        sheets = []
        var owners: [String: String] = [:]
        func claim(_ path: String, by name: String) throws(OutputRequestError) {
            let key = URL(fileURLWithPath: path).standardizedFileURL.path
            if let other = owners[key] {
                throw .settings("--each: \"\(FileNames.display(other))\" and \"\(FileNames.display(name))\" would both be written to \(FileNames.display(path)); rename one, or put {index} in the template")
            }
            owners[key] = name
        }
        for (i, name) in names.enumerated() {
            let sheet = Sheet(
                name: name, folder: folders?[i], source: sources?[i], destination: destination.path(name: name, index: i, count: names.count),
                json: json?.path(name: name, index: i, count: names.count))
            // Named by their folders' paths when they have them: "a/x" and "b/x" collide.
            let label = sheet.folder ?? sheet.source ?? name
            try claim(sheet.destination, by: label)
            if let map = sheet.json { try claim(map, by: label) }
            sheets.append(sheet)
        }
        // A paginated sheet's pages are NAME-1.png, NAME-2.png ...: no other sheet may be one.
        for sheet in sheets {
            let url = URL(fileURLWithPath: sheet.destination).standardizedFileURL
            let stem = url.deletingPathExtension().path
            guard let dash = stem.lastIndex(of: "-"), !stem[stem.index(after: dash)...].isEmpty,
                stem[stem.index(after: dash)...].allSatisfy(\.isASCII), stem[stem.index(after: dash)...].allSatisfy(\.isNumber)
            else { continue }
            let base = String(stem[..<dash]) + (url.pathExtension.isEmpty ? "" : "." + url.pathExtension)
            let label = sheet.folder ?? sheet.source ?? sheet.name
            if let other = owners[base], other != label {
                throw .settings("--each: \"\(FileNames.display(label))\" would be written to \(FileNames.display(sheet.destination)), the name of a page of \"\(FileNames.display(other))\"; rename one, or put {index} in the template")
            }
        }
    }
}
