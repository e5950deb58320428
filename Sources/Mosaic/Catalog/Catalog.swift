import Dispatch
import Foundation
import MosaicSync

/// The inputs of a sheet, in sections, built from image headers only.
public struct Catalog: Sendable {
    /// The sections, in order.
    public var sections: [CatalogSection]
    /// A title for the whole sheet (a manifest's "title").
    public var title: String?
    /// Files that are not images (by signature).
    public var skippedFiles: [String] = []
    /// Images in a format mosaic has no codec for (BMP, JPEG 2000, Photoshop...: `ImageSignatures`), left
    /// out: named in the summary, and a failure with `--strict`.
    public var unreadableImages: [CardProblem] = []
    /// Hidden files and folders (names starting with a dot), not looked at.
    public var hiddenCount = 0
    /// Folders seen twice through symbolic links (a loop), not entered again.
    public var symlinkLoops: [String] = []
    /// Subfolders that could not be listed (`--recursive`): left out, with a warning.
    public var unreadableFolders: [CatalogError] = []
    /// Subfolders of a folder read without `recursive`: not looked in.
    public var unvisitedFolders = 0
    /// Photos left out by `keepingRated(atLeast:)` (`--min-rating`).
    public var belowRating = 0

    /// A catalog of `sections` (for programs that list the inputs themselves).
    public init(sections: [CatalogSection], title: String? = nil) {
        self.sections = sections
        self.title = title
    }

    /// Every entry, in order (a copy: for a walk, `allEntries`).
    public var entries: [CatalogEntry] { sections.flatMap(\.entries) }
    /// Every entry, in order, without a copy of them all.
    public var allEntries: FlattenSequence<LazyMapSequence<[CatalogSection], CatalogEntries>> { sections.lazy.map(\.entries).joined() }
    /// The same catalog with its entries' records in one temporary file, every section's
    /// after the one before (`CatalogEntries.spilled`): one descriptor, however many sections.
    public func spilled() -> Catalog {
        guard sections.contains(where: { !$0.entries.isEmpty }), let file = CatalogEntries.SpillFile() else { return self }
        var moved = self
        for i in moved.sections.indices { moved.sections[i].entries = moved.sections[i].entries.spilled(into: file) }
        return moved
    }

    /// Every entry's path, in order.
    public var paths: [String] { allEntries.map(\.path) }

    /// What `--strict` refuses before drawing: entries whose headers could not be read,
    /// images left out because mosaic cannot read their format, subfolders that could not
    /// be listed (each as an input that cannot be read), and the inputs a failure-summary
    /// card stands for.
    public var strictProblems: [CardProblem] {
        sections.flatMap { $0.entries.problems.map(\.problem) } + sections.flatMap(\.summarizedProblems) + unreadableImages
            + unreadableFolders.compactMap { folder in
                guard case .unreadableDirectory(let path, let reason) = folder else { return nil }
                return CardProblem(path: path, error: .unreadable(path: path, reason: reason))
            }
    }

    /// How many inputs of a section that cannot be read get placeholder cards of their own;
    /// past it the rest share one card (a folder of 50,000 empty files and one photo drew a
    /// board 2 million pixels tall and failed).
    public static let placeholderLimit = 100

    /// The same catalog where each section keeps its first `limit` entries that could not be
    /// read, and the rest are replaced by one card standing for them all, placed where the
    /// first of them was; they are kept, in order, in `summarizedProblems`.
    public func summarizingFailures(after limit: Int = Catalog.placeholderLimit) -> Catalog {
        var summarized = self
        for i in summarized.sections.indices {
            let entries = summarized.sections[i].entries
            // Counted from the records' extras: no entry is made unless some are summarized.
            let failures = entries.problems
            let failed = failures.count
            guard failed > limit else { continue }
            let firstExtra = failures[limit].index
            var kept = CatalogEntries()
            var problems: [CardProblem] = []
            problems.reserveCapacity(failed - limit)
            let spans = summarized.sections[i].spans
            var keptSpans: [Int: Int] = [:]
            for (index, entry) in entries.enumerated() {
                if index >= firstExtra, let problem = entry.problem {
                    if index == firstExtra { kept.append(.failureSummary(count: failed - limit)) }
                    problems.append(problem)
                } else {
                    if let span = spans[index] { keptSpans[kept.count] = span }
                    kept.append(entry)
                }
            }
            summarized.sections[i].entries = kept
            summarized.sections[i].spans = keptSpans
            summarized.sections[i].summarizedProblems += problems
        }
        return summarized
    }

