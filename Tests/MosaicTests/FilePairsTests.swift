import Foundation
@testable import Mosaic
@testable import MosaicImage
import Testing

/// Pairs from a folder listing (issue 37): the files of one stem that make one photo are
/// one card, the still drawn, the others its companions.
@Suite struct FilePairsTests {
    typealias Card = (file: String, companions: [String])

    static func cards(_ files: [String]) -> [String] {
        FilePairs.group(files).map { card in
            ([card.file] + card.companions.map { "\($0.role.rawValue):\($0.file)" }).joined(separator: " ")
        }
    }

    @Test func rawAndStillAreOneCard() {
        #expect(Self.cards(["IMG_0001.CR2", "IMG_0001.JPG", "IMG_0002.NEF", "IMG_0003.jpg"])
            == ["IMG_0001.JPG raw:IMG_0001.CR2", "IMG_0002.NEF", "IMG_0003.jpg"])
        // A HEIC with a DNG (a phone's RAW + HEIF); the JPEG is chosen before the HEIC.
        #expect(Self.cards(["a.dng", "a.heic"]) == ["a.heic raw:a.dng"])
        #expect(Self.cards(["a.HEIC", "a.JPG", "a.ARW"]) == ["a.HEIC", "a.JPG raw:a.ARW"])
    }

    @Test func livePhotosKeepTheirClip() {
        #expect(Self.cards(["IMG_1.HEIC", "IMG_1.MOV", "IMG_2.MOV"]) == ["IMG_1.HEIC live:IMG_1.MOV", "IMG_2.MOV"])
        // A RAW, a still and a clip of one stem: one card with both marks' files.
        #expect(Self.cards(["x.dng", "x.jpg", "x.mov"]) == ["x.jpg raw:x.dng live:x.mov"])
    }

    @Test func goProCompanions() {
        #expect(Self.cards(["GOPR0001.LRV", "GOPR0001.MP4", "GOPR0001.THM"]) == ["GOPR0001.MP4 proxy:GOPR0001.LRV thumbnail:GOPR0001.THM"])
        #expect(Self.cards(["GL010001.LRV", "GX010001.MP4", "GX010001.THM"]) == ["GX010001.MP4 proxy:GL010001.LRV thumbnail:GX010001.THM"])
        #expect(Self.cards(["GL010002.LRV", "GH010002.MP4"]) == ["GH010002.MP4 proxy:GL010002.LRV"])
        // A proxy without its clip is drawn as what it is.
        #expect(Self.cards(["GL010003.LRV"]) == ["GL010003.LRV"])
    }

    /// Pairs stay in one folder: a subfolder's file of the same stem is its own card.
    @Test func pairsAreWithinAFolder() {
        #expect(Self.cards(["a.jpg", "raw/a.cr2", "raw/b.cr2", "raw/b.jpg"]) == ["a.jpg", "raw/a.cr2", "raw/b.jpg raw:raw/b.cr2"])
        // Stems are compared exactly, extensions in any case.
        #expect(Self.cards(["IMG.jpg", "img.CR2"]) == ["IMG.jpg", "img.CR2"])
    }

    @Test func motionPhotosAreFoundInXMPAndTrailers() {
        let xmp = Array(#"<rdf:Description GCamera:MotionPhoto="1" GCamera:MotionPhotoVersion="1"/>"#.utf8)[...]
        #expect(MotionPhoto(xmp: xmp) == .google)
        #expect(MotionPhoto(xmp: Array(#"<GCamera:MicroVideo>1</GCamera:MicroVideo>"#.utf8)[...]) == .google)
        #expect(MotionPhoto(xmp: Array(#"GCamera:MotionPhoto="0""#.utf8)[...]) == nil)
        #expect(MotionPhoto.samsungTrailer(Array("....MotionPhoto_Data....\u{0}\u{0}\u{0}\u{8}SEFT".utf8)[...]))
        #expect(!MotionPhoto.samsungTrailer(Array("....MotionPhoto_Data....".utf8)[...]))
        #expect(MotionPhoto.namesSamsung(Array("xxSAMSUNGxx".utf8)[...]) && MotionPhoto.namesSamsung(Array("samsung".utf8)[...]))
        #expect(!MotionPhoto.namesSamsung(Array("xxSAMSUNxx".utf8)[...]))
        #expect(FilePairs.fileExtension("a/b.c/IMG.JPG") == "jpg" && FilePairs.fileExtension("a.b/c") == "" && FilePairs.fileExtension("d/.hidden") == "")
    }
}
