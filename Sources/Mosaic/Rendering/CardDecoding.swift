import MosaicSync

/// One card to decode: where it is, what it needs.
/// A card to decode: eight bytes (a page may hold a million); its frame is the layout's.
struct DecodeJob: Sendable, Comparable {
    var section: Int32
    var item: Int32

    init(_ path: ItemPath) {
        section = Int32(clamping: path.section)
        item = Int32(clamping: path.item)
    }

    var path: ItemPath { ItemPath(section: Int(section), item: Int(item)) }

    static func < (a: DecodeJob, b: DecodeJob) -> Bool { (a.section, a.item) < (b.section, b.item) }
}

/// A decoded card: its image at the size it is drawn, its caption, or why it failed.
struct DecodedCard: Sendable {
    var image: Bitmap?
    var imageOrigin: Point
    /// The caption's title and description, rasterized once (a card spans several bands).
    var title: CoverageMask?
    var description: CoverageMask?
    /// Where the description starts below the caption's top.
    var descriptionTop = 0
    var failure: CardProblem?
    /// The inputs a failure-summary card stands for (`CatalogEntry.summarizedFailures`).
    var summarized: [CardProblem] = []
    var warning: DecodingWarning?
    /// A video poster's play mark and duration, rasterized once (white on a dark pill).
    var badge: CoverageMask?
}

/// Decodes and sizes one card's image and sets its caption: the work of a decoding worker.
struct CardDecoding: Sendable {
    let sheet: ContactSheet
    let decoder: ImageDecoder
    /// Bytes of decoded pixels all workers may hold together.
    let budget: DecodeBudget
    /// Cards kept between runs, when one is used.
    let cache: CardCache?
    /// The sink draws captions as text (a PDF): the masks hold only their colour glyphs.
    var textAsVectors = false

    /// How much larger than its drawn size an image is decoded, at least (when the file is).
    static let filterHeadroom = 2

    init(sheet: ContactSheet, budget: DecodeBudget = .shared, cache: CardCache? = nil) {
        self.sheet = sheet
        self.cache = cache
        var decoder = ImageDecoder(limits: sheet.options.limits, strict: sheet.options.strict, codecs: sheet.options.codecs)
        decoder.manageColor = sheet.options.colorManagement
        decoder.video = sheet.options.video
        self.decoder = decoder
        self.budget = budget
    }

    func decode(_ job: DecodeJob) -> DecodedCard {
        // Looked up here, on the worker: a page's jobs stay a few bytes each.
        guard let attributes = sheet.layout.element(at: job.path) else { return DecodedCard(image: nil, imageOrigin: .zero) }
        let card = sheet.card(job.path)
        let frame = attributes.imageFrame ?? attributes.frame
        var result = DecodedCard(image: nil, imageOrigin: frame.origin)
        if let caption = card.caption, let captionFrame = attributes.captionFrame {
            let painter = CardPainter(sheet: sheet)
            let set = sheet.captions.layout(caption, width: captionFrame.width)
            result.title = set.title.map { painter.mask($0, width: captionFrame.width, outlines: !textAsVectors) }
            result.description = set.description.map { painter.mask($0, width: captionFrame.width, outlines: !textAsVectors) }
            result.descriptionTop = set.descriptionTop
        }
        if let problem = card.entry.problem {
            result.failure = problem
            return result
        }
        if card.entry.summarizedFailures != nil {
            result.summarized = sheet.summarizedProblems(of: job.path)
            return result
        }
        do {
            try decodeImage(card, attributes: attributes, frame: frame, into: &result)
        } catch {
            result.failure = CardProblem(path: card.entry.path, error: error)
        }
        if result.failure == nil, sheet.options.videoBadge, let video = card.entry.info?.video, video.frameTime == nil {
            result.badge = badge(video, imageWidth: frame.width)
        } else if result.failure == nil, case let marks = card.entry.marks, !marks.isEmpty {
            result.badge = badge(marks.map(\.rawValue).joined(separator: " · "), imageWidth: frame.width)
        }
        return result
    }

    /// A poster's badge: "▶ 1:23" (the play mark alone when the duration is unknown).
    func badge(_ video: VideoInfo, imageWidth: Int) -> CoverageMask? {
        badge("▶" + (video.duration.map { " " + VideoInfo.duration($0) } ?? ""), imageWidth: imageWidth)
    }

    /// A badge of `text` (a poster's play mark, a pair's marks), set in the caption's font,
    /// bold, a little smaller; nil on an image too narrow for it.
    func badge(_ text: String, imageWidth: Int) -> CoverageMask? {
        let style = sheet.options.style
        let size = max(9, style.captionSize * 0.85)
        guard imageWidth >= Int(size * 5) else { return nil }
        let textStyle = TextStyle(font: style.font, bold: true, size: size, maximumLines: 1)
        guard let layout = try? sheet.typesetter.layout(text, style: textStyle, width: imageWidth - 24) else { return nil }
        let width = layout.lines.map(\.width).max() ?? 0
        guard width > 0 else { return nil }
        return CardPainter(sheet: sheet).mask(layout, width: width)
    }

