import Foundation
import Mosaic

/// libFuzzer's entry point: the first byte picks a parser (or, 6, the crop modes; 7 IPTC's
/// Photoshop resources and records; 8 an XMP packet), the rest
/// is its input. Every parser must return a value or a typed error; a trap, a crash or a
/// hang is a finding.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzParsers(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    guard size > 0 else { return 0 }
    let input = Data(UnsafeBufferPointer(start: data + 1, count: size - 1))
    let text = String(decoding: input, as: UTF8.self)
    switch data[0] % 9 {
    case 0: _ = try? Catalog.checkManifest(input, path: "fuzz.json")
    case 1: _ = try? Catalog.checkManifest(input, path: "fuzz.csv")
    case 2: _ = Color(parsing: text)
    case 3: _ = try? CaptionMode(validating: text)
    case 4: _ = FontSource.parse(text)
    case 5: fuzzShardRecord(input)
    case 7:
        // A JPEG's APP13 (Photoshop's resources after the header), then its IIM records.
        let bytes = [UInt8](input)[...]
        _ = IPTCRecords.fields(bytes)
        if let block = IPTCRecords.iimBlock(inResources: bytes) { _ = IPTCRecords.fields(block) }
    case 8: _ = XMPPacket.fields([UInt8](input)[...])
    default: fuzzCrop(input)
    }
    return 0
}

/// `mosaic assemble`'s input: a shard's `shard.json` (decoded and checked against what a
/// render writes), then the check of a shard's folder against it, with a listing made from
/// the record's own files (one kept, one changed, one missing, one stray), and its
/// description.
func fuzzShardRecord(_ input: Data) {
    guard let record = try? ShardRecord.decode(input) else { return }
    var found: [String: String?] = [:]
    for (n, (path, checksum)) in record.files.sorted(by: { $0.key < $1.key }).enumerated() {
        switch n % 4 {
        case 0: found[path] = .some(checksum)
        case 1: found[path] = .some("00000000")
        case 2: break
        default: found[path] = .some(nil)
        }
    }
    found["stray/" + String(record.files.count)] = .some("")
    _ = record.damage(found: found).map(\.description)
    _ = record.options
    _ = record.plan.handedOver
}

/// The crop modes over images of any shape, extreme strips first: a bitmap whose width and
/// height come from the input's first four bytes (1 to 16,384 a side, at most a million
/// pixels; a strip 16384 x 1 or 1 x 16384 one byte away), its pixels the rest of the input
/// repeated, cropped to fill a card whose size comes from the next four bytes (1 to 1,024
/// a side), by every `CropFocus`, through the whole-bitmap and the region (`extent`) paths.
func fuzzCrop(_ input: Data) {
    let bytes = [UInt8](input)
    guard bytes.count >= 9 else { return }
    func side(_ high: UInt8, _ low: UInt8, limit: Int) -> Int { (Int(high) << 8 | Int(low)) % limit + 1 }
    var width = side(bytes[0], bytes[1], limit: 16_384), height = side(bytes[2], bytes[3], limit: 16_384)
    // Strips: the high bit of the first byte makes one side 1.
    if bytes[0] & 0x80 != 0 { if width >= height { height = 1 } else { width = 1 } }
    while width * height > 1_000_000 { if width > height { width /= 2 } else { height /= 2 } }
    let cardWidth = side(bytes[4], bytes[5], limit: 1_024), cardHeight = side(bytes[6], bytes[7], limit: 1_024)
    let body = bytes[8...]
    var pixels = [UInt8](repeating: 255, count: width * height * 4)
    if !body.isEmpty {
        var source = body.startIndex
        for i in pixels.indices {
            pixels[i] = body[source]
            source = source + 1 == body.endIndex ? body.startIndex : source + 1
        }
    }
    guard let bitmap = Bitmap(width: width, height: height, pixels: pixels) else { return }
    for focus in CropFocus.allCases {
        let filled = bitmap.resampledToFill(width: cardWidth, height: cardHeight, focus: focus)
        precondition(filled.width == cardWidth && filled.height == cardHeight, "resampledToFill gave \(filled.width)x\(filled.height)")
        // A reduced decode's extent: the image spans less than the bitmap.
        let extent: ImageExtent = (0, 0, Double(width) - 0.25, Double(height) - 0.25)
        _ = bitmap.resampledToFill(width: cardWidth, height: cardHeight, extent: extent, focus: focus)
    }
}

/// libFuzzer's driver, for a program that has a `main` of its own.
@_silgen_name("LLVMFuzzerRunDriver")
func runFuzzerDriver(
    _ argc: UnsafeMutablePointer<CInt>, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?>,
    _ callback: @convention(c) (UnsafePointer<UInt8>, Int) -> CInt
) -> CInt

/// SwiftPM names an executable's entry point `<Target>_main` and makes it `main`, so
/// libFuzzer's own `main` is not linked: this one starts libFuzzer's driver.
@_cdecl("ParserFuzzer_main")
public func parserFuzzerMain(_ argc: CInt, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?) -> CInt {
    var count = argc
    var arguments = argv
    return runFuzzerDriver(&count, &arguments) { data, size in fuzzParsers(data, size) }
}
