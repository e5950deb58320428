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