    // MARK: Folders

    /// The images of a folder, found by signature. With `recursive`, every subfolder (at
    /// any depth) is a section of its own, headed by its path; the folder's own images come
    /// first, unheaded. With `pairs` `.merge` (the default), the files of one stem that
    /// make one photo (`FilePairs`) are one card: the still's, the others its companions,
    /// never probed.
    public static func folder(
        _ path: String, sort: FileOrder = .natural, reverse: Bool = false, recursive: Bool = false, pairs: PairMode = .merge,
        decoder: ImageDecoder = ImageDecoder(), jobs: Int = ProcessInfo.processInfo.activeProcessorCount
    ) throws(CatalogError) -> Catalog {
        guard let status = FileNames.status(path) else { throw .notFound(path: path) }
        guard (status.st_mode & S_IFMT) == S_IFDIR else { throw .notADirectory(path: path) }
        var catalog = Catalog(sections: [])
        var visited: Set<String> = []
        var folders: [(relative: String, files: [String])] = []
        try collect(root: path, relative: "", recursive: recursive, into: &folders, catalog: &catalog, visited: &visited)
        for folder in folders {
            var files = CatalogEntries()
            files.reserveCapacity(folder.files.count)
            let cards = FilePairs.group(folder.files, merge: pairs == .merge)
            // A still and a clip of other names may be a Live Photo: their content
            // identifiers are read (the stills' maker notes; a clip's probe reads its own).
            let byContent = pairs == .merge && FilePairs.mayPairByContent(cards)
            var folderDecoder = decoder
            if byContent { folderDecoder.readsContentIdentifier = true }
            for card in cards {
                guard !card.companions.isEmpty else {
                    files.append(path: path + "/" + card.file, relativePath: card.file)
                    continue
                }
                var entry = CatalogEntry(path: path + "/" + card.file, relativePath: card.file)
                entry.companions = card.companions.map { Companion(role: $0.role, path: path + "/" + $0.file, relativePath: $0.file) }
                files.append(entry)
            }
            var entries = probe(files, decoder: folderDecoder, jobs: jobs, catalog: &catalog)
            if byContent { entries = FilePairs.pairByContentIdentifier(entries) }
            sortEntries(&entries, by: sort, reverse: reverse)
            if entries.isEmpty { continue }
            catalog.sections.append(CatalogSection(header: folder.relative.isEmpty ? nil : folder.relative, entries: entries))
        }
        if catalog.sections.isEmpty {
            throw .noImages(
                path: path, skipped: catalog.skippedFiles.count, unreadable: catalog.unreadableImages, subfolders: catalog.unvisitedFolders,
                readable: decoder.codecs.names)
        }
        return catalog
    }

