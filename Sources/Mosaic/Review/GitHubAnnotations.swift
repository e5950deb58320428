/// With `GITHUB_ACTIONS=true`, `mosaic diff` also prints each failing pair as a GitHub
/// Actions workflow command (`::error file=PATH,title=TITLE::MESSAGE`), which the run's
/// page shows as an annotation. Values are escaped as the runner reads them: in the
/// message `%`, CR and LF as `%25`, `%0D`, `%0A`; in a property also `:` and `,` as `%3A`
/// and `%2C`. Names are shown as people read them (`FileNames.display`).
public enum GitHubAnnotations {
    /// True when the environment says the run is a GitHub Actions job.
    public static func enabled(in environment: [String: String]) -> Bool {
        environment["GITHUB_ACTIONS"] == "true"
    }

    /// One `::error` line (without its newline) per failing pair of `report`: changed
    /// worst first, failed, added, removed. `file` is the current image (the baseline for a
    /// removed pair) as the run named it.
    public static func lines(_ report: DiffReport) -> [String] {
        let c = report.comparison
        return (report.changedBySeverity + c.failed + c.added + c.removed).map { r in
            let file = r.currentPath ?? r.baselinePath ?? r.relativePath
            let what: String
            switch r.status {
            case .added: what = "added (no baseline)"
            case .removed: what = "removed (no current image)"
            case .failed: what = "could not be read: " + (r.error?.description ?? "")
            default: what = "changed: " + report.figures(r)
            }
            let message = FileNames.display(r.relativePath) + " " + what
            return "::error file=\(property(FileNames.display(file))),title=\(property("mosaic diff: " + r.status.rawValue))::\(data(message))"
        }
    }

    /// A command's message: `%`, CR, LF escaped (scalar by scalar: "\r\n" is one Swift
    /// character).
    public static func data(_ text: String) -> String {
        escaped(text, also: [])
    }

    /// A command's property value: as `data`, and `:` and `,` escaped too.
    public static func property(_ text: String) -> String {
        escaped(text, also: [":", ","])
    }

    static func escaped(_ text: String, also: Set<Unicode.Scalar>) -> String {
        var out = ""
        for scalar in text.unicodeScalars {
            if scalar == "%" || scalar == "\r" || scalar == "\n" || also.contains(scalar) {
                out += "%" + (scalar.value < 16 ? "0" : "") + String(scalar.value, radix: 16, uppercase: true)
            } else {
                out.unicodeScalars.append(scalar)
            }
        }
        return out
    }
}
