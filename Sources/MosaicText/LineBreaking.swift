/// Where lines may break: at spaces, after hyphens, between CJK characters; never before
/// closing punctuation nor after opening punctuation.
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

    @inline(__always)
    static func isSpace(_ v: UInt32) -> Bool {
        v == 0x20 || v == 0x09 || v == 0x3000  // not U+00A0: a no-break space
    }

    /// Ideographs, kana, hangul and the CJK symbol blocks: each is a word of its own.
    @inline(__always)
    static func isCJK(_ v: UInt32) -> Bool {
        switch v {
        case 0x2E80...0x2FDF,  // radicals
            0x3000...0x303F,  // CJK symbols and punctuation
            0x3040...0x30FF,  // hiragana, katakana
            0x3100...0x312F, 0x3130...0x318F,  // bopomofo, hangul compatibility jamo
            0x31F0...0x31FF,  // katakana extensions
            0x3400...0x4DBF,  // extension A
            0x4E00...0x9FFF,  // unified ideographs
            0xAC00...0xD7AF,  // hangul syllables
            0xF900...0xFAFF,  // compatibility ideographs
            0xFF00...0xFFEF,  // halfwidth and fullwidth forms
            0x20000...0x2FFFF:  // supplementary ideographs
            return true
        default:
            return false
        }
    }

    static func isHyphen(_ v: UInt32) -> Bool { v == 0x2D || v == 0x2010 || v == 0x2013 }

    /// Whether a line may break between `a` and `b` (b starting the next line). `beforeA`
    /// is the character before `a` (0 at the start).
    @inline(__always)
    static func canBreak(between a: UInt32, and b: UInt32, beforeA: UInt32) -> Bool {
        if isClosing(b) || isOpening(a) { return false }
        if isSpace(b) { return false }  // spaces stay on the line they follow
        if isSpace(a) { return true }
        if isHyphen(a) { return beforeA != 0 && !isSpace(beforeA) && !isHyphen(b) }
        return isCJK(a) || isCJK(b)
    }
}
