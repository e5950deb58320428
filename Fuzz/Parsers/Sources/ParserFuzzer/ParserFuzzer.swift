import Foundation
import Mosaic

/// libFuzzer's entry point: the first byte picks a parser, the rest is its input. Every
/// parser must return a value or a typed error; a trap, a crash or a hang is a finding.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzParsers(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    guard size > 0 else { return 0 }
    let input = Data(UnsafeBufferPointer(start: data + 1, count: size - 1))
    let text = String(decoding: input, as: UTF8.self)
    switch data[0] % 5 {
    case 0: _ = try? Catalog.checkManifest(input, path: "fuzz.json")
    case 1: _ = try? Catalog.checkManifest(input, path: "fuzz.csv")
    case 2: _ = Color(parsing: text)
    case 3: _ = try? CaptionMode(validating: text)
    default: _ = FontSource.parse(text)
    }
    return 0
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
