/// The numbers of a JSON text that no field can hold: what Foundation's decoder calls "not
/// valid JSON" without a place (`"span": 2.5` for an Int, `"columns": 1e400`, 2^64), found
/// so that the message names the field. A scan of the text as it is, linear, that keeps the
/// path to each value ("sections[0].columns").
enum JSONNumbers {
    /// A number literal and where it is.
    struct Found: Equatable {
        /// "sections[0].columns", "plan.count", "items[2].span".
        var path: String
        /// The object key it is the value of (or, in an array, the array's key): "columns".
        var key: String
        /// As written: "1e400".
        var literal: String
    }

    /// The first number that is not a whole number an Int holds where `isWhole(key)` says
    /// the field is one, or that no Double holds anywhere (1e400); nil when there is none
    /// (or the text is not JSON: the scan stops where it stops making sense).
    static func firstUnfitting(in bytes: [UInt8], isWhole: (String) -> Bool) -> Found? {
        enum Container {
            case object(key: String?)
            case array(key: String?, index: Int)
        }
        var stack: [Container] = []
        var i = 0
        let n = bytes.count
        /// The string starting at the quote at `i`, and the index after its closing quote.
        func string(at start: Int) -> (String, Int)? {
            var j = start + 1
            var raw: [UInt8] = []
            while j < n {
                switch bytes[j] {
                case UInt8(ascii: "\""): return (String(decoding: raw, as: UTF8.self), j + 1)
                case UInt8(ascii: "\\"):
                    guard j + 1 < n else { return nil }
                    raw.append(bytes[j + 1])
                    j += 2
                default:
                    raw.append(bytes[j])
                    j += 1
                }
            }
            return nil
        }
        func path() -> String {
            var out = ""
            for container in stack {
                switch container {
                case .object(let key?): out += (out.isEmpty ? "" : ".") + key
                case .object(nil): break
                case .array(_, let index): out += "[\(index)]"
                }
            }
            return out
        }
        var expectingKey = false
        while i < n {
            let byte = bytes[i]
            switch byte {
            case UInt8(ascii: "{"):
                stack.append(.object(key: nil))
                expectingKey = true
                i += 1
            case UInt8(ascii: "["):
                let key: String? = if case .object(let key)? = stack.last { key } else { nil }
                stack.append(.array(key: key, index: 0))
                i += 1
            case UInt8(ascii: "}"), UInt8(ascii: "]"):
                guard !stack.isEmpty else { return nil }
                stack.removeLast()
                i += 1
            case UInt8(ascii: ","):
                if case .array(let key, let index)? = stack.last {
                    stack[stack.count - 1] = .array(key: key, index: index + 1)
                } else if case .object? = stack.last {
                    expectingKey = true
                }
                i += 1
            case UInt8(ascii: "\""):
                guard let (text, next) = string(at: i) else { return nil }
                if expectingKey, case .object? = stack.last {
                    stack[stack.count - 1] = .object(key: text)
                    expectingKey = false
                }
                i = next
            case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"):
                var j = i
                while j < n, (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(bytes[j]) || "+-.eE".utf8.contains(bytes[j]) { j += 1 }
                let literal = String(decoding: bytes[i..<j], as: UTF8.self)
                let key: String
                switch stack.last {
                case .object(let name?)?: key = name
                case .array(let name?, _)?: key = name
                default: key = ""
                }
                let value = Double(literal) ?? .nan
                // (A whole number written 2.0 or 1e3 is one: only the value counts.)
                let whole = value.rounded() == value && abs(value) < 9.2e18
                let unfitting = !value.isFinite || (isWhole(key) && !whole)
                if unfitting { return Found(path: path(), key: key, literal: literal) }
                i = j
            default:
                i += 1
            }
        }
        return nil
    }
}
