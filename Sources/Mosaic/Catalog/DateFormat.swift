/// A strftime-like pattern for the headers of date groups (`--date-format`), formatted by
/// mosaic itself with fixed English names: never the C library's strftime nor the
/// machine's locale or time zone, so the same inputs give the same bytes everywhere.
///
/// Directives: `%Y` year (4 digits), `%y` (2 digits), `%m` month (01-12), `%B` its name
/// ("March"), `%b` or `%h` abbreviated ("Mar"), `%d` day (01-31), `%e` (space-padded),
/// `%j` day of the year (001-366), `%A` weekday ("Thursday"), `%a` ("Thu"), `%H` hour
/// (00-23), `%I` (01-12), `%p` AM or PM, `%M` minute, `%S` second, `%F` (`%Y-%m-%d`), `%%` a percent sign. A `-` after the `%` drops the padding of a number (`%-d` "4").
public struct DateFormat: Sendable, Hashable, CustomStringConvertible {
    /// The pattern as given.
    public let pattern: String
    let parts: [Part]

    enum Part: Sendable, Hashable {
        case text(String)
        case directive(Character, unpadded: Bool)
    }

    /// The directives a pattern may use.
    public static let directives: [Character] = ["Y", "y", "m", "B", "b", "h", "d", "e", "j", "A", "a", "H", "I", "p", "M", "S", "F", "%"]

    /// Why a pattern is not one.
    public enum Error: Swift.Error, Equatable, Sendable, CustomStringConvertible {
        /// `%` followed by a character that is not a directive ("%Q").
        case unknownDirective(String)
        /// A `%` (or `%-`) at the end.
        case incompleteDirective(String)

        public var description: String {
            let known = DateFormat.directives.map { "%\($0)" }.joined(separator: " ")
            switch self {
            case .unknownDirective(let directive): return "\(directive) is not a directive mosaic knows (use \(known))"
            case .incompleteDirective(let directive): return "the pattern ends in \(directive), an incomplete directive (write %% for a percent sign)"
            }
        }
    }

    /// The pattern, checked.
    public init(_ pattern: String) throws(Error) {
        var parts: [Part] = []
        var text = ""
        var characters = pattern[...]
        while let character = characters.popFirst() {
            guard character == "%" else {
                text.append(character)
                continue
            }
            var unpadded = false
            guard var directive = characters.popFirst() else { throw .incompleteDirective("%") }
            if directive == "-" {
                unpadded = true
                guard let next = characters.popFirst() else { throw .incompleteDirective("%-") }
                directive = next
            }
            guard Self.directives.contains(directive) else { throw .unknownDirective("%" + (unpadded ? "-" : "") + String(directive)) }
            if !text.isEmpty { parts.append(.text(text)) }
            text = ""
            parts.append(.directive(directive, unpadded: unpadded))
        }
        if !text.isEmpty { parts.append(.text(text)) }
        self.pattern = pattern
        self.parts = parts
    }

    public var description: String { pattern }

    /// "2024-03-14".
    static let iso = DateFormat(pattern: "%F", parts: [.directive("F", unpadded: false)])

    init(pattern: String, parts: [Part]) {
        self.pattern = pattern
        self.parts = parts
    }

    static let months = ["January", "February", "March", "April", "May", "June", "July", "August", "September", "October", "November", "December"]
    static let weekdays = ["Sunday", "Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday"]

    /// `date` formatted.
    public func string(from date: CaptureDate) -> String {
        var out = ""
        for part in parts {
            switch part {
            case .text(let text): out += text
            case .directive(let directive, let unpadded):
                func number(_ value: Int, _ width: Int, pad: Character = "0") -> String {
                    let digits = String(value)
                    return unpadded || digits.count >= width ? digits : String(repeating: pad, count: width - digits.count) + digits
                }
                switch directive {
                case "Y": out += number(date.year, 4)
                case "y": out += number(date.year % 100, 2)
                case "m": out += number(date.month, 2)
                case "B": out += Self.months[date.month - 1]
                case "b", "h": out += String(Self.months[date.month - 1].prefix(3))
                case "d": out += number(date.day, 2)
                case "e": out += number(date.day, 2, pad: " ")
                case "j":
                    let first = CaptureDate(year: date.year, month: 1, day: 1)?.daysSince1970 ?? date.daysSince1970
                    out += number(date.daysSince1970 - first + 1, 3)
                case "A": out += Self.weekdays[date.weekday]
                case "a": out += String(Self.weekdays[date.weekday].prefix(3))
                case "H": out += number(date.hour, 2)
                case "I": out += number(date.hour % 12 == 0 ? 12 : date.hour % 12, 2)
                case "p": out += date.hour < 12 ? "AM" : "PM"
                case "M": out += number(date.minute, 2)
                case "S": out += number(date.second, 2)
                case "F": out += number(date.year, 4) + "-" + number(date.month, 2) + "-" + number(date.day, 2)
                default: out += "%"
                }
            }
        }
        return out
    }
}
