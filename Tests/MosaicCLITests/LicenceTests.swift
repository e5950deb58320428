import Foundation
import Testing

/// The repository states its licence (issue 35 item 21): before, it had no `LICENSE`, and the
/// Debian copyright file said `License: none-stated` for mosaic's own code.
@Suite struct LicenceTests {
    static func read(_ path: String) throws -> String {
        try String(contentsOfFile: CLI.repository.appendingPathComponent(path).path, encoding: .utf8)
    }

    @Test func theRepositoryIsApacheLicensed() throws {
        let licence = try Self.read("LICENSE")
        #expect(licence.contains("Apache License\n                           Version 2.0, January 2004"))
        #expect(licence.contains("END OF TERMS AND CONDITIONS"))
        // The standard text, not Swift's (which adds the Runtime Library Exception).
        #expect(!licence.contains("Runtime Library Exception"))
        #expect(try Self.read("Package.swift").contains("Apache License 2.0: see LICENSE"))
        let readme = try Self.read("README.md")
        #expect(readme.contains("## Licence\n\nApache License 2.0"))
    }

    @Test func theDebianCopyrightNamesIt() throws {
        let copyright = try Self.read("packaging/debian/copyright")
        #expect(!copyright.contains("none-stated"))
        // The paragraph for mosaic's own files names Apache-2.0, and the licence is defined.
        let own = try #require(copyright.range(of: "Files: *\n"))
        let paragraph = copyright[own.upperBound...].prefix { _ in true }.split(separator: "\n\n", maxSplits: 1).first ?? ""
        #expect(paragraph.contains("License: Apache-2.0"))
        #expect(copyright.contains("\nLicense: Apache-2.0\n Licensed under the Apache License"))
    }

    /// The copyright file is machine-readable (DEP-5): every `Files:` paragraph has its
    /// `Copyright` and `License` fields and names its files once (a second `Files:
    /// usr/bin/mosaic` paragraph held only a comment); the binary's paragraph states the
    /// combined work with Debian's FFmpeg under the GPL, version 3, and the GPL-3 text's place.
    @Test func theDebianCopyrightIsMachineReadableAndStatesTheCombinedWork() throws {
        let copyright = try Self.read("packaging/debian/copyright")
        let paragraphs = copyright.components(separatedBy: "\n\n").filter { $0.hasPrefix("Files:") }
        var seen: Set<String> = []
        for paragraph in paragraphs {
            let files = String(paragraph.split(separator: "\n").first ?? "")
            #expect(seen.insert(files).inserted, "\(files) twice")
            #expect(paragraph.contains("\nCopyright:") && paragraph.contains("\nLicense:"), "\(files) lacks Copyright or License")
        }
        let binary = try #require(paragraphs.first { $0.hasPrefix("Files: usr/bin/mosaic\n") })
        let words = binary.split(whereSeparator: \.isWhitespace).joined(separator: " ")
        #expect(words.contains("combined work under the GNU General Public License, version 3"))
        #expect(words.contains("/usr/share/common-licenses/GPL-3"))
        #expect(words.contains("--enable-gpl"))
    }
}
