import Foundation
import Testing

@testable import Mosaic

@Suite struct PageSinkTests {
    static func folder(_ name: String = #function) -> String {
        let path = NSTemporaryDirectory() + "mosaic-sink-\(getpid())-\(name.filter(\.isLetter))-\(UUID().uuidString.prefix(6))"
        try! FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
        return path
    }

    @Test func theMemorySinkKeepsCommittedPagesOnly() throws {
        let sink = MemorySink()
        try sink.beginPage(0, of: 1, size: Size(width: 3, height: 4), hasAlpha: false)
        try sink.write(band: Bitmap(width: 3, height: 2, fill: .white))
        #expect(throws: ImageEncodingError.rowMismatch(path: "memory", message: "a band of 2x2 does not fit the page at row 2")) {
            try sink.write(band: Bitmap(width: 2, height: 2))
        }
        try sink.write(band: Bitmap(width: 3, height: 2, fill: .black))
        try sink.endPage()
        #expect(sink.pages.isEmpty)
        try sink.commit()
        #expect(sink.pages.count == 1)
        #expect(sink.pages[0][2, 1] == .white && sink.pages[0][2, 3] == .black)
        try sink.beginPage(0, of: 1, size: Size(width: 1, height: 1), hasAlpha: false)
        sink.abandon()
        #expect(sink.pages.count == 1)
    }

    /// Pages appear together on commit; abandoning leaves the previous files and no
    /// temporary file.
    @Test func thePNGSinkWritesEveryPageOrNone() throws {
        let dir = Self.folder()
        try Data("previous".utf8).write(to: URL(fileURLWithPath: dir + "/s-1.png"))
        let sink = PNGSink(destination: dir + "/s.png")
        for page in 0..<2 {
            try sink.beginPage(page, of: 2, size: Size(width: 4, height: 4), hasAlpha: false)
            try sink.write(band: Bitmap(width: 4, height: 4, fill: .white))
            try sink.endPage()
        }
        #expect(sink.files == [dir + "/s-1.png", dir + "/s-2.png"])
        sink.abandon()
        #expect(try FileManager.default.contentsOfDirectory(atPath: dir) == ["s-1.png"])
        #expect(FileManager.default.contents(atPath: dir + "/s-1.png") == Data("previous".utf8))

        let second = PNGSink(destination: dir + "/s.png")
        for page in 0..<2 {
            try second.beginPage(page, of: 2, size: Size(width: 4, height: 4), hasAlpha: false)
            try second.write(band: Bitmap(width: 4, height: 4, fill: .white))
            try second.endPage()
        }
        #expect(try FileManager.default.contentsOfDirectory(atPath: dir).filter { !$0.hasPrefix(".") } == ["s-1.png"])
        try second.commit()
        #expect(try FileManager.default.contentsOfDirectory(atPath: dir).sorted() == ["s-1.png", "s-2.png"])
        #expect(try ImageDecoder().probe(dir + "/s-2.png").size == Size(width: 4, height: 4))
    }
}
