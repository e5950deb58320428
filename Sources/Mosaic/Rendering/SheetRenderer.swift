import Foundation

/// What a render did.
public struct RenderSummary: Sendable {
    /// The files written, one per page.
    public var files: [String]
    /// Cards drawn from their image.
    public var rendered: Int
    /// Inputs that became placeholder cards: "path: reason".
    public var failures: [String]
    /// Inputs decoded with a warning (damaged data worked around).
    public var warnings: [String]
    /// Characters no font has (drawn as boxes).
    public var missingCharacters: [Unicode.Scalar]
}

/// Progress of a render: cards composited so far, of all.
public struct RenderProgress: Sendable {
    public var done: Int
    public var total: Int
}

/// One card to decode: where it is, what it needs.
struct DecodeJob: Sendable {
    var path: ItemPath
    var page: Int
    var minY: Int
    var maxY: Int
    var attributes: LayoutAttributes
    var card: SheetCard
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
    var failure: String?
    var warning: String?
}

/// Decodes cards ahead of the compositor on a few threads, in the order the compositor
/// needs them (top to bottom), no further than `lookahead` pixels below the band being
/// drawn, so memory stays bounded by the sheet's width times the tallest cards.
final class DecodePipeline: @unchecked Sendable {
    let jobs: [DecodeJob]
    private let condition = NSCondition()
    private var next = 0
    private var results: [Int: DecodedCard] = [:]
    private var allowedY = Int.min
    private var cancelled = false
    private var threads: [Thread] = []
    private let decodeOne: @Sendable (DecodeJob) -> DecodedCard

    init(jobs: [DecodeJob], workers: Int, decode: @escaping @Sendable (DecodeJob) -> DecodedCard) {
        self.jobs = jobs
        self.decodeOne = decode
        for n in 0..<max(1, workers) {
            // A strong reference: `finish()` waits for every worker to return and then
            // lets go of the threads, which breaks the cycle.
            let thread = Thread { self.work() }
            thread.name = "mosaic-decode-\(n)"
            thread.stackSize = 4 << 20
            threads.append(thread)
        }
    }

    /// Workers started and not yet returned.
    private var running = 0

    func start() {
        condition.lock()
        running = threads.count
        condition.unlock()
        threads.forEach { $0.start() }
    }

    /// Lets the workers decode every card that starts above `y`.
    func allow(upTo y: Int) {
        condition.lock()
        if y > allowedY {
            allowedY = y
            condition.broadcast()
        }
        condition.unlock()
    }

    private func work() {
        while true {
            condition.lock()
            while !cancelled && next < jobs.count && jobs[next].minY >= allowedY { condition.wait() }
            if cancelled || next >= jobs.count {
                running -= 1
                condition.broadcast()
                condition.unlock()
                return
            }
            let index = next
            next += 1
            condition.unlock()
            let result = decodeOne(jobs[index])
            condition.lock()
            results[index] = result
            condition.broadcast()
            condition.unlock()
        }
    }

    /// The decoded card `index`, waiting for it if needed.
    func result(_ index: Int) -> DecodedCard {
        condition.lock()
        defer { condition.unlock() }
        if jobs[index].minY >= allowedY {
            allowedY = jobs[index].minY + 1
            condition.broadcast()
        }
        while results[index] == nil { condition.wait() }
        return results[index]!
    }

    /// Frees a card's pixels once the band has passed it.
    func release(_ index: Int) {
        condition.lock()
        results[index] = nil
        condition.unlock()
    }

    /// Stops the workers (after the job each is doing) and waits for them.
    func finish() {
        condition.lock()
        cancelled = true
        condition.broadcast()
        while running > 0 { condition.wait() }
        condition.unlock()
        threads.removeAll()
    }
}

/// Draws a contact sheet page by page, band by band, into PNG files.
public struct SheetRenderer: Sendable {
    public let sheet: ContactSheet
    /// Rows per band.
    public var bandHeight = 256
    /// How far below the band the decoders may run ahead, pixels.
    public var lookahead = 2048

    public init(sheet: ContactSheet) {
        self.sheet = sheet
    }

