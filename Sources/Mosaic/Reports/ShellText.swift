/// Words for a POSIX shell: the command the diff report offers to approve baselines
/// (`mosaic diff 'BASE' 'CUR' --accept-only 'a.png'`), exact whatever a name holds.
public enum ShellText {
    /// `path` as one shell word: single-quoted (a quote inside written `'\''`), and each
    /// run of bytes that are not UTF-8 (`FileNames`) as `"$(printf '\351')"`, octal
    /// escapes that POSIX `printf` reads, so that the word is the name's very bytes while
    /// the command stays UTF-8 text. Newlines and other controls need nothing: inside
    /// single quotes every byte but the quote is itself.
    public static func quoted(_ path: String) -> String {
        var out = ""
        var text = "", raw: [UInt8] = []
        func flushText() {
            guard !text.isEmpty else { return }
            out += "'" + text + "'"
            text = ""
        }
        func flushRaw() {
            guard !raw.isEmpty else { return }
            out += "\"$(printf '" + raw.map { "\\" + String($0, radix: 8) }.joined() + "')\""
            raw = []
        }
        for scalar in path.unicodeScalars {
            let piece = String(scalar)
            if FileNames.isValidUTF8(piece) {
                flushRaw()
                // Scalar by scalar: a quote followed by a combining mark is one Character.
                if scalar == "'" { text.unicodeScalars.append(contentsOf: "'\\''".unicodeScalars) } else { text.unicodeScalars.append(scalar) }
            } else {
                flushText()
                raw += FileNames.bytes(of: piece)
            }
        }
        flushText()
        flushRaw()
        return out.isEmpty ? "''" : out
    }
}
