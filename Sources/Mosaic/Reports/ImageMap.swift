import Foundation

extension ContactSheet {
    // MARK: The image map

    public struct MapElement: Codable, Sendable {
        public var kind: String
        public var section: Int
        public var item: Int?
        public var page: Int
        public var source: String?
        public var failure: String?
        public var frame: Rect
        public var imageFrame: Rect?
        public var captionFrame: Rect?
        public var title: String?
        public var description: String?
        public var text: String?
    }

    public struct MapPage: Codable, Sendable {
        public var index: Int
        public var file: String?
        public var width: Int
        public var height: Int
    }

    public struct ImageMap: Codable, Sendable {
        public var schemaVersion: Int
        public var generator: String
        public var pages: [MapPage]
        public var elements: [MapElement]
    }

    /// The layout as an image map: every element with its frames (pixels, top-left origin,
    /// per page), its source file and caption.
    public func imageMap(output: String?) -> ImageMap {
        let files = output.map { pagePaths(for: $0) }
        var pages: [MapPage] = []
        var elements: [MapElement] = []
        for page in 0..<layout.pageCount {
            let size = layout.pageSize(page)
            pages.append(MapPage(index: page, file: files?[page], width: size.width, height: size.height))
            for element in layout.elements(onPage: page) {
                var mapped = MapElement(
                    kind: element.kind.rawValue, section: element.section, item: element.item, page: page, source: nil,
                    failure: nil, frame: element.frame, imageFrame: element.imageFrame, captionFrame: element.captionFrame)
                switch element.kind {
                case .card:
                    let card = card(element.itemPath!)
                    mapped.source = card.entry.path
                    mapped.failure = card.entry.failure
                    mapped.title = card.caption?.title
                    mapped.description = card.caption.flatMap { $0.description.isEmpty ? nil : $0.description }
                case .header: mapped.text = headers[element.section]
                case .footer: mapped.text = footers[element.section]
                case .decoration: break
                }
                elements.append(mapped)
            }
        }
        return ImageMap(schemaVersion: 1, generator: "mosaic", pages: pages, elements: elements)
    }

    public func imageMapJSON(output: String?) -> Data {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        return (try? encoder.encode(imageMap(output: output))) ?? Data("{}".utf8)
    }
}
