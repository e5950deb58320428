import Foundation
@testable import Mosaic
import Testing

/// The image maps' writer: strings escaped as JSON requires, numbers as Swift prints them.
@Suite struct JSONStreamTests {
    @Test func stringsAndNumbersReadBackAsWritten() throws {
        let strings = ["", "plain.jpg", "a\"b\\c", "tab\tnew\nline\r", "\u{1}\u{1F}\u{7F}", "café 漢字 😀", "\"", "\\\\", "end\u{0}"]
        let numbers = [0, 7, -1, 10, 1_000_000, Int.max, Int.min]
        let stream = JSONStream()
        try stream.write("{\"s\":[")
        for (i, text) in strings.enumerated() {
            if i > 0 { try stream.write(",") }
            try stream.write(string: text)
        }
        try stream.write("],\"n\":[")
        for (i, number) in numbers.enumerated() {
            if i > 0 { try stream.write(",") }
            try stream.write(number)
        }
        try stream.write("]}")
        try stream.flush()
        let text = String(decoding: stream.data, as: UTF8.self)
        #expect(text.contains("\"a\\\"b\\\\c\"") && text.contains("\\u0001\\u001f") && text.contains("\"end\\u0000\""))
        #expect(text.contains("[0,7,-1,10,1000000,9223372036854775807,-9223372036854775808]"))
        struct Both: Decodable { var s: [String]; var n: [Int] }
        let back = try JSONDecoder().decode(Both.self, from: stream.data)
        #expect(back.s == strings)
        #expect(back.n == numbers)
    }
}
