/// A setting an output kind declares for itself, as a layout declares its `LayoutSetting`s
/// (`quality` for the lossy kinds, `pageSize` for PDF, `tileSize` for pyramids): its name,
/// one line of help, its kind, range and default. A kind lists those it takes in
/// `OutputKind.settings`; `OutputRequest.settings` carries the values given, by name;
/// `RenderJob` refuses a name no kind declares, a setting the chosen kind does not take and
/// a value out of its declared range, and the kind reads the rest (`OutputRequest.integer`
/// ...). The command line offers each setting as `--output-setting NAME=VALUE`, and the
/// older ones also as their own flags (the kebab-case of the name: `--page-size`).
public struct OutputSetting: Sendable, Hashable {
    /// What values the setting takes, and its default.
    public enum Kind: Sendable, Hashable {
        /// A whole number in `range`; `default` nil: the kind decides (a format's own default).
        case integer(default: Int?, range: ClosedRange<Int>)
        /// On or off.
        case flag(default: Bool)
        /// One of `values`; `default` nil: the kind decides.
        case choice(default: String?, values: [String])
        /// Text the kind reads itself (a paper size, an id); `form` says what it looks like.
        case text(form: String)
    }

    /// The library name (`pageSize`); its flag, where it has one, is the kebab-case
    /// (`--page-size`).
    public let name: String
    /// One line for `--help`. A help that names no kind starts in lower case: it is shown
    /// after the names of the kinds that take the setting, from the registry
    /// (`OutputKinds.help(for:)`), so a new kind that takes it is named there too.
    public let help: String
    public let kind: Kind

    public init(name: String, help: String, kind: Kind) {
        (self.name, self.help, self.kind) = (name, help, kind)
    }

    /// The flag of a setting called `name`: `--` and its kebab-case (`pageSize`:
    /// `--page-size`, `iiifID`: `--iiif-id`).
    public static func flag(for name: String) -> String {
        var flag = "--"
        var previous: Character?
        for character in name {
            if character.isUppercase, let previous, previous.isLowercase || previous.isNumber { flag += "-" }
            flag += character.lowercased()
            previous = character
        }
        return flag
    }

    /// The value `text` gives this setting (`--output-setting NAME=TEXT`): a whole number,
    /// on or off (`on`, `off`, `true`, `false`, `yes`, `no`, `1`, `0`), a choice or text.
    ///
    /// - Throws: `OutputRequestError.settingValue` when `text` is not a value of its kind
    ///   (a choice outside its values is refused later, with the range checks).
    public func value(parsing text: String) throws(OutputRequestError) -> OutputSettingValue {
        switch kind {
        case .integer:
            guard let number = Int(text) else { throw .settingValue(name: name, value: text, expected: "a whole number") }
            return .integer(number)
        case .flag:
            switch text.lowercased() {
            case "on", "true", "yes", "1": return .flag(true)
            case "off", "false", "no", "0": return .flag(false)
            default: throw .settingValue(name: name, value: text, expected: "on or off")
            }
        case .choice: return .choice(text)
        case .text: return .text(text)
        }
    }

    /// Checks `value` against the kind and its range.
    ///
    /// - Throws: `OutputRequestError.settingOutOfRange` or `.settingValue`, naming the setting.
    func check(_ value: OutputSettingValue) throws(OutputRequestError) {
        switch (kind, value) {
        case (.integer(_, let range), .integer(let number)):
            guard range.contains(number) else { throw .settingOutOfRange(name: name, value: number, range: range) }
        case (.flag, .flag), (.text, .text):
            return
        case (.choice(_, let values), .choice(let choice)):
            guard values.contains(choice) else {
                throw .settingValue(name: name, value: choice, expected: "one of \(values.joined(separator: ", "))")
            }
        default:
            throw .settingValue(name: name, value: value.description, expected: "a value of this setting")
        }
    }
}

/// A value given to an output setting.
public enum OutputSettingValue: Sendable, Hashable, CustomStringConvertible {
    case integer(Int)
    case flag(Bool)
    case choice(String)
    case text(String)

    public var description: String {
        switch self {
        case .integer(let value): return "\(value)"
        case .flag(let value): return value ? "on" : "off"
        case .choice(let value), .text(let value): return value
        }
    }
}

extension OutputSetting {
    /// Lossy sheets' quality (the kinds' default: 90).
    public static let quality = OutputSetting(
        name: "quality", help: "quality 1 to 100 (default: 90).",
        kind: .integer(default: nil, range: 1...100))
    /// Lossless sheets, for the kinds that have a lossless mode.
    public static let lossless = OutputSetting(
        name: "lossless", help: "lossless.", kind: .flag(default: false))
}
