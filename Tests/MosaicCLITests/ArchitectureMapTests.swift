import Foundation
import Testing

/// `docs/ARCHITECTURE.md` is the map of the package: its module table must name every
/// target of `Package.swift` (system libraries, C and Swift targets, the executable), and
/// nothing that is not one. Before, the table listed 5 system libraries where there were 12.
@Suite struct ArchitectureMapTests {
    static func read(_ path: String) throws -> String {
        try String(contentsOfFile: CLI.repository.appendingPathComponent(path).path, encoding: .utf8)
    }

    /// Every `name: "X"` of a non-test target in the manifest.
    static func packageTargets() throws -> Set<String> {
        let manifest = try read("Package.swift")
        var names: Set<String> = []
        for line in manifest.split(separator: "\n") {
            let text = line.trimmingCharacters(in: .whitespaces)
            guard !text.hasPrefix("//"), !text.hasPrefix(".testTarget"), !text.hasPrefix(".library"), !text.hasPrefix(".executable(") else { continue }
            guard text.hasPrefix(".target(") || text.hasPrefix(".systemLibrary(") || text.hasPrefix(".executableTarget(") || text.hasPrefix(".plugin(")
                || text.hasPrefix("name: ")
            else { continue }
            guard let start = text.range(of: "name: \"") else { continue }
            let rest = text[start.upperBound...]
            guard let end = rest.firstIndex(of: "\"") else { continue }
            names.insert(String(rest[..<end]))
        }
        return names
    }

    /// The back-quoted names in the first column of the module table.
    static func mappedTargets() throws -> Set<String> {
        let map = try read("docs/ARCHITECTURE.md")
        guard let start = map.range(of: "## Modules and the arrows between them") else { return [] }
        var names: Set<String> = []
        for line in map[start.upperBound...].split(separator: "\n").drop(while: { !$0.hasPrefix("|") }).prefix(while: { $0.hasPrefix("|") }) {
            let cells = line.split(separator: "|", omittingEmptySubsequences: false)
            guard cells.count > 2 else { continue }
            let first = cells[1]
            let parts = first.split(separator: "`")
            // Odd pieces are the quoted ones.
            for (i, part) in parts.enumerated() where i % 2 == 1 {
                names.insert(String(part.split(separator: " ").first ?? part))
            }
        }
        return names
    }

    @Test func theModuleTableNamesEveryTargetAndNoOther() throws {
        let package = try Self.packageTargets()
        let mapped = try Self.mappedTargets()
        #expect(package.contains("MosaicLayout") && package.contains("CPNG") && package.contains("MosaicCLI"), "\(package.sorted())")
        #expect(package.subtracting(mapped).isEmpty, "in Package.swift, not in ARCHITECTURE's module table: \(package.subtracting(mapped).sorted())")
        #expect(mapped.subtracting(package).isEmpty, "in ARCHITECTURE's module table, not in Package.swift: \(mapped.subtracting(package).sorted())")
    }

    /// One way to make a folder: `OutputFolders` (`makeFolder`, through the shim's
    /// `mosaic_make_folder`, held against the interrupt handler; `make` and `createParents`
    /// over it). Before, five other places called `createDirectory` or `mkdir` themselves.
    @Test func foldersAreMadeInOnePlace() throws {
        let sources = CLI.repository.appendingPathComponent("Sources")
        let files = FileManager.default.enumerator(atPath: sources.path)?.compactMap { $0 as? String }.filter { $0.hasSuffix(".swift") } ?? []
        #expect(files.count > 100)
        var makers: [String] = []
        for file in files where !file.hasSuffix("OutputFolders.swift") {
            let text = try String(contentsOfFile: sources.appendingPathComponent(file).path, encoding: .utf8)
            if text.contains("createDirectory(") || text.contains("mkdir(") { makers.append(file) }
        }
        #expect(makers.isEmpty, "folders made outside OutputFolders: \(makers)")
    }
}

/// Every name `docs/ARCHITECTURE.md` puts in back quotes exists: a path (with a slash or
/// a file suffix) names a file or folder of the repository, a capitalized identifier (a
/// type, a test suite: the first part of `Type.member` or `Type<Argument>`) is declared
/// in `Sources/` or `Tests/` or is a target, and a `mosaic_` name is a C function of the
/// shim. Before, ARCHITECTURE named `SharedInvariants` and `minAspect`, which did not
/// exist, and a DESIGN.md the tests cited.
@Suite struct ArchitectureNamesTests {
    static let root = CLI.repository

    /// Names the page may use that the repository does not declare.
    static let external: Set<String> = [
        "Double", "String", "Mutex", "Synchronization", "NSCondition", "DispatchSemaphore", "Foundation", "Package", "ParsableArguments",
        "Codable", "Sendable", "Hashable", "Equatable", "Error",
    ]

