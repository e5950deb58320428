import ArgumentParser
import Foundation
import Mosaic

/// How the pixels are made and written (`render` only).
struct WorkArguments: ParsableArguments {
    @Option(help: "What a camera RAW's card is drawn from: auto (a large enough preview, else a development), preview or full.")
    var raw: RawDrawing = .auto
    @Option(help: "Resampling filter.")
    var filter: ResamplingFilter = .lanczos3
    @Flag(
        name: .customLong("no-color-management"),
        help: "Do not convert images with a colour profile to sRGB.")
    var noColorManagement = false
    @Option(
        parsing: .unconditional,
        help: "PNG level, 0 (fastest) to 9 (smallest) (default: 6 up to 4 megapixels, else 1).")
    var compressionLevel: Int?
    @Option(parsing: .unconditional, help: "Decoding threads (default: the number of cores).")
    var jobs: Int?

    func validate() throws {
        if let compressionLevel, !(0...9).contains(compressionLevel) {
            throw ValidationError("--compression-level must be 0 to 9, got \(compressionLevel)")
        }
        if let jobs, jobs < 1 || jobs > 256 { throw ValidationError("--jobs must be between 1 and 256, got \(jobs)") }
    }

    func apply(to o: inout SheetOptions) {
        o.compressionLevel = compressionLevel
        o.filter = filter
        o.jobs = jobs ?? ProcessInfo.processInfo.activeProcessorCount
        o.colorManagement = !noColorManagement
        if raw != .auto { o.codecs = o.codecs.replacing(RawCodec(drawing: raw)) }
    }
}