    /// Renders every page. With `strict`, any input that fails (unreadable, corrupt,
    /// damaged) stops the render and nothing is written. The files appear only when every
    /// page is complete (each written beside its destination, then renamed).
    public func render(to output: String, progress: (@Sendable (RenderProgress) -> Void)? = nil) throws(SheetError) -> RenderSummary {
        let options = sheet.options
        let paths = sheet.pagePaths(for: output)
        // Never write over an input.
        let inputs = Set(sheet.catalog.entries.map { URL(fileURLWithPath: $0.path).standardizedFileURL.resolvingSymlinksInPath().path })
        for path in paths where inputs.contains(URL(fileURLWithPath: path).standardizedFileURL.resolvingSymlinksInPath().path) {
            throw .outputIsAnInput(path: path)
        }
        var failures: [String] = []
        var warnings: [String] = []
        let probeFailures = sheet.catalog.entries.compactMap(\.failure)
        if options.strict && !probeFailures.isEmpty { throw .inputsFailed(probeFailures) }

        let total = sheet.layout.cardCount
        var done = 0
        var rendered = 0
        var writers: [PNGWriter] = []
        for page in 0..<sheet.layout.pageCount {
            let size = sheet.layout.pageSize(page)
            let writer: PNGWriter
            do {
                writer = try PNGWriter(
                    path: paths[page], width: size.width, height: size.height, hasAlpha: !options.style.background.isOpaque,
                    compressionLevel: options.compressionLevel, software: "mosaic", limits: options.limits)
            } catch {
                throw .output(error)
            }
            writers.append(writer)
            let jobs = decodeJobs(page: page)
            let indexOf = Dictionary(uniqueKeysWithValues: jobs.enumerated().map { ($1.path, $0) })
            let pipeline = DecodePipeline(jobs: jobs, workers: options.jobs) { job in self.decode(job) }
            pipeline.allow(upTo: lookahead)
            pipeline.start()
            defer { pipeline.finish() }
            var live: Set<Int> = []
            var drawn: Set<Int> = []
            let reach = options.style.shadowReach
            var top = 0
            while top < size.height {
                let rows = min(bandHeight, size.height - top)
                pipeline.allow(upTo: top + rows + lookahead)
                var canvas = Canvas(bitmap: Bitmap(width: size.width, height: rows, fill: options.style.background.premultiplied), top: top)
                let band = Rect(x: -reach, y: top - reach, width: size.width + 2 * reach, height: rows + 2 * reach)
                for element in sheet.layout.elements(in: band, page: page) {
                    switch element.kind {
                    case .decoration: drawDecoration(element, on: &canvas)
                    case .header, .footer: drawText(element, on: &canvas)
                    case .card:
                        guard let index = indexOf[element.itemPath!] else { continue }
                        let decoded = pipeline.result(index)
                        live.insert(index)
                        if drawn.insert(index).inserted {
                            if let failure = decoded.failure { failures.append(failure) } else { rendered += 1 }
                            if let warning = decoded.warning { warnings.append(warning) }
                            if options.strict, let problem = decoded.failure ?? decoded.warning {
                                writers.forEach { $0.abandon() }
                                throw .inputsFailed([problem])
                            }
                        }
                        drawCard(element, decoded, on: &canvas)
                    }
                }
                // Free the cards the next band will not reach.
                for index in live where jobs[index].maxY + reach <= top + rows {
                    pipeline.release(index)
                    live.remove(index)
                    done += 1
                    progress?(RenderProgress(done: done, total: total))
                }
                do {
                    try writer.write(canvas.bitmap)
                } catch {
                    writers.forEach { $0.abandon() }
                    throw .output(error)
                }
                top += rows
            }
            for _ in live {
                done += 1
                progress?(RenderProgress(done: done, total: total))
            }
            do {
                try writer.finish(moveIntoPlace: false)
            } catch {
                writers.forEach { $0.abandon() }
                throw .output(error)
            }
        }
        // Every page is complete: move them all into place.
        for writer in writers {
            do { try writer.moveIntoPlace() } catch { throw .output(error) }
        }
        return RenderSummary(
            files: paths, rendered: rendered, failures: failures,
            warnings: warnings, missingCharacters: Array(sheet.typesetter.fonts.missingCharacters).sorted { $0.value < $1.value })
    }