    static func collect(
        root: String, relative: String, recursive: Bool, into folders: inout [(relative: String, files: [String])],
        catalog: inout Catalog, visited: inout Set<String>
    ) throws(CatalogError) {
        let directory = relative.isEmpty ? root : root + "/" + relative
        // A folder is known by its device and inode: a symbolic link back up is a loop.
        if let status = FileNames.status(directory) {
            let identity = "\(status.st_dev):\(status.st_ino)"
            if visited.contains(identity) {
                catalog.symlinkLoops.append(directory)
                return
            }
            visited.insert(identity)
        }
        // Listed with readdir: a name that is not valid UTF-8 keeps its bytes (FileNames).
        guard let names = FileNames.contentsOfDirectory(directory) else {
            let problem = CatalogError.unreadableDirectory(path: directory, reason: String(cString: strerror(errno)))
            // The folder named fails the run; a subfolder of it is left out with a warning.
            if relative.isEmpty { throw problem }
            catalog.unreadableFolders.append(problem)
            return
        }
        var files: [String] = []
        var subfolders: [String] = []
        for name in names.sorted(by: naturalLess) {
            if name.hasPrefix(".") {
                catalog.hiddenCount += 1
                continue
            }
            let child = relative.isEmpty ? name : relative + "/" + name
            guard let status = FileNames.status(root + "/" + child) else {
                files.append(child)  // a dangling link: reported when probed
                continue
            }
            if (status.st_mode & S_IFMT) == S_IFDIR {
                if recursive { subfolders.append(child) } else { catalog.unvisitedFolders += 1 }
            } else {
                files.append(child)
            }
        }
        folders.append((relative, files))
        for folder in subfolders {
            try collect(root: root, relative: folder, recursive: recursive, into: &folders, catalog: &catalog, visited: &visited)
        }
    }

    /// Probes files on `jobs` threads; keeps images and files that look broken, in order.
    /// Files that are not images are counted in `catalog.skippedFiles`, or, with
    /// `keepingOthers` (the user named them), kept as failures in their place.
    static func probe(
        _ files: CatalogEntries, decoder: ImageDecoder, jobs: Int, catalog: inout Catalog, keepingOthers: Bool = false
    ) -> CatalogEntries {
        let results = ProbeResults(files)
        let work: @Sendable (Int) -> Void = { (i: Int) in
            var entry = files[i]
            let (path, relative) = (entry.path, entry.relativePath)
            // The probe's own fstat gives the size and time; a file it could not open is
            // looked at by path (a FIFO's or a folder's facts).
            var status = stat()
            let probed: Result<ImageInfo, ImageDecodingError>
            do throws(ImageDecodingError) { probed = .success(try decoder.probe(path, fileStatus: &status)) } catch { probed = .failure(error) }
            if let facts = status.st_ino != 0 ? status : FileNames.status(path) {
                entry.fileSize = Int(facts.st_size)
                entry.modified = Double(facts.st_mtim.tv_sec) + Double(facts.st_mtim.tv_nsec) / 1e9
            }
            switch probed {
            case .success(var info):
                if decoder.readsXMP { readSidecars(of: entry, into: &info) }
                entry.info = info
                results.set(i, .image(entry))
            case .failure(let error):
                // Skipped wherever it was found: a FIFO, socket or device (never read).
                if case .notAFile = error {
                    results.set(i, .skipped(relative))
                    return
                }
                // A clip without video (a voice memo in an MP4) found in a folder: left out
                // and named; named by the user, a placeholder in its place.
                if case .video(_, .noVideoStream) = error, !keepingOthers {
                    results.set(i, .unreadable(CardProblem(path: path, error: error)))
                    return
                }
                // Skipped: a file that is not an image and does not claim to be one by its
                // name. A "photo.jpg" of zero bytes or garbage is a failure to report.
                if case .unsupportedFormat(_, let signature, _) = error, !keepingOthers, !decoder.codecs.claims(name: relative) {
                    let known = ImageSignatures.unreadableFormat(signature) != nil
                    results.set(i, known ? .unreadable(CardProblem(path: path, error: error)) : .skipped(relative))
                } else {
                    // Kept in its place: a file the user named, or an image that is broken.
                    entry.problem = CardProblem(path: path, error: error)
                    results.set(i, .image(entry))
                }
            }
        }
        if jobs > 1 && files.count > 8 {
            DispatchQueue.concurrentPerform(iterations: files.count, execute: work)
        } else {
            for i in files.indices { work(i) }
        }
        var (entries, others) = results.finish()
        var left: Set<Int> = []
        for (i, result) in others.sorted(by: { $0.key < $1.key }) {
            switch result {
            case .image(let entry): entries[i] = entry
            case .skipped(let relative):
                catalog.skippedFiles.append(relative)
                left.insert(i)
            case .unreadable(let problem):
                catalog.unreadableImages.append(problem)
                left.insert(i)
            }
        }
        return left.isEmpty ? entries : entries.filtered { !left.contains($0) }
    }

