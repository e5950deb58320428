/// A setting a layout declares for itself (`cellAspect` for the grid, `rowHeight` for
/// justified rows): its name, one line of help, its kind, range and default. The command
/// line offers it as the kebab-case flag of its name (`--cell-aspect`).
public struct LayoutSetting: Sendable, Hashable {
    /// What values the setting takes, and its default.
    public enum Kind: Sendable, Hashable {
        /// A finite number in `range`.
        case number(default: Double, range: ClosedRange<Double>)
        /// A whole number in `range` (pixels); `default` nil: the layout derives it.
        case integer(default: Int?, range: ClosedRange<Int>)
        /// On or off; off by default.
        case flag
        /// One of `values`.
        case choice(default: String, values: [String])
    }

    /// The library name (`cellAspect`); its flag is the kebab-case (`--cell-aspect`).
    public let name: String
    /// One line for `--help`, the default included.
    public let help: String
    public let kind: Kind

    public init(name: String, help: String, kind: Kind) {
        self.name = name
        self.help = help
        self.kind = kind
    }

    /// The default value (nil: an integer the layout derives).
    public var defaultValue: LayoutSettingValue? {
        switch kind {
        case .number(let value, _): return .number(value)
        case .integer(let value, _): return value.map { .integer($0) }
        case .flag: return .flag(false)
        case .choice(let value, _): return .choice(value)
        }
    }

    /// Checks `value` against the kind; throws `SheetError.option` naming the setting.
    func check(_ value: LayoutSettingValue) throws(SheetError) {
        switch (kind, value) {
        case (.number(_, let range), .number(let number)):
            guard number.isFinite, range.contains(number) else {
                throw .option(name: name, message: "\(number) is not a number between \(range.lowerBound) and \(range.upperBound)")
            }
        case (.integer(_, let range), .integer(let number)):
            guard range.contains(number) else {
                throw .option(name: name, message: "\(number) is not between \(range.lowerBound) and \(range.upperBound)")
            }
        case (.flag, .flag):
            return
        case (.choice(_, let values), .choice(let choice)):
            guard values.contains(choice) else {
                throw .option(name: name, message: "\"\(choice)\" is not one of \(values.joined(separator: ", "))")
            }
        default:
            throw .option(name: name, message: "\(value) is not a value of this setting")
        }
    }
}

/// A value given to a layout setting.
public enum LayoutSettingValue: Sendable, Hashable, CustomStringConvertible {
    case number(Double)
    case integer(Int)
    case flag(Bool)
    case choice(String)

    public var description: String {
        switch self {
        case .number(let value): return "\(value)"
        case .integer(let value): return "\(value)"
        case .flag(let value): return value ? "on" : "off"
        case .choice(let value): return value
        }
    }
}

/// The values of a layout's settings, by name: every declared setting with a default has
/// one.
public struct LayoutSettings: Sendable, Hashable {
    var values: [String: LayoutSettingValue]

    /// The number setting `name`, or `fallback` when it has none.
    public func number(_ name: String, or fallback: Double) -> Double {
        if case .number(let value)? = values[name] { return value }
        return fallback
    }

    /// The integer setting `name`, or nil when it is unset.
    public func integer(_ name: String) -> Int? {
        if case .integer(let value)? = values[name] { return value }
        return nil
    }

    /// Whether the flag `name` is on.
    public func flag(_ name: String) -> Bool {
        if case .flag(let value)? = values[name] { return value }
        return false
    }

    /// The choice `name`, or `fallback` when it has none.
    public func choice(_ name: String, or fallback: String) -> String {
        if case .choice(let value)? = values[name] { return value }
        return fallback
    }
}
