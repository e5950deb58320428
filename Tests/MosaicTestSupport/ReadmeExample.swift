import Foundation

/// A README (or guide page) example that a test compiles and runs: the code between a test
/// file's `// README-BEGIN` and `// README-END` lines (or another marker's), and the
/// document's `swift` block that starts with `import <module>`, each as its lines without
/// indentation or blank lines. The test stands for the block's `import <module>` line with
/// a call of `import_<module>()`.
public struct ReadmeExample: Sendable {
    /// The README's block.
    public let shown: [String]
    /// The test's code.
    public let tested: [String]

    public struct Missing: Error, CustomStringConvertible {
        public let description: String
    }

    /// Reads `testFile` (pass `#filePath`; it is in `Tests/<target>/`) and `document`, a
    /// path from the package's top (the README by default); the test's code lies between
    /// its `// MARKER-BEGIN` and `// MARKER-END` lines.
    public init(testFile: String, module: String, document: String = "README.md", marker: String = "README") throws {
        let here = URL(fileURLWithPath: testFile)
        let root = here.deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        let readme = try String(contentsOf: root.appendingPathComponent(document), encoding: .utf8)
        let source = try String(contentsOf: here, encoding: .utf8)
        guard let begin = source.range(of: "// \(marker)-" + "BEGIN\n"), let end = source.range(of: "// \(marker)-" + "END"),
            begin.upperBound <= end.lowerBound
        else { throw Missing(description: "\(testFile) has no \(marker)-BEGIN ... \(marker)-END lines") }
        let stand = "import_\(module)()"
        tested = Self.normalized(source[begin.upperBound..<end.lowerBound].split(separator: "\n"))
            .map { $0 == stand ? "import \(module)" : $0 }
        let opening = "```swift\nimport \(module)\n"
        guard let marker = readme.range(of: opening),
            let close = readme.range(of: "```", range: marker.upperBound..<readme.endIndex)
        else { throw Missing(description: "\(document) has no swift block that starts with import \(module)") }
        shown = Self.normalized(readme[readme.index(marker.lowerBound, offsetBy: "```swift\n".count)..<close.lowerBound].split(separator: "\n"))
    }

    static func normalized(_ lines: some Sequence<Substring>) -> [String] {
        lines.map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty }
    }
}
