/// Why a board cannot be laid out. Every case names the offending field (as a path such as
/// `sections[2].style.columnSpacing`) and its value.
public enum LayoutError: Error, Equatable, Sendable, CustomStringConvertible {
    /// A length that must be at least 1 is not (`extent`, a column count, a target width,
    /// `maximumPageLength`).
    case notPositive(field: String, value: Int)
    /// A spacing, inset, padding or length that must be at least 0 is negative.
    case negative(field: String, value: Int)
    /// A length beyond `maximumLayoutLength`.
    case tooLarge(field: String, value: Int, limit: Int)
    /// A count (of columns) beyond its limit: no unit, unlike `tooLarge`.
    case tooMany(field: String, value: Int, limit: Int)
    /// An item's aspect ratio makes its image longer than `maximumLayoutLength` pixels
    /// (clamp the aspect ratio).
    case itemTooLong(section: Int, item: Int, length: Double)
    /// An item's size is zero, negative, NaN or infinite.
    case invalidItemSize(section: Int, item: Int, width: Double, height: Double)
    /// The aspect clamp's bounds are not finite, positive and ordered.
    case invalidAspectClamp(minimum: Double, maximum: Double)
    /// The columns leave no pixel for an image: `available` pixels across for `columns`
    /// columns whose cards' padding takes `padding`.
    case columnsTooNarrow(section: Int, available: Int, columns: Int, padding: Int)
    /// On a horizontal board the row is too short for the padding and the caption block.
    case rowsTooShort(section: Int, rowHeight: Int, reserved: Int)
    /// `append` was called on a layout without sections.
    case noSectionToAppendTo
    /// A grid's cell aspect ratio is not a finite number in 1/64...64.
    case invalidCellAspect(Double)
    /// The layout does not lay out boards growing this way (justified rows: vertical only).
    case unsupportedDirection(layout: String, direction: Direction)
    /// A setting is below another that bounds it (`maximumRowHeight` under `targetRowHeight`).
    case outOfOrder(field: String, value: Int, minimumField: String, minimum: Int)

    public var description: String {
        switch self {
        case .notPositive(let field, let value):
            return "\(field) must be at least 1, got \(value)"
        case .negative(let field, let value):
            return "\(field) must not be negative, got \(value)"
        case .tooLarge(let field, let value, let limit):
            return "\(field) is \(value), more than the limit of \(limit) px"
        case .tooMany(let field, let value, let limit):
            return "\(field) is \(value), more than the limit of \(limit)"
        case .itemTooLong(let section, let item, let length):
            return "sections[\(section)].items[\(item)] would be \(length) px long; clamp its aspect ratio"
        case .invalidItemSize(let section, let item, let width, let height):
            return "sections[\(section)].items[\(item)] has an invalid size \(width)x\(height): "
                + "both sides must be finite and positive"
        case .invalidAspectClamp(let minimum, let maximum):
            return "aspectClamp \(minimum)...\(maximum) is invalid: both bounds must be finite, "
                + "positive and minimum <= maximum"
        case .columnsTooNarrow(let section, let available, let columns, let padding):
            return "sections[\(section)]: \(available) px across cannot hold \(columns) columns "
                + "with \(padding) px of cell padding each"
        case .rowsTooShort(let section, let rowHeight, let reserved):
            return "sections[\(section)]: rows of \(rowHeight) px cannot hold \(reserved) px of "
                + "padding and caption"
        case .noSectionToAppendTo:
            return "there is no section to append to"
        case .invalidCellAspect(let aspect):
            return "cellAspect \(aspect) is invalid: it must be a finite ratio between 1/64 and 64"
        case .unsupportedDirection(let layout, let direction):
            return "the \(layout) layout does not lay out \(direction) boards"
        case .outOfOrder(let field, let value, let minimumField, let minimum):
            return "\(field) \(value) must be at least \(minimumField) \(minimum)"
        }
    }
}
