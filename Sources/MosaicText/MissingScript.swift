import CHarfBuzz

/// Characters no font had, grouped by script, with the Debian package whose fonts cover
/// the script: what the "no font has these characters" warning says.
public struct MissingScript: Hashable, Sendable, CustomStringConvertible {
    /// The script's name ("Ethiopic", "Emoji"), its ISO 15924 code when it has no name
    /// here, or "private use".
    public var script: String
    /// The Debian package that covers it; nil for private-use characters.
    public var package: String?
    public var characters: [Unicode.Scalar]

    /// "Ethiopic U+1200 U+1201 (Debian: fonts-noto-core)".
    public var description: String {
        let list = characters.map { "U+" + String($0.value, radix: 16, uppercase: true) }.joined(separator: " ")
        return "\(script) \(list)" + (package.map { " (Debian: \($0))" } ?? "")
    }

    /// `characters` grouped by script, in the order of each script's first character.
    public static func grouping(_ characters: [Unicode.Scalar]) -> [MissingScript] {
        var groups: [MissingScript] = []
        let funcs = hb_unicode_funcs_get_default()
        for scalar in characters {
            let v = scalar.value
            let script: String, package: String?
            if (0xE000...0xF8FF).contains(v) || v >= 0xF0000 {
                (script, package) = ("private use", nil)
            } else if scalar.properties.isEmoji && v > 0xFF {
                (script, package) = ("Emoji", "fonts-noto-color-emoji")
            } else {
                let tag = hb_script_to_iso15924_tag(hb_unicode_script(funcs, v))
                let code = String(String.UnicodeScalarView([24, 16, 8, 0].compactMap { Unicode.Scalar((tag >> $0) & 0xFF) }))
                script = names[code] ?? code
                // fonts-noto-core has a face for nearly every other script.
                package = ["Hani", "Hira", "Kana", "Hang", "Bopo"].contains(code) ? "fonts-noto-cjk" : "fonts-noto-core"
            }
            if let i = groups.firstIndex(where: { $0.script == script }) {
                groups[i].characters.append(scalar)
            } else {
                groups.append(MissingScript(script: script, package: package, characters: [scalar]))
            }
        }
        return groups
    }

    static let names: [String: String] = [
        "Arab": "Arabic", "Armn": "Armenian", "Beng": "Bengali", "Bopo": "Bopomofo", "Cher": "Cherokee", "Cyrl": "Cyrillic",
        "Deva": "Devanagari", "Ethi": "Ethiopic", "Geor": "Georgian", "Grek": "Greek", "Gujr": "Gujarati", "Guru": "Gurmukhi",
        "Hang": "Hangul", "Hani": "Han", "Hebr": "Hebrew", "Hira": "Hiragana", "Kana": "Katakana", "Khmr": "Khmer", "Knda": "Kannada",
        "Laoo": "Lao", "Latn": "Latin", "Mlym": "Malayalam", "Mong": "Mongolian", "Mymr": "Myanmar", "Orya": "Oriya", "Sinh": "Sinhala",
        "Syrc": "Syriac", "Taml": "Tamil", "Telu": "Telugu", "Thaa": "Thaana", "Thai": "Thai", "Tibt": "Tibetan", "Tfng": "Tifinagh",
        "Zyyy": "Common", "Zinh": "Inherited", "Zzzz": "Unknown",
    ]
}
