import Foundation

/// A IIIF Image API 3 level-0 static tile tree: the folder `board/` holds `info.json` and
/// `REGION/SIZE/0/default.EXT` for each tile at each scale factor (`x,y,w,h` in the full
/// image, `w,h` of the tile), as static IIIF viewers (OpenSeadragon, Leaflet-IIIF, Mirador)
/// request them. Scale factors 1, 2, 4, ... down to the first at which the image fits one
/// tile; no overlap (IIIF tiles have none).
public struct IIIF: PyramidFormat {
    /// The image's `id` in info.json: where the folder will be served from. Viewers build
    /// tile addresses from it; the default is the folder's name, relative to the page that
    /// opens it.
    public var id: String?

    public init(id: String? = nil) {
        self.id = id
    }

    public func folder(for destination: String) -> String { destination }

    public func isLastLevel(width: Int, height: Int, tileSize: Int) -> Bool {
        width <= tileSize && height <= tileSize
    }

    public func tilePath(level: Int, levelCount: Int, column: Int, row: Int, base: Size, options: PyramidOptions) -> String {
        let scale = 1 << level, t = options.tileSize
        let x = column * t * scale, y = row * t * scale
        let w = min(t * scale, base.width - x), h = min(t * scale, base.height - y)
        let sw = (w + scale - 1) / scale, sh = (h + scale - 1) / scale
        return "\(x),\(y),\(w),\(h)/\(sw),\(sh)/0/default.\(fileExtension(options.format))"
    }

    public func fileExtension(_ format: TileFormat) -> String {
        switch format {
        case .png: return "png"
        case .jpeg: return "jpg"
        }
    }

    public var allowsOverlap: Bool { false }
    public static let name = "iiif"
    public static let suffix: String? = nil
    public static func restored(id: String?) -> IIIF { IIIF(id: id) }
    public var viewerTilePath: String { "{x},{y},{width},{height}/{scaledWidth},{scaledHeight}/0/default.{ext}" }

    public func descriptors(destination: String, base: Size, levelCount: Int, options: PyramidOptions) -> [(path: String, inside: Bool, data: Data)] {
        let factors = (0..<levelCount).map { String(1 << $0) }.joined(separator: ", ")
        let name = id ?? (destination as NSString).lastPathComponent
        let escaped = name.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: "\"", with: "\\\"")
        let json = """
            {
              "@context": "http://iiif.io/api/image/3/context.json",
              "id": "\(escaped)",
              "type": "ImageService3",
              "protocol": "http://iiif.io/api/image",
              "profile": "level0",
              "width": \(base.width),
              "height": \(base.height),
              "tiles": [{ "width": \(options.tileSize), "height": \(options.tileSize), "scaleFactors": [\(factors)] }],
              "preferredFormats": ["\(fileExtension(options.format))"]
            }

            """
        return [("info.json", true, Data(json.utf8))]
    }
}

/// The IIIF sink.
public typealias IIIFSink = PyramidSink<IIIF>
