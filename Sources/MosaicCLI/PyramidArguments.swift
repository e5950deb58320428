import ArgumentParser
import Foundation
import Mosaic

extension PyramidSettings.TileEncoding: ExpressibleByArgument {}

/// What the board is written as: an output kind (PNG pages, a tile pyramid...) and the
/// pyramids' settings (`render` only).
struct PyramidArguments: ParsableArguments {
    @Option(
        help: ArgumentHelp(
            "What to write (default: by the output's suffix, or png). (values: \(OutputKinds.names.joined(separator: ", ")))",
            valueName: "format"),
        completion: .list(OutputKinds.names))
    var format: String?
    @Option(parsing: .unconditional, help: "JPEG, WebP, AVIF, JPEG XL and PDF sheets: quality 1 to 100 (default: 90).")
    var quality: Int?
    @Flag(help: "WebP, AVIF, JPEG XL and PDF sheets: lossless.")
    var lossless = false
    @Option(help: ArgumentHelp("PDF: a4, letter, WxHmm or WxHin (default: a4).", valueName: "size"))
    var pageSize: String?
    @Option(parsing: .unconditional, help: "PDF: pixels per inch of the pages (default: 300).")
    var dpi: Int?
    @Option(parsing: .unconditional, help: "Pyramids: tile side, pixels (default: 254 for dzi, 256 for iiif).")
    var tileSize: Int?
    @Option(parsing: .unconditional, help: "Deep Zoom: pixels each tile repeats from its neighbours.")
    var overlap = 1
    @Option(help: "Pyramids: tile encoding (default: jpeg, or png for a transparent board).")
    var tileFormat: PyramidSettings.TileEncoding?
    @Option(parsing: .unconditional, help: "JPEG tiles: quality 1 to 100.")
    var tileQuality = 85
    @Flag(help: "Pyramids: leave out tiles of background only.")
    var skipBlankTiles = false
    @Flag(help: "Pyramids: no NAME.html viewer beside the pyramid.")
    var noViewer = false
    @Option(parsing: .unconditional, help: ArgumentHelp(
        "Pyramids: render part K (from 0) of N; 'mosaic assemble' finishes it (default: the whole).",
        valueName: "K/N"))
    var shard: String?
    @Option(help: ArgumentHelp("IIIF: the id in info.json (default: the folder's name).", valueName: "url"))
    var iiifId: String?

    func validate() throws {
        if let format, !OutputKinds.names.contains(format) {
            throw ValidationError("--format: \"\(format)\" is not a format (use \(OutputKinds.names.joined(separator: ", ")))")
        }
        if let tileSize, !(16...8192).contains(tileSize) { throw ValidationError("--tile-size must be 16 to 8192, got \(tileSize)") }
        if !(0...64).contains(overlap) { throw ValidationError("--overlap must be 0 to 64, got \(overlap)") }
        if let tileSize, overlap * 2 >= tileSize { throw ValidationError("--overlap \(overlap) must be less than half of --tile-size \(tileSize)") }
        if !(1...100).contains(tileQuality) { throw ValidationError("--tile-quality must be 1 to 100, got \(tileQuality)") }
        if let shard { _ = try ShardArgument.parse(shard) }
    }

    /// The settings, for the library's request.
    var settings: PyramidSettings {
        var settings = PyramidSettings()
        settings.tileSize = tileSize
        settings.overlap = overlap
        settings.tileEncoding = tileFormat
        settings.tileQuality = tileQuality
        settings.skipBlankTiles = skipBlankTiles
        settings.viewer = !noViewer
        settings.shard = shard
        settings.iiifID = iiifId
        return settings
    }

    /// What the user asked to be written to `output`, with the JSON map to `json`.
    func request(output: String?, json: String?) -> OutputRequest {
        var request = OutputRequest(destination: output, format: format, json: json)
        request.pyramid = settings
        request.quality = quality
        request.lossless = lossless
        request.pageSize = pageSize
        request.dpi = dpi
        return request
    }
}
