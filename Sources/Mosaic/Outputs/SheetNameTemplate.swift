/// The names of the sheets of a run that makes one sheet per folder or group (`--each`):
/// a destination (and an image map) with placeholders, `sheets/{folder}.png`.
///
/// - `{folder}`: the folder's name (its last path component);
/// - `{group}`: the group's header (`--group-by`: "March 2024", "Canon EOS R5", "Undated");
/// - `{stem}`: a video's name without its extension (`--frames`: a sheet per video);
/// - `{index}`: the sheet's number from 1, zero-padded to the width of the count (01...40),
///   so that the names sort in order.
///
/// A name is made safe for one path component (`safeName`): "/" and control characters
/// become "_", a leading "." becomes "_" (no hidden files, no "..") and bytes that are not
/// UTF-8 become "_"; it is cut to 200 bytes. Pages follow the destination's own rule
/// (`NAME-1.png`, `NAME-2.png`...).
public struct SheetNameTemplate: Sendable, Hashable {
    /// The template as given.
    public let template: String

    /// What names the sheets.
    public enum Placeholder: String, Sendable, CaseIterable {
        case folder, group, stem, index
    }

    /// The placeholders the template uses.
    public let placeholders: Set<Placeholder>

    /// The template, checked: it must hold a placeholder (else every sheet would have one
    /// name), and only the ones `allowed` (`{folder}` names folders, `{group}` groups).
    ///
    /// - Throws: `OutputRequestError.settings` naming `option`.
    public init(_ template: String, option: String, allowed: Set<Placeholder>) throws(OutputRequestError) {
        var found: Set<Placeholder> = []
        var rest = Substring(template)
        while let open = rest.firstIndex(of: "{") {
            guard let close = rest[open...].firstIndex(of: "}") else { break }
            let name = rest[rest.index(after: open)..<close]
            if let placeholder = Placeholder(rawValue: String(name)) {
                guard allowed.contains(placeholder) else {
                    let others = Placeholder.allCases.filter(allowed.contains).map { "{\($0.rawValue)}" }.joined(separator: " or ")
                    throw .settings("\(option): {\(name)} has no value here (use \(others))")
                }
                found.insert(placeholder)
            } else if !name.isEmpty, name.allSatisfy({ $0.isLetter }) {
                throw .settings("\(option): {\(name)} is not a placeholder (use {folder}, {group}, {stem} or {index})")
            }
            rest = rest[rest.index(after: close)...]
        }
        guard !found.isEmpty else {
            throw .settings("\(option) \"\(template)\" names one file; with --each it needs {folder}, {group}, {stem} or {index} to name each sheet")
        }
        self.template = template
        placeholders = found
    }

    /// The path of sheet `index` (from 0) of `count`, named `name` (made safe). One pass
    /// over the template: a name holding "{index}" stays that name.
    public func path(name: String, index: Int, count: Int) -> String {
        let digits = String(max(count, 1)).count
        let number = String(index + 1)
        let safe = Self.safeName(name)
        var out = ""
        var rest = Substring(template)
        while let open = rest.firstIndex(of: "{") {
            out += rest[..<open]
            guard let close = rest[open...].firstIndex(of: "}") else { break }
            switch Placeholder(rawValue: String(rest[rest.index(after: open)..<close])) {
            case .folder?, .group?, .stem?: out += safe
            case .index?: out += String(repeating: "0", count: max(0, digits - number.count)) + number
            case nil: out += rest[open...close]
            }
            rest = rest[rest.index(after: close)...]
        }
        return out + rest
    }

    /// `name` as one safe path component: see the type's summary.
    public static func safeName(_ name: String) -> String {
        var scalars = String.UnicodeScalarView()
        for scalar in name.unicodeScalars {
            let unsafe = scalar == "/" || scalar == "\\" || scalar.properties.generalCategory == .control
                || scalar.properties.generalCategory == .lineSeparator || scalar.properties.generalCategory == .paragraphSeparator
                || !FileNames.isValidUTF8(String(scalar))
            scalars.append(unsafe ? "_" : scalar)
        }
        var safe = String(scalars)
        if safe.hasPrefix(".") { safe = "_" + safe.dropFirst() }
        if safe.isEmpty { safe = "_" }
        while safe.utf8.count > 200 { safe.removeLast() }
        return safe
    }
}
