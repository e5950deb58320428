/// The title and description of an IPTC-IIM block (the records a JPEG keeps in its APP13
/// segment, in Photoshop's image resource 0x0404): dataset 2:05 ObjectName (the title) and
/// 2:120 Caption-Abstract (the description), as older cameras, Photoshop, Photo Mechanic
/// and news agencies write them. Read after XMP, which wins where both say something.
///
/// Bounded: every length is checked against the bytes before it is used; a record that
/// runs past them ends the reading (what came before it is kept), never a crash.
public enum IPTCRecords {
    /// The header of a JPEG's APP13 segment of Photoshop's resources.
    static let photoshopSignature = Array("Photoshop 3.0".utf8) + [0]

    /// The IIM block (resource 0x0404) among Photoshop's image resources `resources` (a
    /// JPEG's APP13 data after its "Photoshop 3.0\0" header: "8BIM" blocks, each an id, a
    /// padded Pascal name, a length and its padded data); nil when there is none.
    public static func iimBlock(inResources resources: ArraySlice<UInt8>) -> ArraySlice<UInt8>? {
        var i = resources.startIndex
        let end = resources.endIndex
        while end - i >= 12, resources[i..<(i + 4)].elementsEqual("8BIM".utf8) {
            let id = Int(resources[i + 4]) << 8 | Int(resources[i + 5])
            // The name: a length byte and that many bytes, padded to an even count.
            let nameLength = Int(resources[i + 6])
            var at = i + 6 + ((nameLength + 2) & ~1)
            guard end - at >= 4 else { return nil }
            let length = Int(resources[at]) << 24 | Int(resources[at + 1]) << 16 | Int(resources[at + 2]) << 8 | Int(resources[at + 3])
            at += 4
            guard length <= end - at else { return nil }
            if id == 0x0404 { return resources[at..<(at + length)] }
            // Data padded to an even length (the padding may be missing at the end).
            i = at + length + (length & 1)
        }
        return nil
    }

    /// The title (2:05) and description (2:120) of `block`'s records; nil fields when absent.
    /// Text in UTF-8 when it is valid UTF-8 (as 1:90 "ESC % G" declares it, and as most
    /// writers write it without saying so), else Latin-1, as IIM's older writers meant it.
    public static func fields(_ block: ArraySlice<UInt8>) -> ShootingData {
        var title: ArraySlice<UInt8>?, description: ArraySlice<UInt8>?
        var i = block.startIndex
        let end = block.endIndex
        while end - i >= 5, block[i] == 0x1C {
            let (record, dataset) = (block[i + 1], block[i + 2])
            let length = Int(block[i + 3]) << 8 | Int(block[i + 4])
            // An extended length (the high bit set): no text field is that long; stop.
            guard length & 0x8000 == 0, length <= end - (i + 5) else { break }
            let value = block[(i + 5)..<(i + 5 + length)]
            switch (record, dataset) {
            case (2, 5): title = title ?? value
            case (2, 120): description = description ?? value
            default: break
            }
            i += 5 + length
        }
        return ShootingData(title: title.flatMap { text($0) }, description: description.flatMap { text($0) })
    }

    /// `bytes` as text, without NULs and surrounding spaces; nil when empty.
    static func text(_ bytes: ArraySlice<UInt8>) -> String? {
        let trimmed = bytes.prefix { $0 != 0 }
        var value: String
        if let decoded = String(validating: trimmed, as: UTF8.self) {
            value = decoded
        } else {
            value = String(String.UnicodeScalarView(trimmed.map { Unicode.Scalar($0) }))
        }
        value = value.trimmingSpaces
        return value.isEmpty ? nil : value
    }
}
