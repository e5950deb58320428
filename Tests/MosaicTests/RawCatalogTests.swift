import Foundation
import Mosaic
import Testing

/// A camera RAW in a catalog keeps what its probe found: the previews its decode chooses
/// from (a packed record has no room for them: an entry with previews is kept whole).
@Suite struct RawCatalogTests {
    static let rawFiles = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("MosaicImageTests/Fixtures/Raw").path

    @Test func theCatalogKeepsARawsPreviews() throws {
        let catalog = Catalog.files([Self.rawFiles + "/FujiFilm.raf", Self.rawFiles + "/KodakDC50.kdc"], jobs: 1)
        let infos = catalog.entries.map(\.info)
        #expect(infos.map { $0?.format } == [.raw, .raw])
        #expect(infos[0]?.previews == [Size(width: 8, height: 8)])
        #expect(infos[1]?.previews == nil)
        #expect(infos[1]?.width == 768)
    }
}
