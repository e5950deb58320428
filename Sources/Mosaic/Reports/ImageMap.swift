import Foundation

extension ContactSheet {
    // MARK: The image map

    /// One element of the map (frames in pixels, top-left origin, on its page).
    public struct MapElement: Codable, Sendable {
        /// `card`, `header`, `footer` or `decoration`.
        public var kind: String
        /// The layout section, from 0 (the title is a section of its own).
        public var section: Int
        /// Cards: the index in the section, from 0.
        public var item: Int?
        /// The page, from 0.
        public var page: Int
        /// Cards: the input file, for people (`ReportedName.display`: bytes that are not
        /// UTF-8 as U+FFFD).
        public var source: String?
        /// Cards whose path is not valid UTF-8: its exact bytes, base64 (`ReportedName`).
        public var sourceBytes: String?
        /// Why the card shows a placeholder, for people (it names the file).
        public var failure: String?
        /// The same, for programs.
        public var problem: MapProblem?
        /// The whole element.
        public var frame: Rect
        /// Cards: where the image is drawn.
        public var imageFrame: Rect?
        /// Cards with a caption: where it is drawn.
        public var captionFrame: Rect?
        /// Cards: the caption's title.
        public var title: String?
        /// Cards: the caption's description.
        public var description: String?
        /// Headers and footers: their text.
        public var text: String?
        /// Headers: true when repeated on a page the section continues on.
        public var continued: Bool?
        /// The card that stands for a section's inputs that could not be read past its
        /// first 100: each of them, in order (they have no card of their own).
        public var unplaced: [MapFailure]?
        /// Cards of a video's frames (`--frames`): the frame's time in its clip, seconds.
        public var time: Double?
        /// Cards that stand for several files (`--pairs merge`): the others, for people
        /// (the RAW beside the JPEG drawn, a Live Photo's MOV, a GoPro clip's proxies).
        public var companions: [String]?
        /// Cards with a mark in their corner: "RAW", "LIVE", "MOTION" (`PairMark`).
        public var marks: [String]?
        /// Cards of a photo that carries a gain map beside its standard image (the one
        /// drawn): "ultrahdr", "iso21496" or "apple" (`GainMap`).
        public var gainMap: String?
    }

    /// An input that could not be read and has no card of its own (see `MapElement.unplaced`).
    public struct MapFailure: Codable, Sendable, Equatable {
        /// The input file (for display: see `ReportedName`).
        public var source: String
        /// The name's exact bytes in base64, when they are not UTF-8.
        public var sourceBytes: String?
        /// Why, for people (it names the file).
        public var failure: String
        /// The same, for programs.
        public var problem: MapProblem
    }

    /// A card's problem in the map: the error's case, its format when a codec refused the
    /// file, and the reason without the path.
    public struct MapProblem: Codable, Sendable, Equatable {
        /// The error's case (`ImageDecodingError.code`).
        public var code: String
        /// The format whose codec refused the file, if one did.
        public var format: String?
        /// What went wrong, without the path.
        public var reason: String

        init(_ problem: CardProblem) {
            code = problem.error.code
            reason = problem.error.reason
            if case .codec(_, let format, _) = problem.error { self.format = format.rawValue }
        }
    }

    /// One page of the map.
    public struct MapPage: Codable, Sendable {
        /// From 0.
        public var index: Int
        /// The PNG the page is written to, when known.
        public var file: String?
        /// Pixels.
        public var width: Int
        /// Pixels.
        public var height: Int
    }

    /// The image map's schema version: 2 since cards of video frames carry their `time`,
    /// 3 since a card of a pair lists its `companions` and `marks`, 4 since a card names its
    /// photo's `gainMap`.
    public static let imageMapSchemaVersion = 4

    /// The layout as written by `--json` and `mosaic layout`.
    public struct ImageMap: Codable, Sendable {
        /// 4 (2: a video frame's `time`; 3: a pair's `companions` and `marks`; 4: `gainMap`).
        public var schemaVersion: Int
        /// "mosaic".
        public var generator: String
        /// The pages and their sizes.
        public var pages: [MapPage]
        /// Every element, page by page, in z then document order.
        public var elements: [MapElement]
        /// The files among the inputs that are not images (skipped); nil for none.
        public var skipped: [String]?
    }

