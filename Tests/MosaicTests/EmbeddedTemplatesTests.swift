import Foundation
import Testing

@testable import Mosaic

/// The web templates are files in the repository, embedded at build time by the
/// EmbedTemplates plugin: what the binary holds is each file's text, to the byte.
@Suite struct EmbeddedTemplatesTests {
    static let folder = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("Sources/Mosaic/Reports/Templates")

    /// The file's bytes without its last newline (what the plugin embeds).
    func fileText(_ name: String) throws -> String {
        var text = try String(contentsOf: Self.folder.appendingPathComponent(name), encoding: .utf8)
        if text.hasSuffix("\n") { text.removeLast() }
        return text
    }

    @Test func theViewerIsTheRepositorysFile() throws {
        #expect(EmbeddedTemplates.viewerHTML == (try fileText("viewer.html")))
        #expect(PyramidViewer.template == EmbeddedTemplates.viewerHTML)
    }

    /// The page as it was when it was a string in PyramidViewer.swift (its length and a
    /// checksum of its bytes): moving it into a file changed nothing. Recorded again for
    /// issue 35's changes (search results name each card's folder; zoom stops at 100%).
    @Test func theViewerPageIsUnchangedByTheMove() {
        let bytes = Array(EmbeddedTemplates.viewerHTML.utf8)
        #expect(bytes.count == Self.recordedLength)
        #expect(fnv1a(bytes) == Self.recordedChecksum)
    }

    @Test func theDiffReportIsTheRepositorysFile() throws {
        #expect(EmbeddedTemplates.diffReportHTML == (try fileText("diff-report.html")))
        #expect(DiffHTMLReport.template == EmbeddedTemplates.diffReportHTML)
        // As it was when it was a string in DiffHTMLReport.swift, then with the aligned and
        // onion-skin views, then with the note of an image not copied into the report, then
        // with moves in the aligned view and the aligned pairs' magnifier (issue 36).
        let bytes = Array(EmbeddedTemplates.diffReportHTML.utf8)
        #expect(bytes.count == 28_478)
        #expect(fnv1a(bytes) == 6_491_178_163_049_558_419)
    }

    static let recordedLength = 15_358
    static let recordedChecksum: UInt64 = 0xef69_bc10_35fa_9c10

    func fnv1a(_ bytes: [UInt8]) -> UInt64 {
        bytes.reduce(0xcbf2_9ce4_8422_2325) { ($0 ^ UInt64($1)) &* 0x100_0000_01b3 }
    }
}
