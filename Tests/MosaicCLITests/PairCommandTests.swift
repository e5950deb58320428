import Foundation
import Testing

/// `--pairs` (issue 37): a camera card's RAW + JPEG pairs, Live Photos, Motion Photos and
/// GoPro proxies are one card each, under every order, grouping and caption.
@Suite struct PairCommandTests {
    /// A camera card: a RAW + JPEG pair, a Live Photo (JPEG + MOV), a lone JPEG without a
    /// date, a GoPro clip's proxy and thumbnail beside a lone MOV (no still: drawn).
    static func card(_ name: String = #function) throws -> String {
        let dir = CLI.temporaryDirectory(name) + "/DCIM"
        try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
        try GroupByTests.photo(dir + "/IMG_0001.JPG", date: "2024:06:14 09:12:00", make: "Canon", model: "Canon EOS 5D")
        try FileManager.default.copyItem(atPath: CLI.repository.path + "/Tests/MosaicImageTests/Fixtures/Raw/CanonRaw.cr2", toPath: dir + "/IMG_0001.CR2")
        try GroupByTests.photo(dir + "/IMG_0002.JPG", date: "2024:06:15 10:00:00", make: "Apple", model: "iPhone 15")
        try Data("a clip that is never read".utf8).write(to: URL(fileURLWithPath: dir + "/IMG_0002.MOV"))
        try GroupByTests.photo(dir + "/IMG_0003.jpg", date: nil)
        return dir
    }

    /// The cards of a `mosaic layout` map: name, companions' names, marks, title.
    static func cards(_ json: String) throws -> [(name: String, companions: [String], marks: [String], title: String?)] {
        let map = try #require(try JSONSerialization.jsonObject(with: Data(json.utf8)) as? [String: Any])
        #expect(map["schemaVersion"] as? Int == 4)
        #expect(map["skipped"] == nil, "the MOV of a Live Photo is not skipped")
        return ((map["elements"] as? [[String: Any]]) ?? []).filter { $0["kind"] as? String == "card" }.map { card in
            (
                ((card["source"] as? String ?? "") as NSString).lastPathComponent,
                ((card["companions"] as? [String]) ?? []).map { ($0 as NSString).lastPathComponent },
                (card["marks"] as? [String]) ?? [], card["title"] as? String
            )
        }
    }

    @Test func aCameraCardIsOneCardAPhoto() throws {
        let dir = try Self.card()
        let result = try CLI.run(["layout", dir, "--caption", "name"])
        #expect(result.status == 0, "\(result.stderr)")
        let cards = try Self.cards(result.stdout)
        #expect(cards.map(\.name) == ["IMG_0001.JPG", "IMG_0002.JPG", "IMG_0003.jpg"])
        #expect(cards.map(\.companions) == [["IMG_0001.CR2"], ["IMG_0002.MOV"], []])
        #expect(cards.map(\.marks) == [["RAW"], ["LIVE"], []])
    }

    /// `--pairs separate`: every file its own card, as before (the MOV, not a video, is a
    /// placeholder then).
    @Test func separatePairsDrawEveryFile() throws {
        let dir = try Self.card()
        let result = try CLI.run(["layout", dir, "--caption", "name", "--pairs", "separate"])
        #expect(result.status == 0, "\(result.stderr)")
        let map = try #require(try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any])
        let names = ((map["elements"] as? [[String: Any]]) ?? []).compactMap { ($0["source"] as? String).map { ($0 as NSString).lastPathComponent } }
        #expect(names == ["IMG_0001.CR2", "IMG_0001.JPG", "IMG_0002.JPG", "IMG_0002.MOV", "IMG_0003.jpg"])
        #expect(try CLI.run(["layout", dir, "--pairs", "both"]).status == 64)
    }

