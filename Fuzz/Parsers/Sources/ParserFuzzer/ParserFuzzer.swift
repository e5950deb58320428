import Foundation
import Mosaic

/// libFuzzer's entry point: the first byte picks a parser, the rest is its input. Every
/// parser must return a value or a typed error; a trap, a crash or a hang is a finding.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzParsers(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    guard size > 0 else { return 0 }
    let input = Data(UnsafeBufferPointer(start: data + 1, count: size - 1))
    let text = String(decoding: input, as: UTF8.self)
    switch data[0] % 6 {
    case 0: _ = try? Catalog.checkManifest(input, path: "fuzz.json")
    case 1: _ = try? Catalog.checkManifest(input, path: "fuzz.csv")
    case 2: _ = Color(parsing: text)
    case 3: _ = try? CaptionMode(validating: text)
    case 4: _ = FontSource.parse(text)
    default: fuzzShardRecord(input)
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