    /// The cards of a page, top to bottom.
    func decodeJobs(page: Int) -> [DecodeJob] {
        let cards = sheet.layout.elements(onPage: page).filter { $0.kind == .card }
        return cards.map { element in
            DecodeJob(path: element.itemPath!, page: page, minY: element.frame.minY, maxY: element.frame.maxY, attributes: element, card: sheet.card(element.itemPath!))
        }.sorted { ($0.minY, $0.path) < ($1.minY, $1.path) }
    }

    /// Decodes and sizes one card's image and sets its caption (on a worker thread).
    func decode(_ job: DecodeJob) -> DecodedCard {
        let options = sheet.options
        let frame = job.attributes.imageFrame!
        var result = DecodedCard(image: nil, imageOrigin: frame.origin)
        if let caption = job.card.caption, let captionFrame = job.attributes.captionFrame {
            let set = sheet.captions.layout(caption, width: captionFrame.width)
            result.title = set.title.map { mask($0, width: captionFrame.width) }
            result.description = set.description.map { mask($0, width: captionFrame.width) }
            result.descriptionTop = set.descriptionTop
        }
        if let failure = job.card.entry.failure {
            result.failure = failure
            return result
        }
        let decoder = ImageDecoder(limits: options.limits, strict: options.strict)
        let scaling = job.attributes.imageScaling ?? .exact
        do {
            // For a letterboxed (fit) image the drawn size is smaller than the frame.
            var target = frame
            if scaling == .fit, let info = job.card.entry.info {
                target = aspectFit(aspectRatio: (Double(info.orientedWidth), Double(info.orientedHeight)), insideRect: frame)
            }
            var minimum = Size(width: target.width, height: target.height)
            if scaling == .fill, let info = job.card.entry.info {
                // Cropping: the decoded image must cover the frame on both sides.
                let cover = aspectFill(aspectRatio: (Double(info.orientedWidth), Double(info.orientedHeight)), coveringRect: frame)
                minimum = Size(width: cover.width, height: cover.height)
            }
            // Large decodes (a full-size PNG) wait for each other: workers together hold
            // at most `DecodeBudget.shared` bytes of decoded pixels.
            let bytes = job.card.entry.info.map { decoder.decodedBytes($0, minimumSize: minimum) } ?? 0
            DecodeBudget.shared.reserve(bytes)
            defer { DecodeBudget.shared.release(bytes) }
            let decoded = try decoder.decode(job.card.entry.path, minimumSize: minimum)
            if let warning = decoded.warning { result.warning = warning.description }
            switch scaling {
            case .fill:
                result.image = decoded.bitmap.resampledToFill(width: target.width, height: target.height, filter: options.filter)
            case .exact, .fit:
                result.image = decoded.bitmap.resampled(width: target.width, height: target.height, filter: options.filter)
            }
            result.imageOrigin = target.origin
        } catch {
            result.failure = error.description
        }
        return result
    }

    func drawDecoration(_ element: LayoutAttributes, on canvas: inout Canvas) {
        guard let color = sheet.options.style.sectionBackground else { return }
        canvas.fillRoundedRect(element.frame, radius: sheet.options.style.sectionRadius, color: color.premultiplied)
    }

    func drawText(_ element: LayoutAttributes, on canvas: inout Canvas) {
        let text = element.kind == .header ? sheet.headers[element.section] : sheet.footers[element.section]
        guard let text, !text.isEmpty else { return }
        let style = element.kind == .header ? sheet.headerStyle : sheet.footerStyle
        let color = element.kind == .header ? sheet.options.style.headerColor : sheet.options.style.footerColor
        guard let layout = try? sheet.typesetter.layout(text, style: style, width: element.frame.width) else { return }
        canvas.draw(mask(layout, width: element.frame.width), at: element.frame.origin, color: color.premultiplied)
    }

