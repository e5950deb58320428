/// What a user asks a render to write: the destination, the kind, the image map, and each
/// kind's settings (a kind reads those it has).
public struct OutputRequest: Sendable {
    /// The file (or folder) to write; nil for the default, `sheet.png`, which replaces only
    /// a sheet mosaic wrote. `-` sends a one-page PNG to standard output.
    public var destination: String?
    /// The kind's name (`--format`); nil: from the destination's suffix.
    public var format: String?
    /// Where the JSON image map goes (`-` for standard output); nil for none.
    public var json: String?
    /// Part K of N of a tile pyramid (`--shard`), as typed; nil: the whole.
    public var shard: String?
    /// The values given to the kinds' own settings (`OutputSetting`), by name: the kind
    /// chosen must take each one (`OutputKind.settings`); the others take their defaults.
    public var settings: [String: OutputSettingValue] = [:]
    /// The destination was made from a template (`--each`, `SheetNameTemplate`), not named
    /// by the user: like the default name, it replaces only files mosaic wrote.
    public var isFromTemplate = false

    public init(destination: String? = nil, format: String? = nil, json: String? = nil) {
        self.destination = destination
        self.format = format
        self.json = json
    }

    /// The destination, `sheet.png` when none was named.
    public var resolvedDestination: String { destination ?? "sheet.png" }
    /// `-o -`: the sheet goes to standard output.
    public var toStandardOutput: Bool { destination == "-" }
}

extension OutputRequest {
    /// The whole number `setting` was given, else its declared default (nil: the kind's).
    public func integer(_ setting: OutputSetting) -> Int? {
        if case .integer(let value)? = settings[setting.name] { return value }
        if case .integer(let value, _) = setting.kind { return value }
        return nil
    }

    /// Whether `setting` is on: as given, else its declared default.
    public func flag(_ setting: OutputSetting) -> Bool {
        if case .flag(let value)? = settings[setting.name] { return value }
        if case .flag(let value) = setting.kind { return value }
        return false
    }

    /// The choice given to `setting`, else its declared default (nil: the kind's).
    public func choice(_ setting: OutputSetting) -> String? {
        if case .choice(let value)? = settings[setting.name] { return value }
        if case .choice(let value, _) = setting.kind { return value }
        return nil
    }

    /// The text given to `setting`, or nil.
    public func text(_ setting: OutputSetting) -> String? {
        if case .text(let value)? = settings[setting.name] { return value }
        return nil
    }
}

extension OutputRequest: CustomStringConvertible {
    /// Every field, the settings in the order of their names: the same request is the same
    /// text in every process (the sheet's fingerprint, `CardCache.sheetFingerprint`, reads it).
    public var description: String {
        // Reflected: each text quoted and escaped, so no two requests read the same.
        let given = settings.sorted { $0.key < $1.key }.map { String(reflecting: $0.key) + ": " + String(reflecting: $0.value.description) }.joined(separator: ", ")
        return "OutputRequest(destination: \(String(reflecting: destination)), format: \(String(reflecting: format)), json: \(String(reflecting: json)), "
            + "shard: \(String(reflecting: shard)), settings: [\(given)], isFromTemplate: \(isFromTemplate))"
    }
}
