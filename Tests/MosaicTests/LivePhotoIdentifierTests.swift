import CMosaicFixtures
import Foundation
@testable import Mosaic
@testable import MosaicImage
import Testing

/// A Live Photo whose still and clip have different names (`IMG_0001.JPG` and
/// `IMG_0001 (1).MOV`, a renamed export) is one card when the still's Apple maker note
/// content identifier (tag 0x0011) is the clip's `com.apple.quicktime.content.identifier`.
/// Before, the clip was a card of its own. The identifiers are read only in a folder that
/// holds a still without a clip and a clip that is a card.
@Suite struct LivePhotoIdentifierTests {
    static let repository = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent().path

    /// An EXIF block (little-endian TIFF) naming Apple as the make, with Apple's maker note
    /// (big-endian, "Apple iOS") holding `identifier` as tag 0x0011.
    static func exif(contentIdentifier identifier: String) -> [UInt8] {
        func u16(_ v: Int) -> [UInt8] { [UInt8(v & 0xFF), UInt8(v >> 8 & 0xFF)] }
        func u32(_ v: Int) -> [UInt8] { (0..<4).map { UInt8((v >> (8 * $0)) & 0xFF) } }
        func be16(_ v: Int) -> [UInt8] { [UInt8(v >> 8 & 0xFF), UInt8(v & 0xFF)] }
        func be32(_ v: Int) -> [UInt8] { (0..<4).reversed().map { UInt8((v >> (8 * $0)) & 0xFF) } }
        let text = Array(identifier.utf8) + [0]
        // The note: header (14), one entry (2 + 12 + 4), then the text at 32.
        var note: [UInt8] = Array("Apple iOS".utf8) + [0, 0, 1] + Array("MM".utf8) + be16(2)
        note += be16(0x0001) + be16(9) + be32(1) + be32(14)  // a version, as iOS writes first
        note += be16(0x0011) + be16(2) + be32(text.count) + be32(14 + 2 + 24 + 4)
        note += be32(0) + text
        let make = Array("Apple".utf8) + [0]
        let ifd0End = 8 + 2 + 2 * 12 + 4
        let makeAt = ifd0End, exifAt = makeAt + make.count, noteAt = exifAt + 2 + 12 + 4
        var out: [UInt8] = [0x49, 0x49, 0x2A, 0x00] + u32(8) + u16(2)
        out += u16(0x010F) + u16(2) + u32(make.count) + u32(makeAt)
        out += u16(0x8769) + u16(4) + u32(1) + u32(exifAt)
        out += u32(0) + make
        out += u16(1) + u16(0x927C) + u16(7) + u32(note.count) + u32(noteAt) + u32(0) + note
        return out
    }

    /// A JPEG (a sample photo) with that EXIF block, or none.
    static func still(_ path: String, contentIdentifier: String?) throws {
        var jpeg = [UInt8](try Data(contentsOf: URL(fileURLWithPath: repository + "/SampleImages/rocket.jpg")))
        if let contentIdentifier {
            let payload = Array("Exif".utf8) + [0, 0] + exif(contentIdentifier: contentIdentifier)
            jpeg.insert(contentsOf: [0xFF, 0xE1, UInt8((payload.count + 2) >> 8), UInt8((payload.count + 2) & 0xFF)] + payload, at: 2)
        }
        try Data(jpeg).write(to: URL(fileURLWithPath: path))
    }

    /// A short QuickTime clip whose metadata holds `identifier`, or none.
    static func clip(_ path: String, contentIdentifier: String?) throws {
        var message = [CChar](repeating: 0, count: 256)
        let status = path.withCString { cPath in
            "mov".withCString { container in
                "mpeg4".withCString { codec in
                    (contentIdentifier ?? "").withCString { identifier in
                        var f = mosaic_video_fixture()
                        (f.path, f.container, f.codec) = (cPath, container, codec)
                        (f.width, f.height, f.frames, f.fps, f.gop) = (64, 48, 4, 10, 2)
                        if contentIdentifier != nil { f.content_identifier = identifier }
                        return mosaic_write_video_fixture(&f, &message, message.count)
                    }
                }
            }
        }
        try #require(status == 0, "\(String(decoding: message.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self))")
    }

    static let first = "A2F5E2C1-7B0E-4C55-9D8A-3F1B2C4D5E6F", second = "0B9C3D21-1111-4E2F-8A7B-6C5D4E3F2A1B"

    static func folder(_ name: String = #function) -> String {
        let dir = NSTemporaryDirectory() + "mosaic-live-\(getpid())-\(name.filter { $0.isLetter })-\(UUID().uuidString.prefix(8))"
        try? FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
        return dir
    }

    /// The cards of a catalog of `dir`: name, companions' names, marks.
    static func cards(_ dir: String, pairs: PairMode = .merge) throws -> [String] {
        let catalog = try Catalog.folder(dir, pairs: pairs, jobs: 1)
        return catalog.sections.flatMap(\.entries).map { entry in
            ([entry.relativePath] + entry.companions.map { "\($0.role.rawValue):\($0.relativePath)" } + entry.marks.map(\.rawValue)).joined(separator: " ")
        }
    }

