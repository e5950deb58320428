import Foundation
import MosaicTestSupport
import Testing

/// Every Swift example of the README and the user guide is code that a test compiles and
/// runs (see `DocExamples`): a block that is not byte for byte a marked region of a test
/// fails here, naming the document and line, and so does a region no document shows.
@Suite struct DocExampleTests {
    static let root = DocExamples.repository(testFile: #filePath)

    static func isManifest(_ block: DocExamples.Block) -> Bool {
        block.text.hasPrefix("// swift-tools-version")
    }

    @Test func everySwiftBlockIsTestedCode() throws {
        let blocks = try DocExamples.blocks(in: Self.root).filter { $0.language == "swift" && !Self.isManifest($0) }
        let regions = Set(try DocExamples.regions(in: Self.root).map(\.text))
        // The README's two and the guide's: not a check that passes on no blocks.
        #expect(blocks.count >= 6, "\(blocks)")
        #expect(blocks.contains { $0.document == "README.md" })
        for block in blocks {
            let tested = regions.contains(block.text)
            #expect(tested, "\(block) is not the code of any DOC-BEGIN ... DOC-END region under Tests/")
        }
    }

    @Test func everyRegionIsShown() throws {
        let shown = Set(try DocExamples.blocks(in: Self.root).filter { $0.language == "swift" }.map(\.text))
        let regions = try DocExamples.regions(in: Self.root)
        #expect(regions.count >= 5, "\(regions)")
        for region in regions {
            let isShown = shown.contains(region.text)
            #expect(isShown, "\(region): no swift block of the README or the guide shows this region")
        }
    }

    /// A manifest cannot be compiled by a test: its tools version must be the package's, and
    /// every product it names from mosaic one the package has.
    @Test func manifestBlocksMatchThePackage() throws {
        let package = try String(contentsOf: Self.root.appendingPathComponent("Package.swift"), encoding: .utf8)
        let toolsVersion = String(package.prefix(while: { $0 != "\n" }))
        let manifests = try DocExamples.blocks(in: Self.root).filter(Self.isManifest)
        #expect(!manifests.isEmpty)
        for manifest in manifests {
            #expect(manifest.text.hasPrefix(toolsVersion + "\n"), "\(manifest): not \(toolsVersion)")
            #expect(manifest.text.contains(".package(url: "), "\(manifest): no .package(url:from:) line")
            for product in Self.products(in: manifest.text) {
                #expect(package.contains(".library(name: \"\(product)\""), "\(manifest): mosaic has no product \(product)")
            }
        }
    }

    static func products(in manifest: String) -> [String] {
        manifest.components(separatedBy: ".product(name: \"").dropFirst().compactMap { rest in
            guard let end = rest.firstIndex(of: "\""), rest[end...].hasPrefix("\", package: \"mosaic\"") else { return nil }
            return String(rest[..<end])
        }
    }

    /// The extraction itself, on a document and a source made here.
    @Test func regionsAreReadWithoutTheirIndentationAndWithTheirImports() throws {
        let source = "func f() {\n    // DOC-" + "BEGIN\n    import_Mosaic()\n\n    let x = 1\n      + 2\n    // DOC-" + "END\n}\n"
        let regions = try DocExamples.regions(of: source, file: "T.swift")
        #expect(regions.map(\.text) == ["import Mosaic\n\nlet x = 1\n  + 2"])
        #expect(regions.map(\.line) == [2])
        let blocks = try DocExamples.blocks(of: "text\n```swift\nimport Mosaic\n\nlet x = 1\n  + 2\n```\n```sh\nmosaic x\n```\n", document: "D.md")
        #expect(blocks.map(\.language) == ["swift", "sh"])
        #expect(blocks.first?.text == regions.first?.text)
        #expect(throws: DocExamples.Malformed.self) { try DocExamples.regions(of: "// DOC-" + "BEGIN\nx\n", file: "T.swift") }
        #expect(throws: DocExamples.Malformed.self) { try DocExamples.blocks(of: "```swift\nx\n", document: "D.md") }
    }

    @Test func commandsAreSplitAsAShellSplitsThem() {
        let block = "mosaic render a --caption '{stem} x' -o out.png   # a comment\n$ mosaic probe b.jpg\nmosaic layout c > map.json\nmosaic diff \\\n  d e --json - >> f\nswift test"
        #expect(DocExamples.mosaicCommands(in: block) == [
            ["render", "a", "--caption", "{stem} x", "-o", "out.png"], ["probe", "b.jpg"], ["layout", "c"], ["diff", "d", "e", "--json", "-"],
        ])
    }
}

/// Links between the documents: every relative link of the README and the guide names a
/// file of the repository (before: the README linked `docs/issue-14/`, renamed since).
@Suite struct DocLinkTests {
    @Test func everyRelativeLinkNamesAFile() throws {
        let root = DocExampleTests.root
        var checked = 0
        for document in try DocExamples.documents(in: root) {
            let text = try String(contentsOf: root.appendingPathComponent(document), encoding: .utf8)
            let folder = root.appendingPathComponent(document).deletingLastPathComponent()
            for piece in text.components(separatedBy: "](").dropFirst() {
                guard let end = piece.firstIndex(of: ")") else { continue }
                let target = String(piece[..<end].prefix(while: { $0 != "#" }))
                guard !target.isEmpty, !target.contains("://") else { continue }
                checked += 1
                let exists = FileManager.default.fileExists(atPath: folder.appendingPathComponent(target).path)
                #expect(exists, "\(document) links \(target), which does not exist")
            }
        }
        #expect(checked >= 30)
    }
}
