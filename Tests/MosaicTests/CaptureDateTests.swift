import Mosaic
import Testing

/// EXIF dates as wall-clock values, packed for the catalog's records, and formatted by
/// mosaic's own strftime-like patterns.
@Suite struct CaptureDateTests {
    @Test(arguments: [
        ("2023:07:14 18:22:05", nil, "2023-07-14T18:22:05"),
        ("2023:07:14 18:22:05", "+02:00", "2023-07-14T18:22:05+02:00"),
        ("2023-07-14T18:22:05", "-05:30", "2023-07-14T18:22:05-05:30"),
        ("2024:02:29 00:00:00\0\0", "+2:00", "2024-02-29T00:00:00"),  // padding kept by cameras; a bad offset left out
        ("1900:12:31 23:59:60", nil, "1900-12-31T23:59:60"),
    ] as [(String, String?, String)])
    func parsesEXIFDates(text: String, offset: String?, expected: String) throws {
        let date = try #require(CaptureDate(exif: text, offset: offset))
        #expect(date.description == expected)
        #expect(CaptureDate(packed: date.packed) == date)
    }

    @Test(arguments: ["0000:00:00 00:00:00", "    :  :     :  :  ", "2023:02:29 10:00:00", "2023:13:01 10:00:00", "2023:07:14", "2023:07:14 24:00:00", ""])
    func refusesWhatIsNoDate(text: String) {
        #expect(CaptureDate(exif: text) == nil)
    }

    /// `{date}` reads a date as the probe and `--group-by` do: what is no date there is none
    /// in a caption either (it printed "2024-13-01 00:00", "0000-00-00", and full-width
    /// digits as they were).
    @Test(arguments: [
        "0000:00:00 00:00:00", "2024:13:01 00:00:00", "2023:02:29 10:00:00", "2024:04:31 12:00:00", "2024:00:10 12:00:00",
        "\u{FF12}\u{FF10}\u{FF12}\u{FF14}:01:01 00:00:00", "2024:01:01 00:00", "    :  :     :  :  ", "2024:01:01 25:00:00",
    ])
    func captionsCallWhatIsNoDateUndated(text: String) {
        #expect(CaptureDate(exif: text) == nil)
        #expect(CameraText(date: text).displayDate == nil, "\(text)")
    }

    @Test func captionsShowARealDateToTheMinute() {
        #expect(CameraText(date: "2023:07:14 18:22:05").displayDate == "2023-07-14 18:22")
        #expect(CameraText(date: "2024-02-29T00:00:59", offset: "+02:00").displayDate == "2024-02-29 00:00")
        #expect(CameraText(date: "0900:01:01 00:00:00").displayDate == "0900-01-01 00:00")
    }

    /// Packed values order as the dates do (the catalog sorts records by them).
    @Test func packedValuesKeepTheOrder() throws {
        let texts = ["1999:12:31 23:59:59", "2000:01:01 00:00:00", "2000:01:01 00:00:01", "2000:02:01 00:00:00", "2024:03:14 09:00:00"]
        let dates = try texts.map { try #require(CaptureDate(exif: $0)) }
        #expect(dates == dates.sorted())
        #expect(dates.map(\.packed) == dates.map(\.packed).sorted())
        #expect(dates[1].daysSince1970 == 10_957)
        #expect(dates[1].weekday == 6)  // a Saturday
    }

    @Test func formatsWithFixedEnglishNames() throws {
        let date = try #require(CaptureDate(exif: "2024:03:04 15:07:09"))
        #expect(try DateFormat("%Y-%m-%d").string(from: date) == "2024-03-04")
        #expect(try DateFormat("%B %Y").string(from: date) == "March 2024")
        #expect(try DateFormat("%a %e %b|%-d/%-m/%y %I:%M:%S %p %j %F %%").string(from: date) == "Mon  4 Mar|4/3/24 03:07:09 PM 064 2024-03-04 %")
        #expect(try DateFormat("%A, %h").string(from: date) == "Monday, Mar")
        #expect(try DateFormat("plain text").string(from: date) == "plain text")
    }

    @Test func badPatternsNameTheDirective() {
        #expect(throws: DateFormat.Error.unknownDirective("%Q")) { try DateFormat("%Y %Q") }
        #expect(throws: DateFormat.Error.unknownDirective("%-z")) { try DateFormat("%-z") }
        #expect(throws: DateFormat.Error.incompleteDirective("%")) { try DateFormat("100%") }
        #expect(throws: DateFormat.Error.incompleteDirective("%-")) { try DateFormat("%-") }
    }
}
