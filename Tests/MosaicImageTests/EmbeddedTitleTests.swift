import CMosaicFixtures
import CMosaicShims
import Foundation
import MosaicImage
import MosaicLayout
import Testing

/// Titles, descriptions and ratings kept inside the file where XMP was not read before: a
/// HEIF's XMP item (`mime`, application/rdf+xml) and a JPEG's IPTC-IIM records (APP13,
/// Photoshop's resource 0x0404: 2:05 ObjectName, 2:120 Caption-Abstract). XMP wins over
/// IPTC where both say something.
@Suite struct EmbeddedTitleTests {
    static let packet = """
        <x:xmpmeta xmlns:x="adobe:ns:meta/"><rdf:RDF xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#">\
        <rdf:Description xmlns:xmp="http://ns.adobe.com/xap/1.0/" xmlns:dc="http://purl.org/dc/elements/1.1/" xmp:Rating="4">\
        <dc:title><rdf:Alt><rdf:li xml:lang="x-default">The harbour</rdf:li></rdf:Alt></dc:title>\
        </rdf:Description></rdf:RDF></x:xmpmeta>
        """

    static var reading: ImageDecoder {
        var decoder = ImageDecoder()
        decoder.readsXMP = true
        return decoder
    }

    static func heic(_ path: String, xmp: String?) throws {
        try GainMapTests.heic(path, gainMap: 0, xmp: xmp)
    }

    @Test func aHEIFsXMPItemGivesRatingAndTitle() throws {
        let dir = Fixtures.directory()
        try Self.heic(dir + "/rated.heic", xmp: Self.packet)
        let info = try Self.reading.probe(dir + "/rated.heic")
        #expect(info.shooting?.rating == 4)
        #expect(info.shooting?.title == "The harbour")
        // Not asked: not read.
        #expect(try ImageDecoder().probe(dir + "/rated.heic").shooting == nil)
        // A HEIF without the item.
        try Self.heic(dir + "/plain.heic", xmp: nil)
        #expect(try Self.reading.probe(dir + "/plain.heic").shooting == nil)
    }

    /// Google's Motion Photo mark in a HEIC's XMP item (Pixel phones write HEIC motion
    /// photos since 2023).
    @Test func aHEIFMotionPhotoIsKnownByItsXMPItem() throws {
        let dir = Fixtures.directory()
        let xmp = #"<x:xmpmeta xmlns:x="adobe:ns:meta/"><rdf:RDF xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#"><rdf:Description xmlns:GCamera="http://ns.google.com/photos/1.0/camera/" GCamera:MotionPhoto="1"/></rdf:RDF></x:xmpmeta>"#
        try Self.heic(dir + "/PXL_1.heic", xmp: xmp)
        var decoder = ImageDecoder()
        decoder.findsMotionPhotos = true
        #expect(try decoder.probe(dir + "/PXL_1.heic").motionPhoto == .google)
    }

    // MARK: IPTC

    /// An IIM record.
    static func record(_ record: UInt8, _ dataset: UInt8, _ value: [UInt8]) -> [UInt8] {
        [0x1C, record, dataset, UInt8(value.count >> 8), UInt8(value.count & 0xFF)] + value
    }

    /// Photoshop's resources: a thumbnail-ish resource first (an odd length, padded), then
    /// 0x0404 holding `iim`.
    static func resources(_ iim: [UInt8]) -> [UInt8] {
        func be32(_ v: Int) -> [UInt8] { (0..<4).reversed().map { UInt8((v >> (8 * $0)) & 0xFF) } }
        var out: [UInt8] = Array("8BIM".utf8) + [0x03, 0xED, 3] + Array("abc".utf8) + be32(3) + [1, 2, 3, 0]
        out += Array("8BIM".utf8) + [0x04, 0x04, 0, 0] + be32(iim.count) + iim
        if iim.count % 2 == 1 { out.append(0) }
        return out
    }

    /// A JPEG with an APP13 segment of `resources` (and an XMP APP1 when `xmp`).
    static func jpeg(_ path: String, resources: [UInt8], xmp: String? = nil) {
        Fixtures.writeJPEG(path, pixels: [UInt8](repeating: 128, count: 16 * 16 * 3), width: 16, height: 16, components: 3)
        var bytes = Fixtures.bytes(path)
        let app13 = Array("Photoshop 3.0".utf8) + [0] + resources
        var segments: [UInt8] = [0xFF, 0xED, UInt8((app13.count + 2) >> 8), UInt8((app13.count + 2) & 0xFF)] + app13
        if let xmp {
            let payload = Array("http://ns.adobe.com/xap/1.0/".utf8) + [0] + Array(xmp.utf8)
            segments += [0xFF, 0xE1, UInt8((payload.count + 2) >> 8), UInt8((payload.count + 2) & 0xFF)] + payload
        }
        bytes.insert(contentsOf: segments, at: 2)
        Fixtures.write(bytes, to: path)
    }

    @Test func aJPEGsIPTCTitleAndCaption() throws {
        let dir = Fixtures.directory()
        // UTF-8 declared (1:90), a title and a caption; an unrelated record between.
        let iim = Self.record(1, 90, [0x1B, 0x25, 0x47]) + Self.record(2, 5, Array("Harbour at dawn".utf8))
            + Self.record(2, 25, Array("boats".utf8)) + Self.record(2, 120, Array("Fishing boats, Brixham".utf8))
        Self.jpeg(dir + "/iptc.jpg", resources: Self.resources(iim))
        let info = try Self.reading.probe(dir + "/iptc.jpg")
        #expect(info.shooting?.title == "Harbour at dawn")
        #expect(info.shooting?.description == "Fishing boats, Brixham")
        // Latin-1, as older writers meant it.
        Self.jpeg(dir + "/latin1.jpg", resources: Self.resources(Self.record(2, 5, [0x43, 0x61, 0x66, 0xE9])))
        #expect(try Self.reading.probe(dir + "/latin1.jpg").shooting?.title == "Café")
        // XMP first: its title wins, IPTC's caption stays where XMP has none.
        Self.jpeg(dir + "/both.jpg", resources: Self.resources(iim), xmp: Self.packet)
        let both = try Self.reading.probe(dir + "/both.jpg").shooting
        #expect(both?.title == "The harbour" && both?.description == "Fishing boats, Brixham" && both?.rating == 4)
    }

    /// Lengths that run past the bytes end the reading; what came before stays.
    @Test func damagedRecordsAreBounded() {
        let good = Self.record(2, 5, Array("Kept".utf8))
        let cut = good + [0x1C, 2, 120, 0x40, 0x00] + Array("short".utf8)
        #expect(IPTCRecords.fields(cut[...]) == ShootingData(title: "Kept"))
        #expect(IPTCRecords.fields([0x1C, 2, 5, 0x80, 0x04, 0, 0, 0, 4][...]) == ShootingData(), "an extended length")
        #expect(IPTCRecords.fields([0x1C, 2][...]) == ShootingData())
        // A resource whose length runs past the segment, and a name longer than the rest.
        #expect(IPTCRecords.iimBlock(inResources: Array("8BIM".utf8) + [0x04, 0x04, 0, 0, 0, 0, 1, 0][...]) == nil)
        #expect(IPTCRecords.iimBlock(inResources: Array("8BIM".utf8) + [0x04, 0x04, 255, 0, 0, 0, 0, 0][...]) == nil)
        #expect(IPTCRecords.iimBlock(inResources: Self.resources(good)[...]).map(Array.init) == good)
    }
}
