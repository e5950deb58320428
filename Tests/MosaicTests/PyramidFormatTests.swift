import Foundation
import Mosaic
import Testing

/// Each pyramid format says what the viewer needs (its tile path with fields to fill in),
/// its name and suffix; nothing outside a format's own file compares format names.
@Suite struct PyramidFormatTests {
    /// The viewer's tile path filled in as the page does (`tileURL` in the viewer's script).
    static func viewerPath(_ template: String, reduction k: Int, levels: Int, column c: Int, row r: Int, tileSize t: Int, base: Size, ext: String) -> String {
        let f = 1 << k, x = c * t * f, y = r * t * f
        let w = min(t * f, base.width - x), h = min(t * f, base.height - y)
        let fields: [String: String] = [
            "level": String(levels - 1 - k), "column": String(c), "row": String(r), "x": String(x), "y": String(y),
            "width": String(w), "height": String(h), "scaledWidth": String((w + f - 1) / f), "scaledHeight": String((h + f - 1) / f), "ext": ext,
        ]
        var out = template
        for (name, value) in fields { out = out.replacingOccurrences(of: "{\(name)}", with: value) }
        return out
    }

    @Test(arguments: [0, 1])
    func theViewersTilePathIsTheSinks(which: Int) {
        let formats: [any PyramidFormat] = [DeepZoom(), IIIF(id: "board")]
        let format = formats[which]
        let base = Size(width: 1800, height: 1337)
        let options = PyramidOptions(tileSize: 254, overlap: 0, format: .png)
        let levels = 12
        for k in 0..<4 {
            for (c, r) in [(0, 0), (1, 2), (3, 1)] {
                let sink = format.tilePath(level: k, levelCount: levels, column: c, row: r, base: base, options: options)
                let viewer = Self.viewerPath(format.viewerTilePath, reduction: k, levels: levels, column: c, row: r, tileSize: 254, base: base, ext: format.fileExtension(.png))
                #expect(sink == viewer, "\(format.kind) k \(k) (\(c), \(r))")
            }
        }
    }

    @Test func formatsAreFoundByNameAndSuffix() {
        #expect(PyramidFormats.restored(name: "dzi", id: nil)?.kind == "dzi")
        #expect((PyramidFormats.restored(name: "iiif", id: "x") as? IIIF)?.id == "x")
        #expect(PyramidFormats.restored(name: "tiff", id: nil) == nil)
        #expect(PyramidFormats.baseName(for: "a/board.DZI") == "a/board")
        #expect(PyramidFormats.baseName(for: "a/board") == "a/board")
        #expect(PyramidFiles.shardsFolder(for: "board.dzi") == "board.shards")
    }
}
