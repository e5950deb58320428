import Foundation

/// What a card's caption says.
public enum CaptionMode: Hashable, Sendable, CustomStringConvertible {
    case none
    /// The file name.
    case name
    /// The file name without its extension.
    case stem
    /// The manifest's title and description; the file's stem when there is no title.
    case title
    /// A template with {name} {stem} {ext} {width} {height} {index} {section} {title}
    /// {description}; a line break ("\n") separates the title from the description.
    case template(String)

    /// The modes by name.
    public static let modeNames = ["none", "name", "stem", "title"]
    /// The placeholders a template may use.
    public static let placeholders = ["name", "stem", "ext", "width", "height", "index", "section", "title", "description"]

    /// Parses `--caption`: `none`, `name`, `stem`, `title`, or a template (a typed `\n`
    /// becomes a line break).
    ///
    /// - Throws: `CaptionModeError.notAModeOrTemplate` for text that is neither a mode nor
    ///   holds a `{placeholder}` (a misspelt mode), `.unknownPlaceholder` for a
    ///   placeholder that does not exist, with the nearest one.
    public init(validating text: String) throws(CaptionModeError) {
        switch text {
        case "none": self = .none
        case "name": self = .name
        case "stem": self = .stem
        case "title": self = .title
        default:
            guard text.contains("{") else {
                throw .notAModeOrTemplate(text, suggestion: NearestName.nearest(text, among: Self.modeNames))
            }
            for placeholder in Self.placeholdersUsed(in: text) where !Self.placeholders.contains(placeholder) {
                throw .unknownPlaceholder(placeholder, suggestion: NearestName.nearest(placeholder, among: Self.placeholders))
            }
            self = .template(text.replacingOccurrences(of: "\\n", with: "\n"))
        }
    }

    /// The names between braces in `template`, in order.
    static func placeholdersUsed(in template: String) -> [String] {
        var names: [String] = []
        var rest = template[...]
        while let open = rest.firstIndex(of: "{") {
            let after = rest[rest.index(after: open)...]
            guard let close = after.firstIndex(of: "}") else { break }
            names.append(String(after[..<close]))
            rest = after[after.index(after: close)...]
        }
        return names
    }

    /// The mode as typed: its name, or the template.
    public var description: String {
        switch self {
        case .none: return "none"
        case .name: return "name"
        case .stem: return "stem"
        case .title: return "title"
        case .template(let t): return t
        }
    }

    /// The caption for `entry`, the `index`-th card (from 1) in section `section`.
    func caption(for entry: CatalogEntry, index: Int, section: String) -> Caption? {
        switch self {
        case .none: return nil
        case .name: return Caption(title: entry.name)
        case .stem: return Caption(title: entry.stem)
        case .title: return Caption(title: entry.title ?? entry.stem, description: entry.description ?? "")
        case .template(let template):
            var text = template
            let fields: [(String, String)] = [
                ("{name}", entry.name), ("{stem}", entry.stem), ("{ext}", entry.fileExtension),
                ("{width}", entry.orientedSize.map { String($0.width) } ?? "?"),
                ("{height}", entry.orientedSize.map { String($0.height) } ?? "?"),
                ("{index}", String(index)), ("{section}", section),
                ("{title}", entry.title ?? entry.stem), ("{description}", entry.description ?? ""),
            ]
            for (key, value) in fields { text = text.replacingOccurrences(of: key, with: value) }
            let parts = text.split(separator: "\n", maxSplits: 1, omittingEmptySubsequences: false)
            let caption = Caption(title: String(parts[0]), description: parts.count > 1 ? String(parts[1]) : "")
            return caption.isEmpty ? nil : caption
        }
    }
}