    /// The rating, title and description of `entry`'s XMP sidecars (`Companion.Role.sidecar`)
    /// over what its own file says; the sidecar that names the whole file (`IMG_1.CR2.xmp`)
    /// over one that names its stem (`IMG_1.xmp`). A sidecar that cannot be read adds nothing.
    static func readSidecars(of entry: CatalogEntry, into info: inout ImageInfo) {
        let sidecars = entry.companions.filter { $0.role == .sidecar }
        guard !sidecars.isEmpty else { return }
        let wholeName = sidecars.filter { FilePairs.split($0.relativePath).stem.count > FilePairs.split(entry.relativePath).stem.count }
        for sidecar in sidecars.filter({ s in !wholeName.contains(s) }) + wholeName {
            guard let (bytes, _) = try? FileBytes.read(sidecar.path, limit: Self.sidecarLimit) else { continue }
            let fields = XMPPacket.fields(bytes[...])
            if !fields.isEmpty { info.shooting = (info.shooting ?? ShootingData()).overridden(by: fields) }
        }
    }

    /// The most of a sidecar read (a Lightroom sidecar is a few kilobytes).
    static let sidecarLimit = 4 << 20

    enum ProbeResult: Sendable {
        case image(CatalogEntry)
        case skipped(String)
        case unreadable(CardProblem)
    }

    /// What the probing threads learn, each about its own entries: an image's header facts
    /// packed into its record in place (without a lock: each thread writes its own
    /// records), anything else (a problem, a skipped file, facts without codes) aside.
    final class ProbeResults: @unchecked Sendable {
        private var entries: CatalogEntries
        private let records: UnsafeMutableBufferPointer<CatalogEntries.Record>
        private let others = Locked<[Int: ProbeResult]>([:])

        init(_ files: CatalogEntries) {
            var files = files
            files.load()
            entries = files
            records = .allocate(capacity: files.records.count)
            _ = records.initialize(from: files.records)
        }

        deinit { records.deallocate() }

        func set(_ i: Int, _ value: ProbeResult) {
            // Packed in place also when the entry keeps the captions it came with (a
            // manifest's): its record still points to them. Set aside, every captioned card
            // held a whole entry in the table and was packed again with a new box.
            if case .image(let entry) = value, let info = entry.info, entry.rare == nil || entry.rare === entries.extra(records[i])?.rare {
                var record = records[i]
                if record.pack(info) {
                    record.fileSize = entry.fileSize
                    record.modified = entry.modified
                    records[i] = record
                    return
                }
            }
            others.withLock { $0[i] = value }
        }

        /// After every thread: the entries and the results kept aside, by index.
        func finish() -> (CatalogEntries, [Int: ProbeResult]) {
            entries.records = Array(records)
            return (entries, others.withLock { $0 })
        }
    }

    static func sortEntries(_ entries: inout CatalogEntries, by order: FileOrder, reverse: Bool) {
        switch order {
        case .natural: entries.sort(on: \.relativePath, by: naturalLess)
        case .name: entries.sort(on: { Array($0.relativePath.utf8) }, by: { $0.lexicographicallyPrecedes($1) })
        case .mtime: entries.sort(on: { ($0.modified, $0.relativePath) }, by: <)
        case .size: entries.sort(on: { ($0.fileSize, $0.relativePath) }, by: <)
        case .date: entries.sort(on: { ($0.info?.captured.map { Double($0.wallClockSeconds) } ?? $0.modified, $0.relativePath) }, by: <)
        case .none: break
        }
        if reverse { entries.reverse() }
    }

