/// What of a text is set: at most `maximumMarksPerCharacter` combining marks on one
/// character (every text), and, for a text of a limited number of lines (a caption's
/// title or description, a section header or footer, a sheet's title:
/// `TextStyle.maximumLines`), at most `maximumScalars` Unicode scalars. The rest is dropped
/// before shaping (`Typesetter.layout` applies it), so that setting a text costs time linear
/// in its length: HarfBuzz places each mark against the marks before it on the same
/// character (a letter with 50,000 marks took 7 s, and 75,000 aborted inside HarfBuzz 6.0).
public enum TextLimits {
    /// Scalars kept of one text: far more than the lines a caption, header or title shows
    /// (a 16,000 px header of two lines holds about 4,000 characters at the smallest size).
    public static let maximumScalars = 4_096
    /// Combining marks kept on one character: 30, the limit of Unicode's Stream-Safe Text
    /// Format (UAX #15), which no orthography reaches.
    public static let maximumMarksPerCharacter = 30

    /// What was dropped from a text.
    public struct Cut: Hashable, Sendable, CustomStringConvertible {
        /// The text's length, in Unicode scalars.
        public var scalars: Int
        /// The most combining marks on one of its characters.
        public var mostMarks: Int

        public init(scalars: Int, mostMarks: Int) {
            self.scalars = scalars
            self.mostMarks = mostMarks
        }

        /// "75,001 characters, 75,000 marks on one: set as its first 4,096 characters with
        /// at most 30 marks on each".
        public var description: String {
            var held: [String] = []
            if scalars > TextLimits.maximumScalars { held.append("\(Self.grouped(scalars)) characters") }
            if mostMarks > TextLimits.maximumMarksPerCharacter { held.append("\(Self.grouped(mostMarks)) combining marks on one character") }
            return "it has \(held.joined(separator: " and ")): set with at most \(Self.grouped(TextLimits.maximumScalars)) characters "
                + "and \(TextLimits.maximumMarksPerCharacter) marks on each"
        }

        static func grouped(_ value: Int) -> String {
            var digits = String(value), out = ""
            while digits.count > 3 {
                out = "," + digits.suffix(3) + out
                digits.removeLast(3)
            }
            return digits + out
        }
    }

    /// Whether `scalar` is a combining mark (general category Mn, Mc or Me): it sits on the
    /// character before it.
    static func isMark(_ scalar: UInt32) -> Bool {
        // No mark lies below U+0300 (combining grave accent).
        guard scalar >= 0x300, let value = Unicode.Scalar(scalar) else { return false }
        switch value.properties.generalCategory {
        case .nonspacingMark, .spacingMark, .enclosingMark: return true
        default: return false
        }
    }

    /// What `text` holds beyond the limits; nil when it is within them. Linear in its
    /// length; plain ASCII of at most `maximumScalars` bytes answers at once.
    public static func cut(of text: String) -> Cut? {
        let utf8 = text.utf8
        if utf8.count <= maximumScalars, !utf8.contains(where: { $0 >= 0x80 }) { return nil }
        var scalars = 0, run = 0, most = 0
        for scalar in text.unicodeScalars {
            scalars += 1
            if isMark(scalar.value) {
                run += 1
                most = max(most, run)
            } else {
                run = 0
            }
        }
        guard scalars > maximumScalars || most > maximumMarksPerCharacter else { return nil }
        return Cut(scalars: scalars, mostMarks: most)
    }

    /// `scalars` within the limits: the marks past `maximumMarksPerCharacter` on a
    /// character dropped, then the first `length` kept (`maximumScalars`; `Int.max` for a
    /// text of unlimited lines). Linear.
    static func capped(_ scalars: [UInt32], length limit: Int = maximumScalars) -> [UInt32] {
        guard scalars.count > maximumMarksPerCharacter else { return scalars }
        var kept: [UInt32] = []
        var run = 0, changed = false
        for (i, scalar) in scalars.enumerated() {
            if isMark(scalar) {
                run += 1
                if run > maximumMarksPerCharacter {
                    if !changed {
                        kept = Array(scalars[..<i])
                        kept.reserveCapacity(min(scalars.count, limit))
                        changed = true
                    }
                    continue
                }
            } else {
                run = 0
            }
            if changed {
                if kept.count >= limit { break }
                kept.append(scalar)
            } else if i >= limit {
                return Array(scalars[..<limit])
            }
        }
        return changed ? kept : scalars
    }
}