    @Test func theProbeReadsBothIdentifiers() throws {
        let dir = Self.folder()
        try Self.still(dir + "/IMG_0001.JPG", contentIdentifier: Self.first)
        try Self.clip(dir + "/IMG_0001 (1).MOV", contentIdentifier: Self.first)
        var decoder = ImageDecoder()
        #expect(try decoder.probe(dir + "/IMG_0001.JPG").contentIdentifier == nil, "not asked: not read")
        decoder.readsContentIdentifier = true
        #expect(try decoder.probe(dir + "/IMG_0001.JPG").contentIdentifier == Self.first)
        #expect(try decoder.probe(dir + "/IMG_0001 (1).MOV").contentIdentifier == Self.first)
    }

    @Test func aStillAndAClipOfOtherNamesPairByTheirIdentifier() throws {
        let dir = Self.folder()
        try Self.still(dir + "/IMG_0001.JPG", contentIdentifier: Self.first)
        try Self.clip(dir + "/IMG_0001 (1).MOV", contentIdentifier: Self.first)
        // Another identifier: both stay cards. A clip without one stays a card.
        try Self.still(dir + "/IMG_0002.JPG", contentIdentifier: Self.second)
        try Self.clip(dir + "/other.MOV", contentIdentifier: "FFFFFFFF-0000-0000-0000-000000000000")
        try Self.clip(dir + "/plain.MOV", contentIdentifier: nil)
        // Paired by name, as before.
        try Self.still(dir + "/IMG_0003.JPG", contentIdentifier: nil)
        try Self.clip(dir + "/IMG_0003.MOV", contentIdentifier: nil)
        #expect(try Self.cards(dir) == [
            "IMG_0001.JPG live:IMG_0001 (1).MOV LIVE", "IMG_0002.JPG", "IMG_0003.JPG live:IMG_0003.MOV LIVE", "other.MOV", "plain.MOV",
        ])
        // --pairs separate: every file its own card.
        #expect(try Self.cards(dir, pairs: .separate).count == 7)
    }

    /// A folder without an unpaired clip reads no maker note.
    @Test func theIdentifiersAreReadOnlyWhereAClipMayPair() throws {
        let dir = Self.folder()
        try Self.still(dir + "/IMG_0001.JPG", contentIdentifier: Self.first)
        try Self.still(dir + "/IMG_0002.JPG", contentIdentifier: Self.second)
        try Self.clip(dir + "/IMG_0002.MOV", contentIdentifier: Self.second)
        var catalog = try Catalog.folder(dir, jobs: 1)
        #expect(catalog.sections.flatMap(\.entries).map { $0.info?.contentIdentifier } == [nil, nil])
        // A clip that is a card of its own: now they are read.
        try Self.clip(dir + "/renamed.MOV", contentIdentifier: Self.first)
        catalog = try Catalog.folder(dir, jobs: 1)
        #expect(catalog.sections.flatMap(\.entries).map(\.relativePath) == ["IMG_0001.JPG", "IMG_0002.JPG"])
        #expect(catalog.sections.flatMap(\.entries).first?.info?.contentIdentifier == Self.first)
    }
}

/// A sidecar's XMP wins over the XMP a HEIF holds (as Lightroom reads them): its rating and
/// title, the embedded description where the sidecar has none.
@Suite struct EmbeddedXMPSidecarTests {
    @Test func aSidecarWinsOverAHEIFsOwnXMP() throws {
        let dir = LivePhotoIdentifierTests.folder()
        let embedded = """
            <x:xmpmeta xmlns:x="adobe:ns:meta/"><rdf:RDF xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#">\
            <rdf:Description xmlns:xmp="http://ns.adobe.com/xap/1.0/" xmlns:dc="http://purl.org/dc/elements/1.1/" xmp:Rating="4">\
            <dc:title><rdf:Alt><rdf:li xml:lang="x-default">Embedded</rdf:li></rdf:Alt></dc:title>\
            <dc:description><rdf:Alt><rdf:li xml:lang="x-default">From the phone</rdf:li></rdf:Alt></dc:description>\
            </rdf:Description></rdf:RDF></x:xmpmeta>
            """
        let rgba = [UInt8]((0..<(32 * 32)).flatMap { _ in [200, 90, 40, 255] as [UInt8] })
        for name in ["IMG_1.HEIC", "IMG_2.HEIC"] {
            let result = rgba.withUnsafeBufferPointer { pixels in
                embedded.withCString { mosaic_heif_encode_gain_map_file(dir + "/" + name, pixels.baseAddress, 32, 32, nil, 0, nil, 0, $0, strlen($0)) }
            }
            try #require(result.status == MOSAIC_OK)
        }
        let sidecar = #"<x:xmpmeta xmlns:x="adobe:ns:meta/"><rdf:RDF xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#"><rdf:Description xmlns:xmp="http://ns.adobe.com/xap/1.0/" xmlns:dc="http://purl.org/dc/elements/1.1/" xmp:Rating="2"><dc:title><rdf:Alt><rdf:li xml:lang="x-default">Edited</rdf:li></rdf:Alt></dc:title></rdf:Description></rdf:RDF></x:xmpmeta>"#
        try Data(sidecar.utf8).write(to: URL(fileURLWithPath: dir + "/IMG_1.xmp"))
        var decoder = ImageDecoder()
        decoder.readsXMP = true
        let entries = try Catalog.folder(dir, decoder: decoder, jobs: 1).sections.flatMap(\.entries)
        #expect(entries.map(\.relativePath) == ["IMG_1.HEIC", "IMG_2.HEIC"])
        #expect(entries.map { $0.info?.shooting?.rating } == [2, 4])
        #expect(entries.map { $0.info?.shooting?.title } == ["Edited", "Embedded"])
        #expect(entries.map { $0.info?.shooting?.description } == ["From the phone", "From the phone"])
    }
}