    /// Adds `other`'s sections after these (its unheaded one headed by `header`, its
    /// subfolders' headers prefixed with it) and what it skipped.
    public mutating func append(_ other: Catalog, headedBy header: String?) {
        for var section in other.sections {
            if let header {
                section.header = section.header.map { header + "/" + $0 } ?? header
            }
            sections.append(section)
        }
        skippedFiles += other.skippedFiles
        unreadableImages += other.unreadableImages
        hiddenCount += other.hiddenCount
        symlinkLoops += other.symlinkLoops
        unreadableFolders += other.unreadableFolders
        if title == nil { title = other.title }
    }

    /// Leaves out the sheet at `output` and its pages (`NAME-1.png`, `NAME-2.png`, ...)
    /// when mosaic made them (their PNG says Software "mosaic"): a folder's own earlier
    /// sheet is not one of its photos. Counted in `skippedFiles`. Any other file at those
    /// paths stays (and the renderer refuses to write over it).
    public mutating func leaveOut(sheetsAt output: String) {
        let target = URL(fileURLWithPath: output).standardizedFileURL.resolvingSymlinksInPath()
        let folder = target.deletingLastPathComponent().path
        let base = target.deletingPathExtension().lastPathComponent
        let ext = target.pathExtension
        func isSheet(_ entry: CatalogEntry) -> Bool {
            guard entry.info?.software == "mosaic" else { return false }
            let url = URL(fileURLWithPath: entry.path).standardizedFileURL.resolvingSymlinksInPath()
            guard url.deletingLastPathComponent().path == folder, url.pathExtension == ext else { return false }
            return PageNames.isPage(stem: url.deletingPathExtension().lastPathComponent, of: base)
        }
        for i in sections.indices {
            for entry in sections[i].entries where isSheet(entry) { skippedFiles.append(entry.relativePath) }
            sections[i].entries.removeAll(where: isSheet)
        }
        sections.removeAll { $0.entries.isEmpty }
    }

    // MARK: Videos

    /// The same catalog without its videos (`--videos skip`): each counted in
    /// `skippedFiles`; sections left empty are dropped.
    public func leavingOutVideos() -> Catalog {
        var kept = self
        for i in kept.sections.indices {
            for entry in kept.sections[i].entries where entry.info?.video != nil { kept.skippedFiles.append(entry.relativePath) }
            kept.sections[i].entries.removeAll { $0.info?.video != nil }
        }
        kept.sections.removeAll { $0.entries.isEmpty }
        return kept
    }

    // MARK: File lists

    /// The given files, in the given order, as one section. Files that are not images are
    /// placeholder cards (the user named them).
    public static func files(_ paths: [String], decoder: ImageDecoder = ImageDecoder(), jobs: Int = ProcessInfo.processInfo.activeProcessorCount) -> Catalog {
        var files = CatalogEntries()
        files.reserveCapacity(paths.count)
        for path in paths { files.append(path: path, relativePath: path) }
        return Self.files(files, decoder: decoder, jobs: jobs)
    }

    /// The given files (entries known by their paths only), in order, as one section.
    public static func files(_ files: CatalogEntries, decoder: ImageDecoder = ImageDecoder(), jobs: Int = ProcessInfo.processInfo.activeProcessorCount) -> Catalog {
        var catalog = Catalog(sections: [])
        // Named explicitly (the same file may be named twice): a file that is not an image
        // is shown as a failure, not skipped.
        let entries = probe(files, decoder: decoder, jobs: jobs, catalog: &catalog, keepingOthers: true)
        catalog.sections = [CatalogSection(entries: entries)]
        return catalog
    }
}