    /// The layout as an image map: every element with its frames (pixels, top-left origin,
    /// per page), its source file, caption and problem. `problems` adds those found while
    /// rendering (the catalog's own are always there); `output` names the page files.
    public func imageMap(output: String?, problems: [CardProblem] = []) -> ImageMap {
        let files = output.map { PageNames.paths(for: $0, pageCount: layout.pageCount) }
        let rendered = Dictionary(problems.map { ($0.path, $0) }, uniquingKeysWith: { first, _ in first })
        var pages: [MapPage] = []
        var elements: [MapElement] = []
        for page in 0..<layout.pageCount {
            let size = layout.pageSize(page)
            pages.append(MapPage(index: page, file: files?[page], width: size.width, height: size.height))
            for element in layout.elements(onPage: page) {
                elements.append(mapElement(element, page: page, rendered: rendered))
            }
        }
        return ImageMap(
            schemaVersion: Self.imageMapSchemaVersion, generator: "mosaic", pages: pages, elements: elements,
            skipped: catalog.skippedFiles.isEmpty ? nil : catalog.skippedFiles.map { ReportedName($0).display })
    }

    func mapElement(_ element: LayoutAttributes, page: Int, rendered: [String: CardProblem]) -> MapElement {
        var mapped = MapElement(
            kind: element.kind.rawValue, section: element.section, item: element.item, page: page, source: nil,
            failure: nil, frame: element.frame, imageFrame: element.imageFrame, captionFrame: element.captionFrame)
        switch element.kind {
        case .card:
            guard let path = element.itemPath else { break }
            let card = card(path)
            if let count = card.entry.summarizedFailures {
                mapped.failure = CaptionMode.summaryTitle(count) + ": see the summary"
                mapped.unplaced = summarizedProblems(of: path).map {
                    let name = ReportedName($0.path)
                    return MapFailure(source: name.display, sourceBytes: name.sourceBytes, failure: $0.description, problem: MapProblem($0))
                }
                mapped.title = card.caption?.title
                mapped.description = card.caption?.description
                break
            }
            let name = ReportedName(card.entry.path)
            mapped.source = name.display
            mapped.sourceBytes = name.sourceBytes
            if let problem = card.entry.problem ?? rendered[card.entry.path] {
                mapped.failure = problem.description
                mapped.problem = MapProblem(problem)
            }
            mapped.title = card.caption?.title
            mapped.description = card.caption.flatMap { $0.description.isEmpty ? nil : $0.description }
            mapped.time = card.entry.info?.video?.frameTime
            let companions = card.entry.companions
            if !companions.isEmpty { mapped.companions = companions.map { ReportedName($0.path).display } }
            let marks = card.entry.marks
            if !marks.isEmpty { mapped.marks = marks.map(\.rawValue) }
            mapped.gainMap = card.entry.info?.gainMap?.rawValue
        case .header:
            mapped.text = headers[element.section]
            mapped.continued = element.continued
        case .footer: mapped.text = footers[element.section]
        case .decoration: break
        }
        return mapped
    }

    /// `imageMap` as JSON (see `writeImageMap`), in memory.
    ///
    /// - Throws: `OutputError.imageMap` when the encoder fails.
    public func imageMapJSON(output: String?, problems: [CardProblem] = []) throws(OutputError) -> Data {
        let stream = JSONStream()
        try writeImageMap(to: stream, output: output, problems: problems)
        return stream.data
    }

    /// Writes the image map into `stream` as it goes, one element a line (keys sorted, as
    /// `ImageMap` encodes): a map of a million cards is never held whole.
    ///
    /// - Throws: `OutputError.output` when the stream cannot be written.
    public func writeImageMap(to stream: JSONStream, output: String?, problems: [CardProblem] = []) throws(OutputError) {
        let files = output.map { PageNames.paths(for: $0, pageCount: layout.pageCount) }
        let rendered = Dictionary(problems.map { ($0.path, $0) }, uniquingKeysWith: { first, _ in first })
        try stream.write("{\"elements\":[")
        var first = true
        for page in 0..<layout.pageCount {
            for element in layout.elements(onPage: page) {
                try stream.write(first ? "\n" : ",\n")
                first = false
                try write(mapElement(element, page: page, rendered: rendered), to: stream)
            }
        }
        try stream.write("\n],\"generator\":\"mosaic\",\"pages\":[")
        for page in 0..<layout.pageCount {
            let size = layout.pageSize(page)
            if page > 0 { try stream.write(",") }
            try stream.write("\n{")
            if let file = files?[page] {
                try stream.write("\"file\":")
                try stream.write(string: file)
                try stream.write(",")
            }
            try stream.write("\"height\":")
            try stream.write(size.height)
            try stream.write(",\"index\":")
            try stream.write(page)
            try stream.write(",\"width\":")
            try stream.write(size.width)
            try stream.write("}")
        }
        try stream.write("\n],\"schemaVersion\":")
        try stream.write(Self.imageMapSchemaVersion)
        // Every file of the inputs that is not an image, as the summary counts them.
        if !catalog.skippedFiles.isEmpty {
            try stream.write(",\n\"skipped\":[")
            for (n, file) in catalog.skippedFiles.enumerated() {
                try stream.write(n == 0 ? "\n" : ",\n")
                try stream.write(string: ReportedName(file).display)
            }
            try stream.write("\n]")
        }
        try stream.write("}\n")
        try stream.flush()
    }

