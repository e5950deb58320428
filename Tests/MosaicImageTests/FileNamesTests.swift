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
