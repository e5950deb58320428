import Foundation

/// `mosaic diff --junit FILE`: one test case per pair.
extension DiffReport {
    /// `text` as XML 1.0 attribute or element text: the markup characters as entities, and
    /// the characters XML 1.0 cannot hold at all (control characters but tab, newline and
    /// carriage return; U+FFFE, U+FFFF) written as `\u{1B}` so that the file stays valid
    /// and the name readable.
    static func xmlAttribute(_ text: String) -> String {
        var out = ""
        for scalar in FileNames.display(text).unicodeScalars {
            switch scalar {
            case "&": out += "&amp;"
            case "<": out += "&lt;"
            case ">": out += "&gt;"
            case "\"": out += "&quot;"
            case "\t", "\n", "\r": out += "&#\(scalar.value);"
            case "\u{0}"..."\u{1F}", "\u{FFFE}", "\u{FFFF}": out += "\\u{" + String(scalar.value, radix: 16, uppercase: true) + "}"
            default: out.unicodeScalars.append(scalar)
            }
        }
        return out
    }

    /// A JUnit XML report: one test case per pair, a failure for each changed, added or
    /// removed one, an error for each that could not be read.
    public func junit() -> String {
        let escape = Self.xmlAttribute
        let results = comparison.results
        let errors = results.filter { $0.status == .failed }.count
        let failures = results.filter { !($0.status == .unchanged || $0.status == .withinTolerance) }.count - errors
        var xml = "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
        xml += "<testsuites tests=\"\(results.count)\" failures=\"\(failures)\" errors=\"\(errors)\">\n"
        xml += "  <testsuite name=\"mosaic diff\" tests=\"\(results.count)\" failures=\"\(failures)\" errors=\"\(errors)\">\n"
        for r in results {
            xml += "    <testcase classname=\"mosaic.diff\" name=\"\(escape(r.relativePath))\""
            switch r.status {
            case .unchanged: xml += "/>\n"
            case .withinTolerance: xml += ">\n      <system-out>\(escape("within tolerance: " + figures(r)))</system-out>\n    </testcase>\n"
            case .changed:
                xml += ">\n      <failure message=\"\(escape("changed: " + figures(r)))\"/>\n    </testcase>\n"
            case .added: xml += ">\n      <failure message=\"added: no baseline\"/>\n    </testcase>\n"
            case .removed: xml += ">\n      <failure message=\"removed: no current image\"/>\n    </testcase>\n"
            case .failed:
                xml += ">\n      <error message=\"\(escape(r.error?.description ?? "cannot read"))\"/>\n    </testcase>\n"
            }
        }
        xml += "  </testsuite>\n</testsuites>\n"
        return xml
    }
}