    /// One element, its keys in sorted order.
    func write(_ e: MapElement, to stream: JSONStream) throws(OutputError) {
        try stream.write("{")
        if let frame = e.captionFrame {
            try stream.write("\"captionFrame\":")
            try stream.write(rect: frame)
            try stream.write(",")
        }
        if let companions = e.companions {
            try stream.write("\"companions\":")
            try write(strings: companions, to: stream)
            try stream.write(",")
        }
        if let continued = e.continued { try stream.write(continued ? "\"continued\":true," : "\"continued\":false,") }
        if let description = e.description {
            try stream.write("\"description\":")
            try stream.write(string: description)
            try stream.write(",")
        }
        if let failure = e.failure {
            try stream.write("\"failure\":")
            try stream.write(string: failure)
            try stream.write(",")
        }
        try stream.write("\"frame\":")
        try stream.write(rect: e.frame)
        if let gainMap = e.gainMap {
            try stream.write(",\"gainMap\":")
            try stream.write(string: gainMap)
        }
        if let frame = e.imageFrame {
            try stream.write(",\"imageFrame\":")
            try stream.write(rect: frame)
        }
        if let item = e.item {
            try stream.write(",\"item\":")
            try stream.write(item)
        }
        try stream.write(",\"kind\":")
        try stream.write(string: e.kind)
        try stream.write(",\"page\":")
        try stream.write(e.page)
        if let marks = e.marks {
            try stream.write(",\"marks\":")
            try write(strings: marks, to: stream)
        }
        if let problem = e.problem {
            try stream.write(",\"problem\":")
            try write(problem, to: stream)
        }
        try stream.write(",\"section\":")
        try stream.write(e.section)
        if let source = e.source {
            try stream.write(",\"source\":")
            try stream.write(string: source)
        }
        if let bytes = e.sourceBytes {
            try stream.write(",\"sourceBytes\":")
            try stream.write(string: bytes)
        }
        if let text = e.text {
            try stream.write(",\"text\":")
            try stream.write(string: text)
        }
        if let time = e.time {
            // Milliseconds are enough for any frame rate's times, and print the same everywhere.
            try stream.write(",\"time\":")
            try stream.write(data: Data(String((time * 1000).rounded() / 1000).utf8))
        }
        if let title = e.title {
            try stream.write(",\"title\":")
            try stream.write(string: title)
        }
        if let unplaced = e.unplaced {
            try stream.write(",\"unplaced\":[")
            for (i, failure) in unplaced.enumerated() {
                try stream.write(i == 0 ? "{\"failure\":" : ",{\"failure\":")
                try stream.write(string: failure.failure)
                try stream.write(",\"problem\":")
                try write(failure.problem, to: stream)
                try stream.write(",\"source\":")
                try stream.write(string: failure.source)
                if let bytes = failure.sourceBytes {
                    try stream.write(",\"sourceBytes\":")
                    try stream.write(string: bytes)
                }
                try stream.write("}")
            }
            try stream.write("]")
        }
        try stream.write("}")
    }

    /// An array of strings.
    func write(strings: [String], to stream: JSONStream) throws(OutputError) {
        try stream.write("[")
        for (i, text) in strings.enumerated() {
            if i > 0 { try stream.write(",") }
            try stream.write(string: text)
        }
        try stream.write("]")
    }

    /// A problem's object, its keys in sorted order.
    func write(_ problem: MapProblem, to stream: JSONStream) throws(OutputError) {
        try stream.write("{\"code\":")
        try stream.write(string: problem.code)
        if let format = problem.format {
            try stream.write(",\"format\":")
            try stream.write(string: format)
        }
        try stream.write(",\"reason\":")
        try stream.write(string: problem.reason)
        try stream.write("}")
    }
}