    /// Every order, grouping and caption keeps one card a photo, its companions and its
    /// marks; the captions read the drawn file's EXIF (the JPEG's), not the RAW's.
    @Test(arguments: ["natural", "name", "date", "size", "mtime"]) func pairsSurviveEveryCombination(_ sort: String) throws {
        let dir = try Self.card("combinations-\(sort)")
        for grouping in [nil, "day", "month", "camera"] as [String?] {
            for caption in ["name", "{stem} {date}", "{camera}"] {
                var arguments = ["layout", dir, "--sort", sort, "--caption", caption]
                if let grouping { arguments += ["--group-by", grouping] }
                let result = try CLI.run(arguments)
                #expect(result.status == 0, "\(arguments): \(result.stderr)")
                let cards = try Self.cards(result.stdout)
                let label = arguments.joined(separator: " ")
                #expect(Set(cards.map(\.name)) == ["IMG_0001.JPG", "IMG_0002.JPG", "IMG_0003.jpg"], "\(label)")
                for card in cards {
                    switch card.name {
                    case "IMG_0001.JPG":
                        #expect(card.companions == ["IMG_0001.CR2"] && card.marks == ["RAW"], "\(label)")
                        if caption == "{camera}" { #expect(card.title == "Canon EOS 5D", "\(label)") }
                        if caption == "{stem} {date}" { #expect(card.title == "IMG_0001 2024-06-14 09:12", "\(label)") }
                    case "IMG_0002.JPG":
                        #expect(card.companions == ["IMG_0002.MOV"] && card.marks == ["LIVE"], "\(label)")
                        if caption == "{camera}" { #expect(card.title == "Apple iPhone 15", "\(label)") }
                    default:
                        #expect(card.companions.isEmpty && card.marks.isEmpty, "\(label)")
                    }
                }
            }
        }
    }

    /// A JPEG with an XMP APP1 segment holding `xmp`, after its EXIF (make `make`).
    static func motionPhoto(_ path: String, sample: String, make: String, xmp: String?, trailer: [UInt8] = []) throws {
        var jpeg = [UInt8](try Data(contentsOf: URL(fileURLWithPath: CLI.sampleImages + "/" + sample)))
        var segments: [UInt8] = []
        let exif = Array("Exif".utf8) + [0, 0] + RenderCommandTests.exif(make: make, model: "Phone", date: "2024:06:14 09:12:00")
        segments += [0xFF, 0xE1, UInt8((exif.count + 2) >> 8), UInt8((exif.count + 2) & 0xFF)] + exif
        if let xmp {
            let payload = Array("http://ns.adobe.com/xap/1.0/".utf8) + [0] + Array(xmp.utf8)
            segments += [0xFF, 0xE1, UInt8((payload.count + 2) >> 8), UInt8((payload.count + 2) & 0xFF)] + payload
        }
        jpeg.insert(contentsOf: segments, at: 2)
        try Data(jpeg + trailer).write(to: URL(fileURLWithPath: path))
    }

    /// Google's XMP mark and Samsung's trailer (found at the end of a file larger than the
    /// probe's first read, and of one read whole).
    @Test func motionPhotosAreMarked() throws {
        let dir = CLI.temporaryDirectory() + "/phone"
        try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
        let xmp = #"<x:xmpmeta xmlns:x="adobe:ns:meta/"><rdf:RDF xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#"><rdf:Description xmlns:GCamera="http://ns.google.com/photos/1.0/camera/" GCamera:MotionPhoto="1"/></rdf:RDF></x:xmpmeta>"#
        try Self.motionPhoto(dir + "/PXL_1.jpg", sample: "rocket.jpg", make: "Google", xmp: xmp)
        // A clip, Samsung's directory naming it, the directory's length and "SEFT".
        let trailer = [UInt8](repeating: 0x42, count: 300) + Array("SEFH....MotionPhoto_Data".utf8) + [0x20, 0, 0, 0] + Array("SEFT".utf8)
        try Self.motionPhoto(dir + "/SM_big.jpg", sample: "hubble-deep-field.jpg", make: "samsung", xmp: nil, trailer: trailer)
        try Self.motionPhoto(dir + "/SM_small.jpg", sample: "chelsea.jpg", make: "SAMSUNG", xmp: nil, trailer: trailer)
        // The same trailer in another maker's photo, and a Pixel photo without the mark.
        try Self.motionPhoto(dir + "/other.jpg", sample: "coffee.jpg", make: "Canon", xmp: nil, trailer: trailer)
        try Self.motionPhoto(dir + "/PXL_2.jpg", sample: "rocket.jpg", make: "Google", xmp: xmp.replacingOccurrences(of: "=\"1\"", with: "=\"0\""))
        let result = try CLI.run(["layout", dir, "--caption", "name"])
        #expect(result.status == 0, "\(result.stderr)")
        let cards = try Self.cards(result.stdout)
        #expect(cards.map(\.name) == ["other.jpg", "PXL_1.jpg", "PXL_2.jpg", "SM_big.jpg", "SM_small.jpg"])
        #expect(cards.map(\.marks) == [[], ["MOTION"], [], ["MOTION"], ["MOTION"]])
        // Not looked for with --pairs separate.
        let separate = try Self.cards(try CLI.run(["layout", dir, "--caption", "name", "--pairs", "separate"]).stdout)
        #expect(separate.allSatisfy { $0.marks.isEmpty })
    }
}