/// Natural order: runs of digits compare as numbers ("img2" < "img10"), the rest
/// case-insensitively, then byte order as the tie-break.
public func naturalLess(_ a: String, _ b: String) -> Bool {
    // Most names are ASCII: compared as bytes, without a scalar's properties (a folder of
    // 1,000 names took 20 ms to sort a scalar at a time, more than probing its files).
    var a = a, b = b
    if let less = a.withUTF8({ x in b.withUTF8 { y in asciiNaturalLess(x, y) } }) { return less }
    return scalarNaturalLess(a, b)
}

/// `naturalLess` for two ASCII names (digits are `0`...`9`, case folds `A`...`Z`); nil when
/// either is not ASCII.
func asciiNaturalLess(_ x: UnsafeBufferPointer<UInt8>, _ y: UnsafeBufferPointer<UInt8>) -> Bool? {
    var high: UInt8 = 0
    for byte in x { high |= byte }
    for byte in y { high |= byte }
    guard high < 0x80 else { return nil }
    func isDigit(_ byte: UInt8) -> Bool { byte &- UInt8(ascii: "0") < 10 }
    func folded(_ byte: UInt8) -> UInt8 { byte &- UInt8(ascii: "A") < 26 ? byte | 0x20 : byte }
    var i = 0, j = 0
    while i < x.count && j < y.count {
        if isDigit(x[i]) && isDigit(y[j]) {
            var ei = i, ej = j
            while ei < x.count && isDigit(x[ei]) { ei += 1 }
            while ej < y.count && isDigit(y[ej]) { ej += 1 }
            var si = i, sj = j
            while si < ei - 1 && x[si] == UInt8(ascii: "0") { si += 1 }
            while sj < ej - 1 && y[sj] == UInt8(ascii: "0") { sj += 1 }
            if ei - si != ej - sj { return ei - si < ej - sj }
            for k in 0..<(ei - si) where x[si + k] != y[sj + k] { return x[si + k] < y[sj + k] }
            i = ei
            j = ej
        } else {
            let cx = folded(x[i]), cy = folded(y[j])
            if cx != cy { return cx < cy }
            i += 1
            j += 1
        }
    }
    if x.count - i != y.count - j { return x.count - i < y.count - j }
    return x.lexicographicallyPrecedes(y)
}

/// `naturalLess` a Unicode scalar at a time: digits are ASCII decimal digits, the rest
/// compares by its lowercase mapping.
func scalarNaturalLess(_ a: String, _ b: String) -> Bool {
    let x = Array(a.unicodeScalars), y = Array(b.unicodeScalars)
    var i = 0, j = 0
    while i < x.count && j < y.count {
        let dx = x[i].properties.numericType == .decimal && x[i].isASCII
        let dy = y[j].properties.numericType == .decimal && y[j].isASCII
        if dx && dy {
            var ei = i, ej = j
            while ei < x.count && x[ei].isASCII && x[ei].properties.numericType == .decimal { ei += 1 }
            while ej < y.count && y[ej].isASCII && y[ej].properties.numericType == .decimal { ej += 1 }
            // Compare the numbers without leading zeros: by length, then digit by digit.
            var si = i, sj = j
            while si < ei - 1 && x[si] == "0" { si += 1 }
            while sj < ej - 1 && y[sj] == "0" { sj += 1 }
            if ei - si != ej - sj { return ei - si < ej - sj }
            for k in 0..<(ei - si) where x[si + k] != y[sj + k] { return x[si + k].value < y[sj + k].value }
            i = ei
            j = ej
        } else {
            let cx = x[i].properties.lowercaseMapping, cy = y[j].properties.lowercaseMapping
            if cx != cy { return cx < cy }
            i += 1
            j += 1
        }
    }
    if x.count - i != y.count - j { return x.count - i < y.count - j }
    return Array(a.utf8).lexicographicallyPrecedes(Array(b.utf8))
}
