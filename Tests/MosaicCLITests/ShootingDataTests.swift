import CMosaicFixtures
import CMosaicShims
import Foundation
import Testing

/// Shooting data (issue 37): read once by the probe, only what the captions and options
/// ask for; `{date}` is the capture date or nothing, never the file's time.
@Suite struct ShootingDataTests {
    enum Value {
        case ascii(String)
        case rational(UInt32, UInt32)
        case short(UInt16)
        case long(UInt32)
    }

    /// A little-endian TIFF structure: IFD0 with `ifd0` and a pointer to an Exif IFD with
    /// `exif` (tags sorted here).
    static func tiff(_ ifd0: [(Int, Value)], exif: [(Int, Value)]) -> [UInt8] {
        func u16(_ v: Int) -> [UInt8] { [UInt8(v & 0xFF), UInt8((v >> 8) & 0xFF)] }
        func u32(_ v: Int) -> [UInt8] { (0..<4).map { UInt8((v >> (8 * $0)) & 0xFF) } }
        func ifd(_ entries: [(Int, Value)], at start: Int) -> [UInt8] {
            let sorted = entries.sorted { $0.0 < $1.0 }
            var dataAt = start + 2 + sorted.count * 12 + 4
            var table = u16(sorted.count), data: [UInt8] = []
            for (tag, value) in sorted {
                let (type, count, bytes): (Int, Int, [UInt8])
                switch value {
                case .ascii(let text): (type, count, bytes) = (2, text.utf8.count + 1, Array(text.utf8) + [0])
                case .rational(let n, let d): (type, count, bytes) = (5, 1, u32(Int(n)) + u32(Int(d)))
                case .short(let v): (type, count, bytes) = (3, 1, u16(Int(v)) + [0, 0])
                case .long(let v): (type, count, bytes) = (4, 1, u32(Int(v)))
                }
                table += u16(tag) + u16(type) + u32(count)
                if bytes.count <= 4 {
                    table += bytes
                } else {
                    table += u32(dataAt)
                    data += bytes
                    dataAt += bytes.count
                }
            }
            return table + u32(0) + data
        }
        // IFD0's size does not depend on the pointer's value: the Exif IFD follows it.
        let exifAt = 8 + ifd(ifd0 + [(0x8769, .long(0))], at: 8).count
        return [0x49, 0x49, 0x2A, 0x00] + u32(8) + ifd(ifd0 + [(0x8769, .long(UInt32(exifAt)))], at: 8) + ifd(exif, at: exifAt)
    }

    /// rocket.jpg with `tiff` in an APP1 "Exif" segment and `xmp` in an APP1 XMP segment.
    static func photo(_ path: String, tiff: [UInt8]?, xmp: String? = nil) throws {
        var jpeg = [UInt8](try Data(contentsOf: URL(fileURLWithPath: CLI.sampleImages + "/rocket.jpg")))
        var segments: [UInt8] = []
        for payload in [tiff.map { Array("Exif".utf8) + [0, 0] + $0 }, xmp.map { Array("http://ns.adobe.com/xap/1.0/".utf8) + [0] + Array($0.utf8) }] {
            guard let payload else { continue }
            segments += [0xFF, 0xE1, UInt8((payload.count + 2) >> 8), UInt8((payload.count + 2) & 0xFF)] + payload
        }
        jpeg.insert(contentsOf: segments, at: 2)
        try Data(jpeg).write(to: URL(fileURLWithPath: path))
    }

    static let canon = tiff(
        [(0x010F, .ascii("Canon")), (0x0110, .ascii("Canon EOS 5D Mark III"))],
        exif: [
            (0x829A, .rational(1, 250)), (0x829D, .rational(28, 10)), (0x8827, .short(400)), (0x9003, .ascii("2024:06:14 09:12:30")),
            (0x9011, .ascii("+02:00")), (0x920A, .rational(50, 1)), (0xA434, .ascii("EF24-70mm f/2.8L II USM")),
        ])

