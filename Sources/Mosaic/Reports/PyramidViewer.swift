import Foundation

/// The offline viewer written beside a tile pyramid: `board.html` (the page: its own code,
/// no library, nothing from the network) and `board.map.js` (the board's cards and
/// headers, compact). It works from `file://` and from any static host: the map is a
/// script, not a JSON fetched (browsers refuse `fetch` of a local file), and the tiles are
/// images. Pan (drag, arrows), zoom (wheel, double-click, + and -, 0 to fit), a card's
/// caption on hover, its original on click (a relative link), a search box over captions
/// and file names that flies to the card found (`board.html#find=coffee` too), and the
/// section headers as a table of contents.
public struct PyramidViewer: Sendable {
    /// The page.
    public let page: String
    /// The map script beside it.
    public let mapScript: String

    /// The viewer of the pyramid written at `destination` (`board.dzi`, or the IIIF folder
    /// `board`): `board.html` and `board.map.js` beside it.
    public init(destination: String) {
        let base = PyramidFormats.baseName(for: destination)
        page = base + ".html"
        mapScript = base + ".map.js"
    }

    /// What the page says it is: only such a page is ever replaced.
    static let generator = "mosaic viewer"

    /// Whether the file at `path` is a viewer page or map mosaic wrote (or nothing is there).
    public static func mayReplace(_ path: String) -> Bool {
        guard let status = FileNames.status(path) else { return true }
        // A FIFO or device is never opened (it could block): not a page mosaic wrote.
        guard (status.st_mode & S_IFMT) == S_IFREG else { return false }
        guard let handle = FileHandle(forReadingAtPath: path) else { return false }
        let head = String(decoding: handle.readData(ofLength: 1024), as: UTF8.self)
        try? handle.close()
        return head.contains("<meta name=\"generator\" content=\"\(generator)\">") || head.hasPrefix(mapPrefix)
    }

    /// How a map script begins.
    static let mapPrefix = "window.mosaicMap = {"

    /// The pyramid the viewer shows: its kind, tile grid and folder.
    public struct Pyramid: Sendable {
        /// "dzi" or "iiif".
        public var kind: String
        /// A tile's path in the folder, to fill in (`PyramidFormat.viewerTilePath`): the page
        /// reads it, and knows no format.
        public var tilePath: String
        public var tileSize: Int
        public var overlap: Int
        /// The tiles' file extension.
        public var fileExtension: String
        /// How many levels (DZI) or scale factors (IIIF).
        public var levels: Int
        /// The tiles' folder.
        public var folder: String

        public init(kind: String, tilePath: String, tileSize: Int, overlap: Int, fileExtension: String, levels: Int, folder: String) {
            self.kind = kind
            self.tilePath = tilePath
            self.tileSize = tileSize
            self.overlap = overlap
            self.fileExtension = fileExtension
            self.levels = levels
            self.folder = folder
        }
    }

    /// The page (fixed: the board is in the map script).
    public func html(title: String) -> Data {
        let mapName = WebText.percentEncoded((mapScript as NSString).lastPathComponent)
        return Data(
            Self.template.replacingOccurrences(of: "@TITLE@", with: WebText.escapeHTML(title))
                .replacingOccurrences(of: "@MAP@", with: mapName).utf8)
    }

    /// Writes the map script for `sheet` drawn as `pyramid`: cards as
    /// `[x, y, width, height, title, description, name, link]`, headers as
    /// `[x, y, width, height, text]`, streamed.
    public func writeMap(_ sheet: ContactSheet, pyramid: Pyramid, to stream: JSONStream) throws(OutputError) {
        let size = sheet.layout.pageSize(0)
        let pageFolder = OutputCheck.resolved((page as NSString).deletingLastPathComponent.isEmpty ? "." : (page as NSString).deletingLastPathComponent)
        let background = sheet.options.style.background
        try stream.write("window.mosaicMap = {")
        try stream.write("\"width\":")
        try stream.write(size.width)
        try stream.write(",\"height\":")
        try stream.write(size.height)
        try stream.write(",\"kind\":")
        try stream.write(string: pyramid.kind)
        try stream.write(",\"tilePath\":")
        try stream.write(string: pyramid.tilePath)
        try stream.write(",\"tileSize\":")
        try stream.write(pyramid.tileSize)
        try stream.write(",\"overlap\":")
        try stream.write(pyramid.overlap)
        try stream.write(",\"ext\":")
        try stream.write(string: pyramid.fileExtension)
        try stream.write(",\"levels\":")
        try stream.write(pyramid.levels)
        try stream.write(",\"folder\":")
        try stream.write(string: WebText.percentEncoded((pyramid.folder as NSString).lastPathComponent))
        try stream.write(",\"background\":")
        try stream.write(string: String(format: "rgba(%d,%d,%d,%.3f)", background.red, background.green, background.blue, Double(background.alpha) / 255))
        try stream.write(",\"title\":")
        try stream.write(string: sheet.hasTitle ? (sheet.headers.first.flatMap { $0 } ?? "") : "")
        try stream.write(",\n\"cards\":[")
        var first = true
        // Band by band (each element once, in the band where it starts): the page's list of
        // elements is never made whole. Folders are resolved once each, not once a card.
        var resolvedFolders: [String: String] = [:]
        func link(_ path: String) -> String {
            let folder = (path as NSString).deletingLastPathComponent
            let resolved = resolvedFolders[folder] ?? OutputCheck.resolved(folder.isEmpty ? "." : folder)
            resolvedFolders[folder] = resolved
            return WebText.relativeURL(from: pageFolder, to: resolved + "/" + (path as NSString).lastPathComponent)
        }
        let band = 4096
        var top = 0
        repeat {
            let elements = sheet.layout.elements(in: Rect(x: 0, y: top, width: max(1, size.width), height: band), page: 0)
            for element in elements where element.kind == .card || element.kind == .header {
                // Each element in the band where it starts (the first band takes any above).
                guard element.frame.minY < top + band, element.frame.minY >= top || top == 0 else { continue }
                try stream.write(first ? "\n[" : ",\n[")
                first = false
                try stream.write(element.frame.minX)
                try stream.write(",")
                try stream.write(element.frame.minY)
                try stream.write(",")
                try stream.write(element.frame.width)
                try stream.write(",")
                try stream.write(element.frame.height)
                if element.kind == .header {
                    try stream.write(",")
                    try stream.write(string: sheet.headers[element.section] ?? "")
                    try stream.write("]")
                    continue
                }
                guard let path = element.itemPath else { continue }
                let card = sheet.card(path)
                try stream.write(",")
                try stream.write(string: card.caption?.title ?? "")
                try stream.write(",")
                try stream.write(string: card.caption?.description ?? "")
                try stream.write(",")
                try stream.write(string: FileNames.display(card.entry.relativePath))
                try stream.write(",")
                try stream.write(string: link(card.entry.path))
                try stream.write("]")
            }
            top += band
        } while top < size.height
        try stream.write("\n]};\n")
        try stream.flush()
    }

    /// The page: styles and the viewer's code. Cards and headers share the map's `cards`
    /// array (a header has five fields, a card eight).
    static let template = EmbeddedTemplates.viewerHTML
}