    /// The image decoded (shrunk on load, within the budget) and resampled to its frame:
    /// exactly, cropped to fill it, or fitted inside it.
    func decodeImage(_ card: SheetCard, attributes: LayoutAttributes, frame: Rect, into result: inout DecodedCard) throws(ImageDecodingError) {
        let scaling = attributes.imageScaling ?? .exact
        let aspect = card.entry.orientedSize.map { (Double($0.width), Double($0.height)) }
        // For a letterboxed (fit) image the drawn size is smaller than the frame.
        var target = frame
        if scaling == .fit, let aspect { target = aspectFit(aspectRatio: aspect, insideRect: frame) }
        var minimum = target.size
        if scaling == .fill, let aspect {
            // Cropping: the decoded image must cover the frame on both sides.
            minimum = aspectFill(aspectRatio: aspect, coveringRect: frame).size
        }
        // Shrink-on-load leaves the resampling filter at least a factor of two (as libvips
        // does): a scaled IDCT or a block average alone aliases, the filter does not.
        minimum = Size(width: minimum.width * Self.filterHeadroom, height: minimum.height * Self.filterHeadroom)
        let source: Bitmap
        let extent: ImageExtent
        var storeKey: CacheDigest?
        var servedIdentity: ContentIdentity?
        if let bitmap = card.entry.bitmap {
            source = bitmap
            extent = (0, 0, Double(bitmap.width), Double(bitmap.height))
        } else if let pixels = card.entry.pixels {
            budget.reserve(pixels.bytes)
            defer { budget.release(pixels.bytes) }
            source = try pixels.make()
            extent = (0, 0, Double(source.width), Double(source.height))
        } else {
            // A card kept by an earlier run: no decode at all.
            var cached: (key: CacheDigest, bytes: [UInt8]?)?
            if let cache, let info = card.entry.info, let version = decoder.codecs.codec(of: info.format)?.cacheVersion,
                let content = cache.contentDigestAndIdentity(of: card.entry.path)
            {
                servedIdentity = content.identity
                let key = cardKey(target: target, scaling: scaling, minimum: minimum, codec: version, frameTime: info.video?.frameTime).key(content: content.digest, codeVersion: cache.codeVersion)
                if let hit = cache.card(key) {
                    result.image = hit.image
                    result.warning = hit.warning.map { DecodingWarning(path: card.entry.path, message: $0.message, count: $0.count, isDataLoss: $0.isDataLoss) }
                    result.imageOrigin = target.origin
                    return
                }
                cached = (key, content.bytes)
            }
            storeKey = cached?.key
            let bytes = card.entry.info.map { decoder.decodedBytes($0, minimumSize: minimum) } ?? 0
            budget.reserve(bytes)
            defer { budget.release(bytes) }
            // The catalog's probe read the headers: the decode does not read them again.
            let decoded: DecodedImage
            if let info = card.entry.info, let read = cached?.bytes {
                decoded = try decoder.decode(bytes: read, path: card.entry.path, probed: info, minimumSize: minimum)
            } else if let info = card.entry.info {
                decoded = try decoder.decode(card.entry.path, probed: info, minimumSize: minimum)
            } else {
                decoded = try decoder.decode(card.entry.path, minimumSize: minimum)
            }
            result.warning = decoded.warning
            source = decoded.bitmap
            extent = decoded.extent
        }
        let filter = sheet.options.filter
        switch scaling {
        case .fill:
            result.image = source.resampledToFill(width: target.width, height: target.height, filter: filter, extent: extent, focus: sheet.options.cropMode)
        case .exact, .fit: result.image = source.resampled(width: target.width, height: target.height, filter: filter, extent: extent)
        }
        result.imageOrigin = target.origin
        // Stored only when the bytes decoded were the content the key names: read with the
        // digest, or read later from a file whose identity has not moved since the index
        // vouched for it.
        if let cache, let storeKey, let image = result.image, servedIdentity.map({ cache.stillIdentical(card.entry.path, $0) }) ?? true {
            cache.store(CachedCard(image: image, warning: result.warning), for: storeKey)
        }
    }

    /// Everything besides the file's content that decides the card's pixels.
    /// `frameTime`: the frame of an animation the card shows (one file, several cards).
    func cardKey(target: Rect, scaling: ImageScaling, minimum: Size, codec: String, frameTime: Double? = nil) -> CardKey {
        let options = sheet.options
        var key = CardKey()
        key.add("codec", codec)
        if let frameTime { key.add("frame", frameTime) }
        key.add("size", "\(target.width)x\(target.height)")
        key.add("minimum", "\(minimum.width)x\(minimum.height)")
        key.add("scaling", scaling)
        key.add("filter", options.filter)
        key.add("crop", options.cropMode)
        key.add("color", decoder.manageColor)
        key.add("strict", decoder.strict)
        key.add("limits", decoder.limits)
        return key
    }
}
