import Foundation
import Testing

/// `--raw` picks what a camera RAW's card is drawn from; a RAW that cannot be drawn is named
/// as such (before: libtiff's words, "Missing JPEG tables", on a red placeholder).
@Suite struct RawOptionTests {
    static let rawFiles = CLI.repository.appendingPathComponent("Tests/MosaicImageTests/Fixtures/Raw").path

    @Test(arguments: ["auto", "preview", "full"])
    func aRawIsRenderedWithEachSetting(setting: String) throws {
        let dir = CLI.temporaryDirectory()
        let result = try CLI.run(["render", Self.rawFiles + "/KodakDC50.kdc", "-o", dir + "/sheet.png", "--raw", setting, "--columns", "1", "--width", "300", "--no-progress"])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(!result.stderr.contains("warning"), "\(result.stderr)")
        #expect(FileManager.default.fileExists(atPath: dir + "/sheet.png"))
    }

    @Test func anUnknownSettingIsAUsageError() throws {
        let result = try CLI.run(["render", Self.rawFiles + "/KodakDC50.kdc", "-o", CLI.temporaryDirectory() + "/sheet.png", "--raw", "half"])
        #expect(result.status == 64)
        #expect(result.stderr.contains("--raw"))
    }

    @Test func aStrippedRawIsNamedNotACorruptTIFF() throws {
        let dir = CLI.temporaryDirectory()
        let result = try CLI.run(["render", Self.rawFiles + "/Nikon.nef", Self.rawFiles + "/KodakDC50.kdc", "-o", dir + "/sheet.png", "--no-progress"])
        #expect(result.status == 0)
        #expect(result.stderr.contains("warning: \(Self.rawFiles)/Nikon.nef: a RAW that cannot be drawn: the raw data was stripped from the file (18 bytes left of it)\n"))
        #expect(!result.stderr.contains("invalid TIFF"))
    }
}