    /// The back-quoted pieces of `text` outside fenced blocks.
    static func quoted(_ text: String) -> [String] {
        var outside: [Substring] = []
        var fenced = false
        for line in text.split(separator: "\n", omittingEmptySubsequences: false) {
            if line.hasPrefix("```") { fenced.toggle(); continue }
            if !fenced { outside.append(line) }
        }
        return outside.joined(separator: "\n").split(separator: "`", omittingEmptySubsequences: false).enumerated()
            .filter { $0.offset % 2 == 1 }.map { String($0.element) }
    }

    /// Every path under the repository (files and folders), relative, without build products.
    static func paths() -> Set<String> {
        var paths: Set<String> = []
        guard let walker = FileManager.default.enumerator(atPath: root.path) else { return paths }
        for case let path as String in walker {
            if path.hasPrefix(".build") || path.hasPrefix(".git") || path.contains("/.build") { continue }
            paths.insert(path)
        }
        return paths
    }

    /// Type names declared in Swift under Sources/ and Tests/.
    static func declaredTypes(in paths: Set<String>) throws -> Set<String> {
        var types: Set<String> = []
        for path in paths where path.hasSuffix(".swift") && (path.hasPrefix("Sources/") || path.hasPrefix("Tests/")) {
            let source = try String(contentsOf: root.appendingPathComponent(path), encoding: .utf8)
            let words = source.split(whereSeparator: { !($0.isLetter || $0.isNumber || $0 == "_") })
            for (index, word) in words.enumerated().dropLast()
            where ["struct", "enum", "class", "protocol", "actor", "typealias"].contains(String(word)) {
                types.insert(String(words[index + 1]))
            }
        }
        return types
    }

    static func isPath(_ name: String) -> Bool {
        guard !name.contains(" "), !name.hasPrefix("-") else { return false }
        let suffixes = [".swift", ".c", ".h", ".md", ".sh", ".py", ".json", ".html", ".txt", ".yml"]
        return name.contains("/") || suffixes.contains { name.hasSuffix($0) }
    }

    /// The identifiers to look up in a name such as `SectionLayout<MasonryCards>` or
    /// `ImageDecoder.decode(_:probed:)`: the first part, and the generic arguments.
    static func typeNames(_ name: String) -> [String] {
        let head = name.prefix(while: { $0 != "(" })
        let parts = head.split(whereSeparator: { $0 == "<" || $0 == ">" || $0 == "," || $0 == " " })
        return parts.compactMap { part in
            let first = String(part.prefix(while: { $0 != "." }))
            guard let initial = first.first, initial.isUppercase, first.contains(where: \.isLowercase),
                first.allSatisfy({ $0.isLetter || $0.isNumber })
            else { return nil }
            return first
        }
    }

    @Test func everyQuotedNameExists() throws {
        let map = try String(contentsOf: Self.root.appendingPathComponent("docs/ARCHITECTURE.md"), encoding: .utf8)
        let paths = Self.paths()
        let types = try Self.declaredTypes(in: paths)
        let targets = try ArchitectureMapTests.packageTargets()
        var shim = ""
        for path in paths where path.hasPrefix("Sources/CMosaicShims/") && (path.hasSuffix(".c") || path.hasSuffix(".h")) {
            shim += try String(contentsOf: Self.root.appendingPathComponent(path), encoding: .utf8)
        }
        let names = Self.quoted(map)
        #expect(names.count >= 200, "\(names.count) quoted names")
        var missing: [String] = []
        for name in Set(names).sorted() {
            if Self.isPath(name) {
                if name.contains("NAME") { continue }  // a placeholder: Sources/MosaicLayout/NAME/
                let path = name.hasSuffix("/") ? String(name.dropLast()) : name
                let found = paths.contains(path) || paths.contains("docs/" + path)
                    || paths.contains { $0.hasSuffix("/" + path) }
                if !found { missing.append(name) }
            } else if name.hasPrefix("mosaic_") && name.allSatisfy({ $0.isLetter || $0.isNumber || $0 == "_" }) {
                if !shim.contains(name + "(") { missing.append(name) }
            } else {
                for type in Self.typeNames(name) where !types.contains(type) && !targets.contains(type) && !Self.external.contains(type) {
                    missing.append(name)
                }
            }
        }
        #expect(missing.isEmpty, "docs/ARCHITECTURE.md names what does not exist: \(missing)")
    }

    @Test func theMapIsShort() throws {
        let map = try String(contentsOf: Self.root.appendingPathComponent("docs/ARCHITECTURE.md"), encoding: .utf8)
        #expect(map.split(separator: "\n", omittingEmptySubsequences: false).count <= 500)
    }
}
