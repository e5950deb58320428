/// A layout a sheet can be drawn with, by name: how the sheet's sections become a board,
/// with the settings the layout declares for itself.
///
/// Layouts are registered in `all`; `mosaic render --layout NAME` picks one by its `name`
/// and gives it the values of its settings (`with(_:)`). Adding one is a file with a
/// `static let` making it (see `SheetLayout+Grid.swift`), one line in `all`, and, for each
/// of its settings, the flag's declaration in the CLI's `LayoutArguments`.
public struct SheetLayout: Sendable, Hashable, CustomStringConvertible {
    /// The name users type (`--layout grid`).
    public let name: String
    /// One line for `--help`.
    public let summary: String
    /// The directions it lays boards out in.
    public let directions: [Direction]
    /// Whether a card may span several columns (feature cards); layouts of rows do not.
    public let placesSpans: Bool
    /// The settings this layout reads, each with its range and default.
    public let settings: [LayoutSetting]
    /// The values in force: every setting's default, or the value given.
    public internal(set) var values: LayoutSettings
    /// Lays out the sheet's sections with the values of the settings.
    let make: @Sendable (LayoutSettings, BoardConfiguration, [LayoutSection], CaptionTypesetter) throws(LayoutError) -> any BoardLayout

    /// A layout called `name` that reads `settings` and lays out with `make`.
    public init(
        name: String, summary: String, directions: [Direction] = Direction.allCases, placesSpans: Bool = true,
        settings: [LayoutSetting] = [],
        make: @escaping @Sendable (LayoutSettings, BoardConfiguration, [LayoutSection], CaptionTypesetter) throws(LayoutError) -> any BoardLayout
    ) {
        self.name = name
        self.summary = summary
        self.directions = directions
        self.placesSpans = placesSpans
        self.settings = settings
        var defaults: [String: LayoutSettingValue] = [:]
        for setting in settings { defaults[setting.name] = setting.defaultValue }
        self.values = LayoutSettings(values: defaults)
        self.make = make
    }

    /// Every layout, by name: the registry. The first is the default.
    public static let all: [SheetLayout] = [.masonry, .grid(), .justified]

    /// The registered layout called `name`, with its default settings; nil when there is none.
    public static func named(_ name: String) -> SheetLayout? {
        all.first { $0.name == name }
    }

    /// Every setting of every registered layout, each once, with the layouts that read it.
    public static var allSettings: [(setting: LayoutSetting, layouts: [String])] {
        declaredOnce(all.map { ($0.name, $0.settings) }, name: \.name).map { ($0.setting, $0.owners) }
    }

    /// This layout with `given` values for some of its settings.
    ///
    /// - Throws: `SheetError.option` naming a setting this layout does not read (and the
    ///   layouts that do), or a value out of its setting's range.
    public func with(_ given: [String: LayoutSettingValue]) throws(SheetError) -> SheetLayout {
        var layout = self
        for (name, value) in given.sorted(by: { $0.key < $1.key }) {
            guard let setting = settings.first(where: { $0.name == name }) else {
                let readers = Self.allSettings.first { $0.setting.name == name }?.layouts ?? []
                throw .option(
                    name: name,
                    message: readers.isEmpty
                        ? "is not a setting of any layout"
                        : "is a setting of the \(readers.joined(separator: " and ")) layout, not of \(self.name)")
            }
            try setting.check(value)
            layout.values.values[name] = value
        }
        return layout
    }

    /// Lays out `sections` with this layout and its settings.
    func layOut(
        _ configuration: BoardConfiguration, _ sections: [LayoutSection], _ captions: CaptionTypesetter
    ) throws(LayoutError) -> any BoardLayout {
        try make(values, configuration, sections, captions)
    }

    /// The settings that differ from their defaults, as "name value" (for `description`).
    var changedSettings: [String] {
        settings.compactMap { setting in
            guard let value = values.values[setting.name], value != setting.defaultValue else { return nil }
            return "\(setting.name) \(value)"
        }
    }

    /// The name, with the settings that differ from their defaults.
    public var description: String {
        changedSettings.isEmpty ? name : "\(name) (\(changedSettings.joined(separator: ", ")))"
    }

    /// Same name and values.
    public static func == (lhs: SheetLayout, rhs: SheetLayout) -> Bool {
        lhs.name == rhs.name && lhs.values == rhs.values
    }

    /// Hashes the name and values.
    public func hash(into hasher: inout Hasher) {
        hasher.combine(name)
        hasher.combine(values)
    }
}
