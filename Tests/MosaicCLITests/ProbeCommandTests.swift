import Foundation
import Testing

@Suite struct ProbeCommandTests {
    @Test func aLinePerFile() throws {
        let result = try CLI.run(["probe", CLI.sampleImages + "/astronaut-portrait-exif6.jpg", CLI.sampleImages + "/horse.png"])
        #expect(result.status == 0)
        #expect(result.stderr == "")
        #expect(result.stdout == """
            \(CLI.sampleImages)/astronaut-portrait-exif6.jpg: JPEG 512x300, ycbcr, orientation 6 (rotate 90 CW), displayed 300x512
            \(CLI.sampleImages)/horse.png: PNG 400x328, rgba, alpha, orientation 1 (normal)

            """)
    }

    /// The format is named as its codec names it ("WebP", "JPEG XL"), not by its
    /// identifier uppercased ("WEBP", "JXL").
    @Test func theFormatIsNamedAsItsCodecNamesIt() throws {
        let dir = CLI.temporaryDirectory()
        for name in ["s.webp", "s.jxl"] {
            let render = try CLI.run(["render", CLI.sampleImages + "/horse.png", "-o", dir + "/" + name, "--width", "200", "--columns", "1"])
            #expect(render.status == 0, "\(render.stderr)")
        }
        let result = try CLI.run(["probe", dir + "/s.webp", dir + "/s.jxl"])
        let lines = result.stdout.split(separator: "\n")
        #expect(lines.count == 2)
        #expect(lines.first?.hasPrefix("\(dir)/s.webp: WebP 200x") == true)
        #expect(lines.last?.hasPrefix("\(dir)/s.jxl: JPEG XL 200x") == true)
    }

    @Test func json() throws {
        let result = try CLI.run(["probe", "--json", CLI.sampleImages + "/hubble-deep-field.jpg"])
        #expect(result.status == 0)
        let entries = try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as! [[String: Any]]
        #expect(entries.count == 1)
        #expect(entries[0]["format"] as? String == "jpeg")
        #expect(entries[0]["width"] as? Int == 1000 && entries[0]["height"] as? Int == 872)
        #expect(entries[0]["progressive"] as? Bool == true)
        #expect(entries[0]["orientation"] as? Int == 1)
    }

    /// The colour a file declares is named (before: not shown at all).
    @Test func theColourProfileIsNamed() throws {
        let dir = CLI.temporaryDirectory()
        var bytes = [UInt8](try Data(contentsOf: URL(fileURLWithPath: CLI.sampleImages + "/horse.png")))
        func chunk(_ type: String, _ data: [UInt8]) -> [UInt8] {
            let body = Array(type.utf8) + data
            var crc: UInt32 = 0xFFFF_FFFF
            for byte in body {
                crc ^= UInt32(byte)
                for _ in 0..<8 { crc = crc & 1 != 0 ? (crc >> 1) ^ 0xEDB8_8320 : crc >> 1 }
            }
            crc ^= 0xFFFF_FFFF
            func be(_ v: UInt32) -> [UInt8] { [24, 16, 8, 0].map { UInt8((v >> UInt32($0)) & 0xFF) } }
            return be(UInt32(data.count)) + body + be(crc)
        }
        bytes.insert(contentsOf: chunk("cICP", [12, 13, 0, 1]), at: 33)
        try Data(bytes).write(to: URL(fileURLWithPath: dir + "/p3.png"))
        let result = try CLI.run(["probe", dir + "/p3.png"])
        #expect(result.stdout == "\(dir)/p3.png: PNG 400x328, rgba, alpha, orientation 1 (normal), Display P3 primaries, sRGB curve\n")
        let json = try CLI.run(["probe", "--json", dir + "/p3.png"])
        #expect(json.stdout.contains("\"colorProfile\" : \"Display P3 primaries, sRGB curve\""))
    }

    @Test func failuresAreReportedAndExitOne() throws {
        let dir = CLI.temporaryDirectory()
        _ = FileManager.default.createFile(atPath: dir + "/notes.txt", contents: Data("hello".utf8))
        let result = try CLI.run(["probe", CLI.sampleImages + "/coins.png", dir + "/notes.txt", dir + "/missing.jpg"])
        #expect(result.status == 1)
        #expect(result.stdout.hasPrefix(CLI.sampleImages + "/coins.png: PNG 384x303"))
        #expect(result.stderr == """
            error: \(dir)/notes.txt: not a RAW, JPEG, PNG, WebP, GIF, HEIF, AVIF, TIFF, JPEG XL or video file
            error: \(dir)/missing.jpg: cannot read: No such file or directory

            """)
        let json = try CLI.run(["probe", "--json", dir + "/missing.jpg"])
        #expect(json.status == 1)
        #expect(json.stdout.contains("\"error\" : \"\(dir)/missing.jpg: cannot read: No such file or directory\""))
    }

    @Test func usageErrorExits64() throws {
        let result = try CLI.run(["probe"])
        #expect(result.status == 64)
        #expect(result.stderr.contains("Missing expected argument '<files> ...'"))
        #expect(result.stderr.contains("Usage: mosaic probe"))
    }
}
