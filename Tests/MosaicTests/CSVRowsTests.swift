@testable import Mosaic
import MosaicTestSupport
import Testing

/// The manifest's CSV reader works on bytes; these cases hold it to what reading the
/// same text a `Character` at a time gave (the reader it replaced), on every delimiter
/// in every position.
@Suite struct CSVRowsTests {
    @Test func bytesParseAsCharactersDid() {
        // No combining mark after a delimiter: there the two readings differ by design
        // (a `Character` would fold the mark into the comma or the quote).
        let pieces = ["a", "é", "漢", "😀", ",", "\"", "\"\"", "\n", "\r", "\r\n", " ", "x,y"]
        var generator = SeededGenerator(seed: 0x5EED)
        var cases = 0
        for _ in 0..<20_000 {
            var text = ""
            for _ in 0..<Int(generator.next() % 12) { text += pieces[Int(generator.next() % UInt64(pieces.count))] }
            let expected = characterRows(text)
            switch (Catalog.csvRows(text), expected) {
            case (.success(let rows), .success(let want)): #expect(rows == want, "\(text.debugDescription)")
            case (.failure(let error), .failure(let want)): #expect(error.line == want.line, "\(text.debugDescription)")
            default: Issue.record("\(text.debugDescription): one reader failed, the other did not")
            }
            cases += 1
        }
        #expect(cases == 20_000)
    }

    @Test func aRowOfQuotedFieldsWithEveryEscape() throws {
        let rows = try Catalog.csvRows("path,title\r\n\"a,b.jpg\",\"He said \"\"hi\"\"\r\nthen left\"\nc.png,\n").get()
        #expect(rows == [["path", "title"], ["a,b.jpg", "He said \"hi\"\r\nthen left"], ["c.png", ""]])
    }

    /// The reader before: a `Character` at a time.
    func characterRows(_ text: String) -> Result<[[String]], Catalog.UnterminatedQuote> {
        var rows: [[String]] = []
        var row: [String] = []
        var field = ""
        var quoted = false
        var line = 1
        var quoteLine = 0
        var iterator = text.makeIterator()
        var pending: Character? = nil
        while let c = pending ?? iterator.next() {
            pending = nil
            if quoted {
                if c == "\"" {
                    if let next = iterator.next() {
                        if next == "\"" { field.append("\"") } else { quoted = false; pending = next }
                    } else {
                        quoted = false
                    }
                } else {
                    if c == "\n" || c == "\r\n" || c == "\r" { line += 1 }
                    field.append(c)
                }
            } else if c == "\"" && field.isEmpty {
                quoted = true
                quoteLine = line
            } else if c == "," {
                row.append(field)
                field = ""
            } else if c == "\n" || c == "\r\n" || c == "\r" {
                row.append(field)
                rows.append(row)
                row = []
                field = ""
                line += 1
            } else {
                field.append(c)
            }
        }
        if quoted { return .failure(Catalog.UnterminatedQuote(line: quoteLine)) }
        if !field.isEmpty || !row.isEmpty {
            row.append(field)
            rows.append(row)
        }
        return .success(rows)
    }
}