    func drawCard(_ element: LayoutAttributes, _ decoded: DecodedCard, on canvas: inout Canvas) {
        let style = sheet.options.style
        let frame = element.frame
        if style.shadowColor.alpha > 0 {
            let shadowRect = Rect(x: frame.minX + style.shadowOffsetX, y: frame.minY + style.shadowOffsetY, width: frame.width, height: frame.height)
            canvas.shadow(
                shadowRect, radius: style.cornerRadius, blur: style.shadowBlur, color: style.shadowColor.premultiplied,
                hidden: style.cardBackground.isOpaque ? frame : nil)
        }
        canvas.fillRoundedRect(frame, radius: style.cornerRadius, color: style.cardBackground.premultiplied)
        let imageFrame = element.imageFrame!
        // The image's corners follow the card's, less the padding between them.
        let imageRadius = max(0, style.cornerRadius - sheet.options.padding / 2)
        if let image = decoded.image {
            let clip = Rect(
                x: max(imageFrame.minX, decoded.imageOrigin.x), y: max(imageFrame.minY, decoded.imageOrigin.y),
                width: min(imageFrame.width, image.width), height: min(imageFrame.height, image.height))
            canvas.draw(image, at: decoded.imageOrigin, clipRect: clip, radius: imageRadius)
        } else {
            drawPlaceholder(imageFrame, name: element.itemPath.map { sheet.card($0).entry.name } ?? "", radius: imageRadius, on: &canvas)
        }
        if style.borderWidth > 0 {
            canvas.strokeRoundedRect(frame, radius: style.cornerRadius, lineWidth: style.borderWidth, color: style.borderColor.premultiplied)
        }
        if let captionFrame = element.captionFrame {
            if let title = decoded.title {
                canvas.draw(title, at: captionFrame.origin, color: style.titleColor.premultiplied)
            }
            if let description = decoded.description {
                canvas.draw(description, at: Point(x: captionFrame.minX, y: captionFrame.minY + decoded.descriptionTop), color: style.captionColor.premultiplied)
            }
        }
    }

    /// `layout` drawn into a coverage mask `width` pixels wide and as tall as the text.
    func mask(_ layout: TextLayout, width: Int) -> CoverageMask {
        var mask = CoverageMask(width: width, height: max(1, layout.height))
        sheet.typesetter.draw(layout, into: &mask, x: 0, y: 0)
        return mask
    }

    /// A card for an input that could not be drawn: a hatched grey panel naming the file.
    func drawPlaceholder(_ frame: Rect, name: String, radius: Int, on canvas: inout Canvas) {
        let style = sheet.options.style
        let dark = style.background.red < 128
        canvas.fillRoundedRect(frame, radius: radius, color: dark ? RGBA(red: 0x37, green: 0x2A, blue: 0x2A) : RGBA(red: 0xFD, green: 0xE8, blue: 0xE8))
        canvas.strokeRoundedRect(frame, radius: radius, lineWidth: 2, color: RGBA(red: 0xDC, green: 0x26, blue: 0x26))
        let textStyle = TextStyle(font: style.font, bold: true, size: max(10, style.captionSize), maximumLines: 3, alignment: .center)
        let message = "⚠ cannot read\n\(name)"
        guard frame.width > 8, let layout = try? sheet.typesetter.layout(message, style: textStyle, width: frame.width - 8) else { return }
        canvas.draw(mask(layout, width: frame.width - 8), at: Point(x: frame.minX + 4, y: frame.minY + max(0, (frame.height - layout.height) / 2)), color: RGBA(red: 0xB9, green: 0x1C, blue: 0x1C))
    }
}

/// A budget of decoded-pixel bytes shared by the decoding workers: a decode waits while
/// others hold the budget, so a folder of huge PNGs does not decode several at once. One
/// decode larger than the whole budget still runs, alone.
final class DecodeBudget: @unchecked Sendable {
    static let shared = DecodeBudget(bytes: 512 << 20)

    private let condition = NSCondition()
    private let total: Int
    private var used = 0

    init(bytes: Int) { total = bytes }

    func reserve(_ bytes: Int) {
        let amount = min(bytes, total)
        condition.lock()
        while used > 0 && used + amount > total { condition.wait() }
        used += amount
        condition.unlock()
    }

    func release(_ bytes: Int) {
        condition.lock()
        used -= min(bytes, total)
        condition.broadcast()
        condition.unlock()
    }
}
