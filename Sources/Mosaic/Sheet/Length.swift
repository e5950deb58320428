/// A length as a user gives it: pixels of the board (a bare number, `12`), or a physical
/// length in points (`8pt`, 1/72 inch) or millimetres (`10mm`), which only an output of a
/// physical size (a PDF's paper at its `--dpi`) turns into pixels.
public enum Length: Hashable, Sendable, CustomStringConvertible {
    case pixels(Double)
    case points(Double)
    case millimetres(Double)

    /// `12`, `12px`, `8pt`, `8.5pt`, `10mm` (a negative number too, for its option to refuse
    /// by name); nil for anything else (an infinite or empty number included).
    public init?(parsing text: String) {
        let lower = text.lowercased()
        let units: [(String, (Double) -> Length)] = [("px", Length.pixels), ("pt", Length.points), ("mm", Length.millimetres)]
        var make: (Double) -> Length = Length.pixels
        var number = Substring(lower)
        for (suffix, unit) in units where lower.hasSuffix(suffix) {
            make = unit
            number = lower.dropLast(suffix.count)
        }
        let digits = number.hasPrefix("-") ? number.dropFirst() : number
        guard !digits.isEmpty, digits.allSatisfy({ $0.isASCII && ($0.isNumber || $0 == ".") }), let value = Double(number), value.isFinite else {
            return nil
        }
        self = make(value)
    }

    /// The number as given, in its own unit.
    public var value: Double {
        switch self {
        case .pixels(let value), .points(let value), .millimetres(let value): return value
        }
    }

    /// True for points and millimetres: a length that needs a resolution to be pixels.
    public var isPhysical: Bool {
        if case .pixels = self { return false }
        return true
    }

    /// The length in pixels at `dpi` dots per inch (pixels stay as they are).
    public func pixels(dpi: Int) -> Double {
        switch self {
        case .pixels(let value): return value
        case .points(let value): return value * Double(dpi) / 72
        case .millimetres(let value): return value * Double(dpi) / 25.4
        }
    }

    /// As a user writes it: "12", "8.5pt", "10mm".
    public var description: String {
        func shown(_ value: Double) -> String {
            value == value.rounded() && abs(value) < 1e15 ? String(Int(value)) : String(value)
        }
        switch self {
        case .pixels(let value): return shown(value)
        case .points(let value): return shown(value) + "pt"
        case .millimetres(let value): return shown(value) + "mm"
        }
    }
}

/// The sheet options that take a `Length` (`--font-size 8pt`, `--inset 10mm`): each named by
/// its `SheetOptions` property, so that an error names the option.
public enum LengthSetting: String, Hashable, Sendable, CaseIterable, Comparable {
    case fontSize, headerSize, inset, spacing, columnSpacing, rowSpacing, padding, sectionPadding, borderWidth

    /// Its flag (`--font-size`).
    public var flag: String { Self.flag(forProperty: rawValue) }

    /// The flag of a `SheetOptions` property: its kebab-case (`maxAspect` -> `--max-aspect`).
    public static func flag(forProperty property: String) -> String {
        var flag = "--"
        for character in property {
            if character.isUppercase {
                flag += "-" + character.lowercased()
            } else {
                flag.append(character)
            }
        }
        return flag
    }

    /// A font size is a fraction of a pixel; the others are whole pixels.
    public var isWholePixels: Bool { self != .fontSize && self != .headerSize }

    public static func < (a: LengthSetting, b: LengthSetting) -> Bool {
        allCases.firstIndex(of: a) ?? 0 < allCases.firstIndex(of: b) ?? 0
    }

    /// Sets the option to `pixels` (rounded to whole pixels where the option takes them).
    func set(_ pixels: Double, in options: inout SheetOptions) {
        let whole = Int(min(1_000_000, max(0, pixels.rounded())))
        switch self {
        case .fontSize: options.style.captionSize = pixels
        case .headerSize: options.style.headerSize = pixels
        case .inset: options.inset = whole
        case .spacing: options.spacing = whole
        case .columnSpacing: options.columnSpacing = whole
        case .rowSpacing: options.rowSpacing = whole
        case .padding: options.padding = whole
        case .sectionPadding: options.style.sectionPadding = whole
        case .borderWidth: options.style.borderWidth = max(pixels > 0 ? 1 : 0, whole)
        }
    }
}

extension SheetOptions {
    /// Gives `setting` the length `length`: pixels at once, a physical length kept in
    /// `lengths` until an output of a physical size resolves it (`resolvingLengths(dpi:)`).
    public mutating func set(_ setting: LengthSetting, _ length: Length) {
        if case .pixels(let value) = length {
            lengths[setting] = nil
            setting.set(value, in: &self)
        } else {
            lengths[setting] = length
        }
    }

    /// The options with every physical length (`lengths`) in pixels at `dpi`: what a PDF of
    /// that resolution lays out.
    public func resolvingLengths(dpi: Int) -> SheetOptions {
        var resolved = self
        for (setting, length) in lengths { setting.set(length.pixels(dpi: dpi), in: &resolved) }
        resolved.lengths = [:]
        return resolved
    }

    /// The first option given in points or millimetres and not yet resolved, if any.
    public var firstPhysicalLength: (setting: LengthSetting, length: Length)? {
        lengths.min { $0.key < $1.key }.map { ($0.key, $0.value) }
    }
}
