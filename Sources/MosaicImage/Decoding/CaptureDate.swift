/// When a picture was taken, as its EXIF data says: a wall-clock date and time with no
/// time zone (EXIF's DateTimeOriginal), and the offset from UTC when the camera wrote one
/// (OffsetTimeOriginal, EXIF 2.31). Never converted with the machine's time zone: the same
/// file gives the same value everywhere. Ordered by the wall-clock value (the offset is
/// kept, not applied: "the day the photographer lived").
public struct CaptureDate: Sendable, Hashable, Comparable, Codable, CustomStringConvertible {
    public let year: Int
    /// 1...12.
    public let month: Int
    /// 1...31 (checked against the month).
    public let day: Int
    public let hour: Int
    public let minute: Int
    public let second: Int
    /// Minutes east of UTC, when the file says; nil otherwise.
    public let offsetMinutes: Int?

    /// A date with each field in its range (the day within its month); nil otherwise.
    public init?(year: Int, month: Int, day: Int, hour: Int = 0, minute: Int = 0, second: Int = 0, offsetMinutes: Int? = nil) {
        guard (1...9999).contains(year), (1...12).contains(month), (1...Self.days(inMonth: month, of: year)).contains(day),
            (0...23).contains(hour), (0...59).contains(minute), (0...60).contains(second)
        else { return nil }
        if let offsetMinutes, !(-(14 * 60)...(14 * 60)).contains(offsetMinutes) { return nil }
        (self.year, self.month, self.day, self.hour, self.minute, self.second) = (year, month, day, hour, minute, second)
        self.offsetMinutes = offsetMinutes
    }

    /// An EXIF date ("2023:07:14 18:22:05"; dashes accepted too) and offset ("+02:00");
    /// nil when the date is not one (cameras write "0000:00:00 00:00:00" or blanks for
    /// "unknown"). An offset that is not one is left out.
    public init?(exif date: String, offset: String? = nil) {
        let bytes = Array(date.utf8)
        guard bytes.count >= 19 else { return nil }
        func number(_ range: Range<Int>) -> Int? {
            var value = 0
            for i in range {
                guard (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(bytes[i]) else { return nil }
                value = value * 10 + Int(bytes[i] - UInt8(ascii: "0"))
            }
            return value
        }
        let separators: Set<UInt8> = [UInt8(ascii: ":"), UInt8(ascii: "-")]
        guard separators.contains(bytes[4]), separators.contains(bytes[7]), bytes[10] == UInt8(ascii: " ") || bytes[10] == UInt8(ascii: "T"),
            bytes[13] == UInt8(ascii: ":"), bytes[16] == UInt8(ascii: ":"),
            let year = number(0..<4), let month = number(5..<7), let day = number(8..<10),
            let hour = number(11..<13), let minute = number(14..<16), let second = number(17..<19)
        else { return nil }
        self.init(year: year, month: month, day: day, hour: hour, minute: minute, second: second, offsetMinutes: offset.flatMap(Self.offsetMinutes))
    }

    /// "+02:00" or "-05:30" as minutes east of UTC; nil when it is not one.
    static func offsetMinutes(_ text: String) -> Int? {
        let bytes = Array(text.utf8)
        guard bytes.count == 6, bytes[0] == UInt8(ascii: "+") || bytes[0] == UInt8(ascii: "-"), bytes[3] == UInt8(ascii: ":") else { return nil }
        let digits = [bytes[1], bytes[2], bytes[4], bytes[5]]
        guard digits.allSatisfy({ (UInt8(ascii: "0")...UInt8(ascii: "9")).contains($0) }) else { return nil }
        let value = digits.map { Int($0 - UInt8(ascii: "0")) }
        let hours = value[0] * 10 + value[1], minutes = value[2] * 10 + value[3]
        guard minutes < 60 else { return nil }
        return (bytes[0] == UInt8(ascii: "-") ? -1 : 1) * (hours * 60 + minutes)
    }

    /// The number of days in `month` (1...12) of `year` (proleptic Gregorian).
    public static func days(inMonth month: Int, of year: Int) -> Int {
        switch month {
        case 2: return year % 4 == 0 && (year % 100 != 0 || year % 400 == 0) ? 29 : 28
        case 4, 6, 9, 11: return 30
        default: return 31
        }
    }

    /// Days since 1970-01-01 of the date (negative before), in the proleptic Gregorian
    /// calendar (Howard Hinnant's days_from_civil).
    public var daysSince1970: Int {
        let y = month <= 2 ? year - 1 : year
        let era = (y >= 0 ? y : y - 399) / 400
        let yearOfEra = y - era * 400
        let dayOfYear = (153 * (month + (month > 2 ? -3 : 9)) + 2) / 5 + day - 1
        let dayOfEra = yearOfEra * 365 + yearOfEra / 4 - yearOfEra / 100 + dayOfYear
        return era * 146_097 + dayOfEra - 719_468
    }

    /// 0 for Sunday ... 6 for Saturday.
    public var weekday: Int { ((daysSince1970 % 7) + 11) % 7 }

    /// The wall-clock value in seconds, read as if it were UTC: for ordering dates against
    /// each other and against file times (which `--sort date` reads in UTC for files
    /// without a date).
    public var wallClockSeconds: Int { daysSince1970 * 86_400 + hour * 3_600 + minute * 60 + second }

    public static func < (a: CaptureDate, b: CaptureDate) -> Bool {
        (a.wallClockSeconds, a.offsetMinutes ?? Int.min) < (b.wallClockSeconds, b.offsetMinutes ?? Int.min)
    }

    /// ISO 8601: "2023-07-14T18:22:05", with "+02:00" when the offset is known.
    public var description: String {
        func two(_ n: Int) -> String { n < 10 ? "0\(n)" : "\(n)" }
        var text = String(repeating: "0", count: max(0, 4 - String(year).count)) + "\(year)-\(two(month))-\(two(day))T\(two(hour)):\(two(minute)):\(two(second))"
        if let offsetMinutes {
            let size = abs(offsetMinutes)
            text += (offsetMinutes < 0 ? "-" : "+") + two(size / 60) + ":" + two(size % 60)
        }
        return text
    }

    public init(from decoder: any Decoder) throws {
        let text = try decoder.singleValueContainer().decode(String.self)
        let offset = text.count == 25 ? String(text.suffix(6)) : nil
        guard let date = CaptureDate(exif: String(text.prefix(19)), offset: offset) else {
            throw DecodingError.dataCorrupted(.init(codingPath: decoder.codingPath, debugDescription: "not a date: \(text)"))
        }
        self = date
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(description)
    }

    // MARK: Packed

    /// The date in 64 bits, 0 for none (for compact records): ordered as the dates are.
    public var packed: Int64 {
        var value = Int64(year)
        for (field, size) in [(month, 13), (day, 32), (hour, 24), (minute, 60), (second, 61)] { value = value * Int64(size) + Int64(field) }
        return value << 12 | Int64(offsetMinutes.map { $0 + 14 * 60 + 1 } ?? 0)
    }

    /// The date `packed` made; nil for 0 or a value that is not one.
    public init?(packed: Int64) {
        guard packed > 0 else { return nil }
        let offset = Int(packed & 0xFFF)
        var value = packed >> 12
        var fields: [Int] = []
        for size in [61, 60, 24, 32, 13] as [Int64] {
            fields.append(Int(value % size))
            value /= size
        }
        self.init(
            year: Int(value), month: fields[4], day: fields[3], hour: fields[2], minute: fields[1], second: fields[0],
            offsetMinutes: offset == 0 ? nil : offset - 14 * 60 - 1)
    }
}
