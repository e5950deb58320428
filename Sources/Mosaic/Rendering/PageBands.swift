/// One page being drawn: its cards in the order they are decoded, the decoding pipeline,
/// and which decoded cards are still needed by the bands to come.
struct PageBands {
    let sheet: ContactSheet
    let page: Int
    let lookahead: Int
    let jobs: [DecodeJob]
    /// A card's index in `jobs`.
    let jobIndex: [ItemPath: Int]
    let pipeline: DecodePipeline
    let painter: CardPainter
    /// Cards decoded and not yet passed by the bands.
    var live: Set<Int> = []
    /// Cards drawn at least once (counted in the tally).
    var drawn: Set<Int> = []

    init(sheet: ContactSheet, page: Int, lookahead: Int) {
        self.sheet = sheet
        self.page = page
        self.lookahead = lookahead
        // The cards of the page, top to bottom.
        let cards = sheet.layout.elements(onPage: page).compactMap { element -> DecodeJob? in
            guard element.kind == .card, let path = element.itemPath else { return nil }
            return DecodeJob(path: path, minY: element.frame.minY, maxY: element.frame.maxY, attributes: element, card: sheet.card(path))
        }
        jobs = cards.sorted { ($0.minY, $0.path) < ($1.minY, $1.path) }
        jobIndex = Dictionary(uniqueKeysWithValues: jobs.enumerated().map { ($1.path, $0) })
        let decoding = CardDecoding(sheet: sheet)
        pipeline = DecodePipeline(jobs: jobs, workers: sheet.options.jobs) { decoding.decode($0) }
        painter = CardPainter(sheet: sheet)
    }

    func start() {
        pipeline.allow(upTo: lookahead)
        pipeline.start()
    }

    func finish() { pipeline.finish() }

    /// Rows `top..<top + rows` of the page: every element that reaches them (shadows
    /// included), in z order. Frees the cards the next band will not reach.
    mutating func draw(top: Int, rows: Int, width: Int, tally: inout RenderTally) throws(SheetError) -> Bitmap {
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
                guard let path = element.itemPath, let index = jobIndex[path] else { continue }
                let decoded = pipeline.result(index)
                live.insert(index)
                if drawn.insert(index).inserted { try tally.drew(decoded) }
                try painter.drawCard(element, decoded, on: &canvas)
            }
        }
        for index in live where jobs[index].maxY + reach <= top + rows {
            pipeline.release(index)
            live.remove(index)
            tally.finished()
        }
        return canvas.bitmap
    }

    /// The page is done: every card still held is finished.
    mutating func releaseAll(tally: inout RenderTally) {
        for index in live {
            pipeline.release(index)
            tally.finished()
        }
        live.removeAll()
    }
}
