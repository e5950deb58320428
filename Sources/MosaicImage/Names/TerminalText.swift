/// Text for a terminal: the one escaping every message mosaic prints goes through
/// (warnings, summaries, errors, progress), so that a file name cannot move the cursor,
/// change colours or the window title (ESC, CSI, OSC), ring the bell, overwrite its own
/// line (CR) or reorder what follows it (bidi controls). Shown visibly instead:
/// - C0 controls (U+0000-U+001F, tab and newline included) and DEL as `\x1b`, `\x7f`;
/// - C1 controls (U+0080-U+009F) and the bidirectional controls (U+061C, U+200E, U+200F,
///   U+202A-U+202E, U+2066-U+2069) as `\u{9B}`, `\u{202E}`;
/// - bytes of a name that are not valid UTF-8 as U+FFFD (`FileNames.display`).
/// Everything else, including a backslash, passes unchanged.
public enum TerminalText {
    /// `text` safe to write to a terminal as one line.
    public static func escaped(_ text: String) -> String {
        var out = String.UnicodeScalarView()
        for scalar in FileNames.display(text).unicodeScalars {
            let value = scalar.value
            if value < 0x20 || value == 0x7F {
                out.append(contentsOf: "\\x".unicodeScalars)
                out.append(contentsOf: ((value < 0x10 ? "0" : "") + String(value, radix: 16)).unicodeScalars)
            } else if (0x80...0x9F).contains(value) || isBidiControl(value) {
                out.append(contentsOf: "\\u{".unicodeScalars)
                out.append(contentsOf: String(value, radix: 16, uppercase: true).unicodeScalars)
                out.append("}")
            } else {
                out.append(scalar)
            }
        }
        return String(out)
    }

    /// True for the controls that change the order text is shown in.
    static func isBidiControl(_ value: UInt32) -> Bool {
        value == 0x061C || value == 0x200E || value == 0x200F || (0x202A...0x202E).contains(value) || (0x2066...0x2069).contains(value)
    }
}
