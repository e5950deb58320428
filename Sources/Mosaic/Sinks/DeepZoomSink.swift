import Foundation

/// Deep Zoom (`board.dzi` and `board_files/LEVEL/COLUMN_ROW.EXT`), as OpenSeadragon and
/// libvips's `dzsave` read and write it: levels from 1x1 (level 0) to the board's size
/// (level ceil(log2(max(width, height)))), each half the next rounded up; tiles
/// `tileSize` square plus `overlap` on every side that has a neighbour.
public struct DeepZoom: PyramidFormat {
    public init() {}

    public func folder(for destination: String) -> String {
        Self.baseName(for: destination) + "_files"
    }

    public func isLastLevel(width: Int, height: Int, tileSize: Int) -> Bool {
        width <= 1 && height <= 1
    }

    public func tilePath(level: Int, levelCount: Int, column: Int, row: Int, base: Size, options: PyramidOptions) -> String {
        "\(levelCount - 1 - level)/\(column)_\(row).\(fileExtension(options.format))"
    }

    public func fileExtension(_ format: TileFormat) -> String { format.fileExtension }

    public var allowsOverlap: Bool { true }
    public static let name = "dzi"
    public static let suffix: String? = ".dzi"
    public static func restored(id: String?) -> DeepZoom { DeepZoom() }
    public var viewerTilePath: String { "{level}/{column}_{row}.{ext}" }

    public func descriptors(destination: String, base: Size, levelCount: Int, options: PyramidOptions) -> [(path: String, inside: Bool, data: Data)] {
        let xml = """
            <?xml version="1.0" encoding="UTF-8"?>
            <Image xmlns="http://schemas.microsoft.com/deepzoom/2008" Format="\(fileExtension(options.format))" Overlap="\(options.overlap)" TileSize="\(options.tileSize)">
              <Size Width="\(base.width)" Height="\(base.height)"/>
            </Image>

            """
        return [(destination, false, Data(xml.utf8))]
    }
}

/// The Deep Zoom sink.
public typealias DeepZoomSink = PyramidSink<DeepZoom>
