import MosaicImage
import Testing

@Suite struct FileNamesTests {
    /// Any bytes come back as they were; valid UTF-8 is an ordinary string.
    @Test func namesRoundTrip() {
        #expect(FileNames.string(fromBytes: Array("café 照片.jpg".utf8)) == "café 照片.jpg")
        let latin1: [UInt8] = [0x63, 0x61, 0x66, 0xE9, 0x2E, 0x70, 0x6E, 0x67]
        let escaped = FileNames.string(fromBytes: latin1)
        #expect(FileNames.bytes(of: escaped) == latin1)
        #expect(FileNames.display(escaped) == "caf\u{FFFD}.png")
        // Valid UTF-8 is the string itself (emoji included), except a scalar of the escapes'
        // range, whose bytes are escaped one by one and come back the same.
        #expect(FileNames.string(fromBytes: Array("🐈 cat.png".utf8)) == "🐈 cat.png")
        let escapeRange: [UInt8] = [0x61, 0xF4, 0x8F, 0xBD, 0x81, 0x62]
        #expect(FileNames.string(fromBytes: escapeRange).unicodeScalars.count == 6)
        #expect(FileNames.bytes(of: FileNames.string(fromBytes: escapeRange)) == escapeRange)
        let planeSixteen: [UInt8] = [0xF4, 0x80, 0x80, 0x80]
        #expect(FileNames.string(fromBytes: planeSixteen) == "\u{100000}")
        var state: UInt64 = 7
        for _ in 0..<2_000 {
            let bytes = (0..<Int(state % 24)).map { _ -> UInt8 in
                state = state &* 6364136223846793005 &+ 1442695040888963407
                return UInt8(truncatingIfNeeded: state >> 56)
            }
            #expect(FileNames.bytes(of: FileNames.string(fromBytes: bytes)) == bytes)
        }
    }
}
