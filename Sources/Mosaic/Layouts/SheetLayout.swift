/// A layout a sheet can be drawn with, by name: how the sheet's sections become a board.
///
/// Layouts are registered in `all`; `mosaic render --layout NAME` picks one by its `name`.
/// Adding one is a file with a `static func` or `static let` making it (see
/// `SheetLayout+Grid.swift`), one line in `all`, and a CLI flag for its own settings.
public struct SheetLayout: Sendable, Hashable, CustomStringConvertible {
    /// The name users type (`--layout grid`).
    public let name: String
    /// One line for `--help`.
    public let summary: String
    /// Lays out the sheet's sections; the settings of this layout are captured in it.
    let make: @Sendable (BoardConfiguration, [LayoutSection], CaptionTypesetter) throws(LayoutError) -> any BoardLayout
    /// The settings captured in `make`, so that two layouts compare equal only when they
    /// lay out alike.
    let settings: String

    /// A layout called `name`, made by `make`; `settings` describes what `make` captured.
    public init(
        name: String, summary: String, settings: String = "",
        make: @escaping @Sendable (BoardConfiguration, [LayoutSection], CaptionTypesetter) throws(LayoutError) -> any BoardLayout
    ) {
        self.name = name
        self.summary = summary
        self.settings = settings
        self.make = make
    }

    /// Every layout, by name: the registry. The first is the default.
    public static let all: [SheetLayout] = [.masonry, .grid()]

    /// The registered layout called `name`, with its default settings; nil when there is none.
    public static func named(_ name: String) -> SheetLayout? {
        all.first { $0.name == name }
    }

    /// The name, with the settings when there are any.
    public var description: String { settings.isEmpty ? name : "\(name) (\(settings))" }

    /// Same name and settings.
    public static func == (lhs: SheetLayout, rhs: SheetLayout) -> Bool {
        lhs.name == rhs.name && lhs.settings == rhs.settings
    }

    /// Hashes the name and settings.
    public func hash(into hasher: inout Hasher) {
        hasher.combine(name)
        hasher.combine(settings)
    }
}
