/// Punctuation a word too long for its line is not broken next to: closing punctuation
/// stays with what precedes it, opening with what follows (ICU decides every other break).
enum LineBreaking {
    /// Characters a line may not start with.
    static let closingCharacters = "，。、！？；：）」』】》〉〕］｝”’,.;:!?)]}%·…—"
    /// Characters a line may not end with.
    static let openingCharacters = "（「『【《〈〔［｛“‘([{"

    /// ASCII classes by code: 1 closing, 2 opening (a table: this runs per character).
    static let asciiClass: [UInt8] = {
        var table = [UInt8](repeating: 0, count: 128)
        for s in closingCharacters.unicodeScalars where s.value < 128 { table[Int(s.value)] = 1 }
        for s in openingCharacters.unicodeScalars where s.value < 128 { table[Int(s.value)] = 2 }
        return table
    }()
    static let wideClosing: [UInt32] = closingCharacters.unicodeScalars.map(\.value).filter { $0 >= 128 }.sorted()
    static let wideOpening: [UInt32] = openingCharacters.unicodeScalars.map(\.value).filter { $0 >= 128 }.sorted()

    @inline(__always)
    static func isClosing(_ v: UInt32) -> Bool {
        if v < 128 { return asciiClass[Int(v)] == 1 }
        return v >= 0xB7 && wideClosing.contains(v)
    }

    @inline(__always)
    static func isOpening(_ v: UInt32) -> Bool {
        if v < 128 { return asciiClass[Int(v)] == 2 }
        return v >= 0x2018 && wideOpening.contains(v)
    }
}