    static func cards(_ arguments: [String]) throws -> [[String: Any]] {
        let result = try CLI.run(arguments)
        #expect(result.status == 0, "\(arguments): \(result.stderr)")
        let map = try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any]
        return ((map?["elements"] as? [[String: Any]]) ?? []).filter { $0["kind"] as? String == "card" }
    }

    @Test func captionsShowTheExposure() throws {
        let dir = CLI.temporaryDirectory()
        try Self.photo(dir + "/IMG_1.jpg", tiff: Self.canon)
        let cards = try Self.cards(["layout", dir + "/IMG_1.jpg", "--caption", "{lens}|{iso}|{aperture}|{shutter}|{focal}\\n{camera} {date} {date:%A %-d %B %Y}"])
        #expect(cards.first?["title"] as? String == "EF24-70mm f/2.8L II USM|ISO 400|f/2.8|1/250 s|50 mm")
        #expect(cards.first?["description"] as? String == "Canon EOS 5D Mark III 2024-06-14 09:12 Friday 14 June 2024")
    }

    /// Before: `{date}` was the file's time for a photo without a capture date (a
    /// screenshot, a PNG); now it is empty, and `{mtime}` is the file's time.
    @Test func aPhotoWithoutADateHasNone() throws {
        let dir = CLI.temporaryDirectory()
        try FileManager.default.copyItem(atPath: CLI.sampleImages + "/coins.png", toPath: dir + "/screenshot.png")
        let cards = try Self.cards(["layout", dir + "/screenshot.png", "--caption", "[{date}] [{date:%Y}] [{iso}] [{rating}]\\n{mtime}"])
        #expect(cards.first?["title"] as? String == "[] [] [] []")
        // What a photo lacks leaves no gap between the values it has.
        let spaced = try Self.cards(["layout", dir + "/screenshot.png", "--caption", "{camera} {iso}  {name} {rating}"])
        #expect(spaced.first?["title"] as? String == "screenshot.png")
        let mtime = cards.first?["description"] as? String ?? ""
        #expect(mtime.range(of: #"^\d{4}-\d\d-\d\d \d\d:\d\d$"#, options: .regularExpression) != nil, "\(mtime)")
    }

    static func sidecar(rating: Int?, title: String? = nil) -> String {
        let attributes = rating.map { " xmp:Rating=\"\($0)\"" } ?? ""
        let titled = title.map { "<dc:title><rdf:Alt><rdf:li xml:lang=\"x-default\">\($0)</rdf:li></rdf:Alt></dc:title>" } ?? ""
        return """
            <x:xmpmeta xmlns:x="adobe:ns:meta/"><rdf:RDF xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#">
            <rdf:Description rdf:about="" xmlns:xmp="http://ns.adobe.com/xap/1.0/" xmlns:dc="http://purl.org/dc/elements/1.1/"\(attributes)>\(titled)</rdf:Description>
            </rdf:RDF></x:xmpmeta>
            """
    }

    /// A card folder rated in Lightroom and darktable: embedded XMP, `NAME.EXT.xmp` and
    /// `STEM.xmp` sidecars (the whole name's over the stem's, a sidecar's over the
    /// embedded), a rejected photo and an unrated one.
    static func ratedCard(_ name: String = #function) throws -> String {
        let dir = CLI.temporaryDirectory(name) + "/card"
        try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
        try Self.photo(dir + "/a.jpg", tiff: Self.canon, xmp: Self.sidecar(rating: 5, title: "Harbour"))
        try Self.photo(dir + "/b.jpg", tiff: nil, xmp: Self.sidecar(rating: 1))
        try Self.sidecar(rating: 4).write(toFile: dir + "/b.jpg.xmp", atomically: true, encoding: .utf8)
        try Self.sidecar(rating: 2).write(toFile: dir + "/b.xmp", atomically: true, encoding: .utf8)
        try Self.photo(dir + "/c.jpg", tiff: nil)
        try Self.sidecar(rating: 3, title: "Boats").write(toFile: dir + "/c.xmp", atomically: true, encoding: .utf8)
        try Self.photo(dir + "/d.jpg", tiff: nil, xmp: Self.sidecar(rating: -1))
        try Self.photo(dir + "/e.jpg", tiff: nil)
        return dir
    }

    @Test func ratingsTitlesAndSidecars() throws {
        let dir = try Self.ratedCard()
        let cards = try Self.cards(["layout", dir, "--caption", "{name} {rating}"])
        #expect(cards.compactMap { $0["title"] as? String } == ["a.jpg ★★★★★", "b.jpg ★★★★☆", "c.jpg ★★★☆☆", "d.jpg", "e.jpg"])
        // The sidecars are the cards' companions, not skipped files.
        #expect(cards.map { (($0["companions"] as? [String]) ?? []).map { ($0 as NSString).lastPathComponent } } == [[], ["b.jpg.xmp", "b.xmp"], ["c.xmp"], [], []])
        // The default caption is the photo's own title, else its stem.
        let titled = try Self.cards(["layout", dir])
        #expect(titled.compactMap { $0["title"] as? String } == ["Harbour", "b", "Boats", "d", "e"])
    }

    @Test(arguments: [(4, ["a.jpg", "b.jpg"]), (3, ["a.jpg", "b.jpg", "c.jpg"]), (0, ["a.jpg", "b.jpg", "c.jpg", "e.jpg"])])
    func minRatingKeepsTheRated(_ minimum: Int, _ kept: [String]) throws {
        let dir = try Self.ratedCard("minRating\(minimum)")
        let cards = try Self.cards(["layout", dir, "--caption", "name", "--min-rating", String(minimum)])
        #expect(cards.compactMap { $0["title"] as? String } == kept)
    }

    /// Issue 37: `{camera}` was empty for a HEIC whose Exif item lies past its first 256 KiB
    /// (libheif writes it after the image's data) unless `--group-by camera` was given: the
    /// caption read the file again, a prefix of it. Now it shows what the probe read.
    @Test func aHEICsExifItemAtItsEndIsInTheCaption() throws {
        let path = CLI.temporaryDirectory() + "/IMG_0001.HEIC"
        let tiff = Self.tiff([(0x010F, .ascii("Apple")), (0x0110, .ascii("iPhone 15"))], exif: [(0x9003, .ascii("2024:03:14 09:26:53"))])
        // Noise does not compress: the image's data passes 256 KiB, the Exif item follows it.
        var random = SystemRandomNumberGenerator()
        let (width, height) = (1024, 768)
        let pixels = (0..<(width * height * 4)).map { $0 % 4 == 3 ? UInt8(255) : UInt8.random(in: 0...255, using: &random) }
        let result = tiff.withUnsafeBufferPointer { block in
            pixels.withUnsafeBufferPointer {
                mosaic_heif_encode_file(path, $0.baseAddress, Int32(width), Int32(height), 0, 90, 0, nil, 0, 0, 0, 0, 0, block.baseAddress, tiff.count)
            }
        }
        try #require(result.status == MOSAIC_OK)
        let bytes = [UInt8](try Data(contentsOf: URL(fileURLWithPath: path)))
        let exifAt = try #require(bytes.indices.first { bytes[$0..<min(bytes.count, $0 + 4)].elementsEqual([0x49, 0x49, 0x2A, 0x00]) })
        try #require(exifAt > 256 * 1024, "the Exif item is within the first 256 KiB (at \(exifAt))")
        let cards = try Self.cards(["layout", path, "--caption", "{camera}|{date}"])
        #expect(cards.first?["title"] as? String == "Apple iPhone 15|2024-03-14 09:26")
    }

    @Test func badValuesAreUsageErrors() throws {
        let dir = try Self.ratedCard()
        let high = try CLI.run(["layout", dir, "--min-rating", "6"])
        #expect(high.status == 64 && high.stderr.contains("--min-rating must be between 0 and 5 (stars), got 6"), "\(high.stderr)")
        let format = try CLI.run(["layout", dir, "--caption", "{date:%Q}"])
        #expect(format.status == 64 && format.stderr.contains("{date:%Q}: %Q is not a directive"), "\(format.stderr)")
        // No photo rated so high: an error that says why.
        let none = try CLI.run(["layout", dir + "/e.jpg", "--min-rating", "1"])
        #expect(none.status != 0 && none.stderr.contains("no photo is rated 1 or more (1 photo below it or unrated"), "\(none.stderr)")
    }
}
