import Foundation
import Testing

@testable import Mosaic

/// `ShardRecord.decode` (assemble's reading of a shard.json) and `damage(found:)`: every
/// record a render does not write is refused with what is wrong, never a trap.
@Suite struct ShardRecordTests {
    /// A record as a render writes it: shard 0 of 2 of a 600x500 IIIF board, two tiles.
    static func record() -> ShardRecord {
        let plan = ShardPlan(index: 0, count: 2, height: 500, tileSize: 256, overlap: 0, maximumLevels: 3)
        return ShardRecord(
            plan: plan, width: 600, height: 500, levelCount: 3, options: PyramidOptions(tileSize: 256, overlap: 0, format: .png),
            kind: "iiif", formatID: nil, boardDigest: "d", handOverWidth: 600, tiles: 2, hasAlpha: false,
            background: RGBA(red: 1, green: 2, blue: 3, alpha: 255),
            files: ["0,0,256,256/256,256/0/default.png": "0000000a", "256,0,256,256/256,256/0/default.png": "0000000b", "handover.rgba": "0000000c"])
    }

    /// The record's JSON with `change` made to it.
    static func edited(_ change: (inout [String: Any]) -> Void) throws -> Data {
        var object = try #require(try JSONSerialization.jsonObject(with: record().encoded) as? [String: Any])
        change(&object)
        return try JSONSerialization.data(withJSONObject: object)
    }

    @Test func aRecordReadsBackAsWritten() throws {
        #expect(try ShardRecord.decode(Self.record().encoded) == Self.record())
    }

    /// Valid JSON with a number no field holds was "not JSON": the field is named, with
    /// the values a render writes there.
    @Test func aNumberNoFieldHoldsIsNamed() throws {
        let text = String(decoding: Self.record().encoded, as: UTF8.self)
        let cases: [(String, String, ShardRecordError)] = [
            ("\"count\":2", "\"count\":1e300", .field(field: "plan.count", problem: "is 1e300, not a whole number from 1 to 10000")),
            ("\"width\":600", "\"width\":18446744073709551616", .field(field: "width", problem: "is 18446744073709551616, not a whole number from 1 to 16777216")),
            ("\"tileSize\":256", "\"tileSize\":256.5", .field(field: "tileSize", problem: "is 256.5, not a whole number from 16 to 8192")),
        ]
        for (from, to, error) in cases {
            let edited = text.replacingOccurrences(of: from, with: to)
            try #require(edited != text, "\(from) is in \(text)")
            #expect(throws: error) { try ShardRecord.decode(Data(edited.utf8)) }
        }
    }

    @Test func recordsARenderDoesNotWriteAreRefused() throws {
        #expect(throws: ShardRecordError.empty) { try ShardRecord.decode(Data()) }
        #expect(throws: ShardRecordError.zeroed(bytes: 512)) { try ShardRecord.decode(Data(count: 512)) }
        #expect(throws: ShardRecordError.field(field: "files", problem: "missing")) { try ShardRecord.decode(Self.edited { $0["files"] = nil }) }
        #expect(throws: ShardRecordError.field(field: "plan.index", problem: "not Int")) {
            try ShardRecord.decode(Self.edited { var plan = $0["plan"] as? [String: Any] ?? [:]; plan["index"] = "zero"; $0["plan"] = plan })
        }
        let refusals: [(String, (inout [String: Any]) -> Void, String)] = [
            ("width", { $0["width"] = -4 }, "a board of -4x500 px"),
            ("height", { $0["height"] = Int.max }, "a board of 600x\(Int.max) px"),
            ("tile size", { $0["tileSize"] = 0 }, "tiles of 0 px"),
            ("levels", { $0["levelCount"] = 9 }, "9 levels, where the board has 3"),
            ("plan", { var plan = $0["plan"] as? [String: Any] ?? [:]; plan["strip"] = [0, 400]; $0["plan"] = plan }, "a plan that is not shard 0/2's of this board"),
            ("index", { var plan = $0["plan"] as? [String: Any] ?? [:]; plan["index"] = 7; $0["plan"] = plan }, "shard 7 of 2"),
            ("hand-over", { $0["handOverWidth"] = 1 << 40 }, "a hand-over \(1 << 40) px wide, where level 0 is 600"),
            ("path", { $0["files"] = ["../../etc/passwd": "00000000", "handover.rgba": "0000000c"]; $0["tiles"] = 1 }, "the file name \"../../etc/passwd\""),
            ("checksum", { $0["files"] = ["handover.rgba": "XYZ"]; $0["tiles"] = 0 }, "the checksum \"XYZ\" of \"handover.rgba\""),
            ("count", { $0["tiles"] = 5 }, "5 tiles, 2 listed"),
        ]
        for (name, change, detail) in refusals {
            #expect(throws: ShardRecordError.inconsistent(detail: detail), "\(name)") { try ShardRecord.decode(Self.edited(change)) }
        }
    }

    @Test func aFolderIsComparedWithItsRecord() {
        let record = Self.record()
        #expect(record.damage(found: record.files.mapValues { $0 }).isEmpty)
        var found: [String: String?] = ["0,0,256,256/256,256/0/default.png": "0000000a", "x.png": ""]
        found.updateValue(nil, forKey: "256,0,256,256/256,256/0/default.png")  // not a regular file
        #expect(record.damage(found: found) == [.corrupt("256,0,256,256/256,256/0/default.png"), .missing("handover.rgba"), .stray("x.png")])
    }
}
