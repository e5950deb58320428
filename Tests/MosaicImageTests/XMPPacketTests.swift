@testable import MosaicImage
import Testing

/// The rating, title and description of XMP packets as Lightroom, darktable, digiKam and
/// phones write them (issue 37).
@Suite struct XMPPacketTests {
    static let lightroom = """
        <x:xmpmeta xmlns:x="adobe:ns:meta/" x:xmptk="Adobe XMP Core 7.0">
         <rdf:RDF xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#">
          <rdf:Description rdf:about=""
            xmlns:xmp="http://ns.adobe.com/xap/1.0/"
            xmlns:dc="http://purl.org/dc/elements/1.1/"
           xmp:Rating="4"
           xmp:Label="Red">
           <dc:title>
            <rdf:Alt>
             <rdf:li xml:lang="fr-FR">Le port</rdf:li>
             <rdf:li xml:lang="x-default">The harbour &amp; the boats</rdf:li>
            </rdf:Alt>
           </dc:title>
           <dc:description><rdf:Alt><rdf:li xml:lang="x-default">Morning, &#x263C; &#233;t&#233;</rdf:li></rdf:Alt></dc:description>
          </rdf:Description>
         </rdf:RDF>
        </x:xmpmeta>
        """

    @Test func lightroomSidecar() {
        let fields = XMPPacket.fields(Array(Self.lightroom.utf8)[...])
        #expect(fields.rating == 4)
        #expect(fields.title == "The harbour & the boats")
        #expect(fields.description == "Morning, ☼ été")
    }

    /// darktable writes the rating as an element, digiKam's older files `xap:`; a rejected
    /// photo is -1; Microsoft's 0-99 "Rating" is not XMP's.
    @Test(arguments: [
        ("<xmp:Rating>5</xmp:Rating>", 5), ("<rdf:Description xap:Rating='2'/>", 2), (" xmp:Rating=\"-1\"", -1),
        (" MicrosoftPhoto:Rating=\"75\"", nil), (" xmp:Rating=\"9\"", nil), ("<xmp:RatingX>3</xmp:RatingX>", nil),
    ] as [(String, Int?)])
    func ratings(_ packet: String, _ rating: Int?) {
        #expect(XMPPacket.fields(Array(packet.utf8)[...]).rating == rating)
    }

    @Test func nothingKnownIsNoValue() {
        #expect(XMPPacket.fields(Array("<x:xmpmeta><dc:title/></x:xmpmeta>".utf8)[...]).isEmpty)
        #expect(XMPPacket.fields(Array("garbage &#xFFFFFFFF; <dc:title>".utf8)[...]).isEmpty)
        #expect(XMPPacket.fields([][...]).isEmpty)
        // A title without a language list, entities that are not ones kept as written.
        #expect(XMPPacket.fields(Array("<dc:title> A &bogus; &#1114112; </dc:title>".utf8)[...]).title == "A &bogus; &#1114112;")
    }

    /// Seeded mutations of a real packet (bytes replaced, cut, repeated): the reader gives
    /// what it can and never traps (a rating always within -1...5).
    @Test func mutatedPacketsNeverTrap() {
        // Knuth's MMIX linear congruential generator, seeded: the same cases everywhere.
        var state: UInt64 = 37
        func below(_ n: Int) -> Int {
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            return Int(state >> 33) % n
        }
        let packet = Array(Self.lightroom.utf8)
        let alphabet = Array("<>/=\"' &#;:x".utf8)
        for _ in 0..<2_000 {
            var bytes = packet
            for _ in 0...below(8) {
                let at = below(bytes.count)
                switch below(3) {
                case 0: bytes[at] = alphabet[below(alphabet.count)]
                case 1: bytes.removeSubrange(at..<min(bytes.count, at + 1 + below(40)))
                default: bytes.insert(contentsOf: bytes[at..<min(bytes.count, at + 20)], at: at)
                }
                if bytes.isEmpty { bytes = [0x3C] }
            }
            let fields = XMPPacket.fields(bytes[...])
            #expect(fields.rating.map { (-1...5).contains($0) } ?? true)
        }
    }
}
