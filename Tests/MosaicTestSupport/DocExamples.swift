import Foundation

/// The code examples of the README and the user guide, and the test code they must be.
///
/// Every fenced `swift` block of `README.md` and `docs/guide/*.md` is compiled and run by a
/// test: it is, byte for byte, a region of a test source between a `// DOC-BEGIN` line and
/// a `// DOC-END` line, with the region's common indentation removed. Inside a function a
/// block's `import X` line cannot be written; the test writes `import_X()` there (a
/// function that does nothing) and the region reads it as `import X`. A block that is a
/// package manifest (it starts with `// swift-tools-version`) cannot be compiled by a
/// test; it is checked against the package's own manifest instead.
public enum DocExamples {
    /// A fenced block of a Markdown document.
    public struct Block: Sendable, CustomStringConvertible {
        /// The document's path, relative to the repository.
        public let document: String
        /// The line of the opening fence, from 1.
        public let line: Int
        /// The fence's language (`swift`, `sh`, ...), empty when it has none.
        public let language: String
        /// The lines between the fences, joined by newlines.
        public let text: String
        public var description: String { "\(document):\(line)" }
    }

    /// A region of a test source between the markers.
    public struct Region: Sendable, CustomStringConvertible {
        /// The source's path, relative to the repository.
        public let file: String
        /// The line of the `DOC-BEGIN` marker, from 1.
        public let line: Int
        /// The region as a document shows it.
        public let text: String
        public var description: String { "\(file):\(line)" }
    }

    public struct Malformed: Error, CustomStringConvertible {
        public let description: String
    }

    static let begin = "// DOC-" + "BEGIN"
    static let end = "// DOC-" + "END"

    /// The repository's root, from a test file's `#filePath` (it is in `Tests/<target>/`).
    public static func repository(testFile: String) -> URL {
        URL(fileURLWithPath: testFile).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
    }

    /// `README.md` and every `docs/guide/*.md`, relative to the repository.
    public static func documents(in root: URL) throws -> [String] {
        let guide = root.appendingPathComponent("docs/guide").path
        let pages = try FileManager.default.contentsOfDirectory(atPath: guide).filter { $0.hasSuffix(".md") }.sorted()
        return ["README.md"] + pages.map { "docs/guide/" + $0 }
    }

    /// The fenced blocks of every document.
    public static func blocks(in root: URL) throws -> [Block] {
        try documents(in: root).flatMap { document in
            try blocks(of: String(contentsOf: root.appendingPathComponent(document), encoding: .utf8), document: document)
        }
    }

    /// The fenced blocks of one Markdown text; an unclosed fence is an error.
    public static func blocks(of markdown: String, document: String) throws -> [Block] {
        var blocks: [Block] = []
        var open: (line: Int, language: String, lines: [Substring])?
        for (index, line) in markdown.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
            let trimmed = line.drop(while: { $0 == " " })
            if let current = open {
                if trimmed.hasPrefix("```") && trimmed.allSatisfy({ $0 == "`" }) {
                    blocks.append(Block(document: document, line: current.line, language: current.language, text: current.lines.joined(separator: "\n")))
                    open = nil
                } else {
                    open?.lines.append(line)
                }
            } else if trimmed.hasPrefix("```") {
                open = (index + 1, String(trimmed.dropFirst(3)).trimmingCharacters(in: .whitespaces), [])
            }
        }
        if let open { throw Malformed(description: "\(document):\(open.line): a fence that is not closed") }
        return blocks
    }

    /// Every region of every Swift file under `Tests/`.
    public static func regions(in root: URL) throws -> [Region] {
        let tests = root.appendingPathComponent("Tests")
        guard let walker = FileManager.default.enumerator(atPath: tests.path) else { return [] }
        var regions: [Region] = []
        for case let path as String in walker where path.hasSuffix(".swift") {
            let source = try String(contentsOf: tests.appendingPathComponent(path), encoding: .utf8)
            regions += try Self.regions(of: source, file: "Tests/" + path)
        }
        return regions.sorted { ($0.file, $0.line) < ($1.file, $1.line) }
    }

    /// The regions of one source; a marker without its pair is an error.
    public static func regions(of source: String, file: String) throws -> [Region] {
        var regions: [Region] = []
        var open: (line: Int, lines: [Substring])?
        for (index, line) in source.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
            let trimmed = line.trimmingCharacters(in: .whitespaces)
            if trimmed == begin {
                if open != nil { throw Malformed(description: "\(file):\(index + 1): DOC-BEGIN inside a region") }
                open = (index + 1, [])
            } else if trimmed == end {
                guard let current = open else { throw Malformed(description: "\(file):\(index + 1): DOC-END without DOC-BEGIN") }
                regions.append(Region(file: file, line: current.line, text: shown(current.lines)))
                open = nil
            } else {
                open?.lines.append(line)
            }
        }
        if let open { throw Malformed(description: "\(file):\(open.line): DOC-BEGIN without DOC-END") }
        return regions
    }

    /// The lines without their common indentation (blank lines do not count for it and
    /// are kept empty), each `import_X()` line read as `import X`.
    public static func shown(_ lines: [Substring]) -> String {
        let indentation = lines.filter { !$0.allSatisfy { $0 == " " } }.map { $0.prefix(while: { $0 == " " }).count }.min() ?? 0
        return lines.map { line -> String in
            if line.allSatisfy({ $0 == " " }) { return "" }
            let text = String(line.dropFirst(indentation))
            if text.hasPrefix("import_") && text.hasSuffix("()") && !text.contains(" ") {
                return "import " + text.dropFirst("import_".count).dropLast(2)
            }
            return text
        }.joined(separator: "\n")
    }

    /// The command lines of a shell block that run `mosaic`: continuation lines joined,
    /// comments, a leading `$ ` prompt and everything from a redirection or a pipe on
    /// dropped, each split into words as a POSIX shell splits simple quoted words.
    public static func mosaicCommands(in block: String) -> [[String]] {
        var logical: [String] = []
        var pending = ""
        for line in block.split(separator: "\n", omittingEmptySubsequences: false) {
            if line.hasSuffix("\\") {
                pending += line.dropLast() + " "
                continue
            }
            logical.append(pending + line)
            pending = ""
        }
        return logical.compactMap { line -> [String]? in
            var words = shellWords(line)
            if words.first == "$" { words.removeFirst() }
            guard words.first == "mosaic" else { return nil }
            return Array(words.dropFirst())
        }
    }

    /// Words up to a comment, redirection, pipe or list operator.
    static func shellWords(_ line: String) -> [String] {
        var words: [String] = []
        var word = ""
        var inWord = false
        var quote: Character?
        for character in line {
            if let open = quote {
                if character == open { quote = nil } else { word.append(character) }
                continue
            }
            switch character {
            case "'", "\"":
                quote = character
                inWord = true
            case " ", "\t":
                if inWord { words.append(word) }
                word = ""
                inWord = false
            case "#" where !inWord, ">", "<", "|", "&", ";":
                if inWord { words.append(word) }
                return words
            default:
                word.append(character)
                inWord = true
            }
        }
        if inWord { words.append(word) }
        return words
    }
}
