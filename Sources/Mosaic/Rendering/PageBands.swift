/// One page being drawn: its cards in the order they are decoded, the decoding pipeline,
/// and which decoded cards are still needed by the bands to come.
struct PageBands {
    let sheet: ContactSheet
    let page: Int
    let lookahead: Int
    let jobs: [DecodeJob]
    /// Each section's first card in the board's card order.
    let sectionStart: [Int]
    /// A card's index in `jobs`, by its place in the board's card order (-1 off the page):
    /// four bytes a card, where a dictionary took fifty.
    let jobIndex: [Int32]
    let pipeline: DecodePipeline
    let painter: CardPainter
    /// Cards decoded and not yet passed by the bands, with where each ends.
    var live: [Int: Int] = [:]
    /// Cards drawn at least once (counted in the tally), by job.
    var drawn: [Bool]

    /// - Parameter textAsVectors: the sink draws captions, headers and footers as text (a
    ///   PDF): the bands carry only their colour glyphs.
    init(sheet: ContactSheet, page: Int, lookahead: Int, rows: Range<Int>, cache: CardCache? = nil, textAsVectors: Bool = false) {
        self.sheet = sheet
        self.page = page
        self.lookahead = lookahead
        // The cards of the page, top to bottom: a few bytes each (the worker looks up the
        // rest), walked card by card rather than as the page's list of elements.
        let layout = sheet.layout
        var starts: [Int] = []
        var total = 0
        for section in 0..<layout.sectionCount {
            starts.append(total)
            total += layout.itemCount(inSection: section)
        }
        var cards: [DecodeJob] = []
        let reach = sheet.options.style.shadowReach
        // In the order of their tops: the layout's order on a vertical masonry or grid
        // board (a card goes to the shortest column), else sorted.
        var sorted = true
        var last = (Int.min, DecodeJob(ItemPath(section: 0, item: 0)))
        for section in 0..<layout.sectionCount {
            for item in 0..<layout.itemCount(inSection: section) {
                let path = ItemPath(section: section, item: item)
                guard let element = layout.element(at: path), element.page == page else { continue }
                // Only the cards that reach the rows drawn (their shadows included).
                guard element.frame.maxY + reach > rows.lowerBound, element.frame.minY - reach < rows.upperBound else { continue }
                let job = DecodeJob(path)
                if (element.frame.minY, job) < last { sorted = false }
                last = (element.frame.minY, job)
                cards.append(job)
            }
        }
        if !sorted {
            let tops = cards.map { layout.element(at: $0.path)?.frame.minY ?? 0 }
            cards = cards.indices.sorted { (tops[$0], cards[$0]) < (tops[$1], cards[$1]) }.map { cards[$0] }
        }
        var index = [Int32](repeating: -1, count: total)
        for (n, job) in cards.enumerated() { index[starts[job.path.section] + job.path.item] = Int32(n) }
        jobs = cards
        sectionStart = starts
        jobIndex = index
        drawn = [Bool](repeating: false, count: cards.count)
        var decoding = CardDecoding(sheet: sheet, cache: cache)
        decoding.textAsVectors = textAsVectors
        pipeline = DecodePipeline(jobs: jobs, top: { layout.element(at: $0.path)?.frame.minY ?? 0 }, workers: sheet.options.jobs) { [decoding] in decoding.decode($0) }
        painter = CardPainter(sheet: sheet, textAsVectors: textAsVectors)
    }

    func start() {
        pipeline.allow(upTo: lookahead)
        pipeline.start()
    }

    func finish() { pipeline.finish() }

    /// Rows `top..<top + rows` of the page: every element that reaches them (shadows
    /// included), in z order. Frees the cards the next band will not reach.
    mutating func draw(top: Int, rows: Int, width: Int, tally: inout RenderTally) throws(RenderError) -> Bitmap {
        pipeline.allow(upTo: top + rows + lookahead)
        let style = sheet.options.style
        var canvas = Canvas(bitmap: Bitmap(width: width, height: rows, fill: style.background.premultiplied), top: top)
        let reach = style.shadowReach
        let band = Rect(x: -reach, y: top - reach, width: width + 2 * reach, height: rows + 2 * reach)
        for element in sheet.layout.elements(in: band, page: page) {
            switch element.kind {
            case .decoration: painter.drawDecoration(element, on: &canvas)
            case .header, .footer: try painter.drawText(element, on: &canvas)
            case .card:
                guard let path = element.itemPath, path.section < sectionStart.count else { continue }
                let index = Int(jobIndex[sectionStart[path.section] + path.item])
                guard index >= 0 else { continue }
                let decoded = pipeline.result(index, top: element.frame.minY)
                live[index] = element.frame.maxY
                if !drawn[index] {
                    drawn[index] = true
                    try tally.drew(decoded)
                }
                try painter.drawCard(element, decoded, on: &canvas)
            }
        }
        for (index, maxY) in live where maxY + reach <= top + rows {
            pipeline.release(index)
            live[index] = nil
            tally.finished()
        }
        return canvas.bitmap
    }

    /// The page is done: every card still held is finished.
    mutating func releaseAll(tally: inout RenderTally) {
        for index in live.keys {
            pipeline.release(index)
            tally.finished()
        }
        live.removeAll()
    }
}
