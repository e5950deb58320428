import Foundation

/// The files a run will write, checked before any work against what it reads and against
/// each other: nothing mosaic writes may replace a file the user gave it.
public struct OutputCheck: Sendable {
    /// Each output and the option that names it (`--json`), for messages.
    public var outputs: [(path: String, option: String)] = []
    /// Every file the run reads: images, manifests, the files under an input folder.
    public var inputs: [String] = []

    /// An empty check: add what the run writes and reads, then `check()`.
    public init() {}

    /// Adds an output named by `option`.
    public mutating func write(_ path: String, by option: String) {
        outputs.append((path, option))
    }

    /// Adds files the run reads; a folder adds every file under it.
    public mutating func read(_ paths: [String]) {
        for path in paths {
            var isFolder: ObjCBool = false
            if FileManager.default.fileExists(atPath: path, isDirectory: &isFolder), isFolder.boolValue {
                let files = FileManager.default.enumerator(atPath: path)?.compactMap { $0 as? String } ?? []
                inputs.append(contentsOf: files.map { path + "/" + $0 })
            } else {
                inputs.append(path)
            }
        }
    }

    /// Lets the run replace `paths` although a folder read holds them (a folder's own
    /// earlier sheet, which the catalog left out).
    public mutating func allowReplacing(_ paths: [String]) {
        let allowed = Set(paths.map(Self.resolved))
        inputs.removeAll { allowed.contains(Self.resolved($0)) }
    }

    /// `path` made absolute, with `.`, `..` and symbolic links resolved.
    public static func resolved(_ path: String) -> String {
        URL(fileURLWithPath: path).standardizedFileURL.resolvingSymlinksInPath().path
    }

    /// - Throws: `SheetError.outputIsAFolder` for an output that is an existing folder,
    ///   `.outputIsAnInput` for one that is a file the run reads, `.outputsCollide` for two
    ///   outputs that are the same file.
    public func check() throws(SheetError) {
        let read = Set(inputs.map(Self.resolved))
        var written: [String: String] = [:]
        for (path, option) in outputs {
            var isFolder: ObjCBool = false
            if FileManager.default.fileExists(atPath: path, isDirectory: &isFolder), isFolder.boolValue {
                throw .outputIsAFolder(path: path, option: option)
            }
            let target = Self.resolved(path)
            if read.contains(target) { throw .outputIsAnInput(path: path) }
            if let other = written[target] { throw .outputsCollide(path: path, options: [other, option]) }
            written[target] = option
        }
    }
}
