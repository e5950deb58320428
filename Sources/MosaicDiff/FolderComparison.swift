import Foundation
import MosaicImage
import MosaicLayout
import MosaicSync

/// Two folders matched by relative path, or two files.
public struct FolderComparison: Sendable {
    public var results: [PairResult]
    /// FIFOs, sockets and devices found in the folders (never opened): their paths
    /// relative to the folder, in path order, and what each is ("a FIFO (named pipe)").
    public var skippedSpecialFiles: [(path: String, kind: String)] = []
    /// The pairs of the whole run when `results` are one shard's (`DiffShard`): every
    /// shard's, compared or not. Nil for a run in one piece.
    public var pairsInRun: Int?
    /// A shard's comparison: the CRC-64 of every pair dealt in the run (every shard's) with
    /// the digests of its files' bytes (`RunDigest`), the same for every shard of one run
    /// and another for a run over other bytes. Nil for a run in one piece.
    public var pairsDigest: UInt64?

    /// The results of a comparison (or of a merge of its shards' parts).
    public init(results: [PairResult], skippedSpecialFiles: [(path: String, kind: String)] = [], pairsInRun: Int? = nil) {
        self.results = results
        self.skippedSpecialFiles = skippedSpecialFiles
        self.pairsInRun = pairsInRun
    }

    public var changed: [PairResult] { results.filter { $0.status == .changed } }
    public var added: [PairResult] { results.filter { $0.status == .added } }
    public var removed: [PairResult] { results.filter { $0.status == .removed } }
    public var unchanged: [PairResult] { results.filter { $0.status == .unchanged } }
    /// Pairs that differ, but within the tolerance.
    public var withinTolerance: [PairResult] { results.filter { $0.status == .withinTolerance } }
    /// Pairs of which an image could not be read.
    public var failed: [PairResult] { results.filter { $0.status == .failed } }
    /// How many pairs have `status`, without gathering them (100,000 unchanged pairs
    /// are not copied to be counted).
    public func count(of status: PairResult.Status) -> Int {
        results.reduce(0) { $0 + ($1.status == status ? 1 : 0) }
    }
    /// Nothing changed (beyond the tolerance), added, removed or failed.
    public var passes: Bool { results.allSatisfy { $0.status == .unchanged || $0.status == .withinTolerance } }

    /// The pixel memory the pairs in flight may hold together: 1 GiB (a 3840x2160 pair
    /// with its diff image takes about 100 MiB, so several run at once). A pair needing
    /// more than all of it (two 16000x16000 screens declared by 62-byte GIFs) is refused
    /// from its headers, before any pixel memory is taken, as a failed pair
    /// (`PairError.tooMuchMemory`).
    public static let memoryBudget = 1 << 30

    /// Compares `baseline` with `current`: two image files, or two folders whose images
    /// (JPEG or PNG, at any depth, hidden files skipped) are matched by relative path.
    ///
    /// Pairs are decoded and compared on `jobs` threads (default: one per core), under
    /// `memoryBudget`; the results are in path order whatever `jobs` is. The results keep
    /// each pair's figures, not its diff image: with `diffImages`, the diff image of each
    /// pair with differing pixels is written there as it is made (`00001.png`,
    /// `00002.png`, ... in path order; the pair's `diffImagePath`), so that memory holds
    /// only the pairs in flight however many are compared.
    ///
    /// With `shard`, only that shard's pairs are compared and reported (`DiffShard`: every
    /// N-th in the order of the names' bytes; two files make one pair, shard 0's); the
    /// special files skipped are listed by every shard.
    ///
    /// With `rules`, a pair whose relative path a rule's glob matches (the first that
    /// does) is compared and judged by that rule's options and tolerance, and its result's
    /// `rule` says which.
    public static func compare(
        baseline: String, current: String, options: ComparisonOptions = ComparisonOptions(),
        tolerance: DiffTolerance = DiffTolerance(), decoder: ImageDecoder = ImageDecoder(), diffImages: String? = nil,
        jobs: Int? = nil, shard: DiffShard? = nil, rules: [PairRule] = []
    ) throws(DiffError) -> FolderComparison {
        // By the name's bytes (`FileNames`): a name that is not UTF-8 is compared too.
        guard FileNames.status(baseline) != nil else { throw .notFound(path: baseline) }
        guard FileNames.status(current) != nil else { throw .notFound(path: current) }
        let baselineIsFolder = FileNames.isFolder(baseline)
        guard baselineIsFolder == FileNames.isFolder(current) else { throw .kindMismatch(baseline: baseline, current: current) }
        // Pairs of the same size come one after another: their bitmaps reuse the freed
        // heap instead of fresh pages (process-wide; see `Allocator.reuseLargeBlocks`).
        Allocator.reuseLargeBlocks(keepFreed: 256 << 20)
        let work = PairWork(options: options, tolerance: tolerance, decoder: decoder, diffImages: diffImages, rules: rules)
        if !baselineIsFolder {
            let name = (current as NSString).lastPathComponent
            var comparison = FolderComparison(results: [], pairsInRun: shard == nil ? nil : 1)
            if shard?.holds(position: 0) ?? true {
                let pair = Pair(relativePath: name, baseline: baseline, current: current)
                // One pair: its two images decoded at once when there are threads to spare.
                var result = try work.forPair(name).compare(pair, index: 0, decodeTogether: (jobs ?? ProcessInfo.processInfo.activeProcessorCount) > 1)
                result.rule = PairRule.index(in: rules, matching: name)
                result.diffImagePath = try numberDiffImages([result.diffImagePath], in: diffImages)[0]
                comparison.results = [result]
            }
            if shard != nil {
                comparison.pairsDigest = RunDigest.of(
                    names: [name], baseline: { _ in baseline }, current: { _ in current }, known: comparison.results, jobs: jobs)
            }
            return comparison
        }
        // Before any file is read: the images of a folder inside the other would be taken
        // for added or removed pairs of the outer one (and approving would delete them).
        let roots = try apart(baseline, current)
        var specials: [[UInt8]: (path: String, kind: String)] = [:]
        // By the names' bytes: café spelt with é and with e + U+0301 are two files (and two
        // pairs), though Swift's String takes them for one name.
        let left: [[UInt8]: Listed], right: [[UInt8]: Listed]
        do throws(DiffError) {
            // The baseline's folders, by device and inode: the current may share none (a
            // folder mounted in both, whose images approving would delete as removed
            // baselines and then fail to copy as added ones).
            var folders: Set<String> = []
            left = try files(in: baseline, other: roots.current, decoder: decoder, special: &specials, folders: &folders)
            let twice = roots.baseline == roots.current
            var none: Set<String> = []
            right = try files(in: current, other: roots.baseline, decoder: decoder, special: &specials, folders: &none, shared: twice ? [] : folders)
        } catch {
            // Named as given, whichever side holds the link.
            if case .overlapping(_, _, let link) = error { throw .overlapping(baseline: baseline, current: current, link: link) }
            if case .mountedInside(_, _, let folder) = error { throw .mountedInside(baseline: baseline, current: current, folder: folder) }
            throw error
        }
        var results: [PairResult] = []
        // The pairs read (both sides, or an added image alone), and where their results go.
        var pairs: [Pair] = [], both: [Int] = []
        // A name is a pair when it is an image on one side at least.
        let all = Set(left.compactMap { $0.value.isImage ? $0.key : nil }).union(right.compactMap { $0.value.isImage ? $0.key : nil })
            .map { FileNames.string(fromBytes: $0) }
        for path in (shard.map { $0.select(all) } ?? all).sorted(by: FileNames.precedes) {
            let key = FileNames.bytes(of: path)
            let (b, c) = (baseline + "/" + path, current + "/" + path)
            switch (left[key], right[key]) {
            case (.image?, .image?):
                both.append(results.count)
                pairs.append(Pair(relativePath: path, baseline: b, current: c))
                results.append(PairResult(relativePath: path, status: .unchanged, baselinePath: b, currentPath: c))
            case (nil, _):
                // Added: the image is read (and decoded) too, so that what is approved is
                // an image whose bytes the run saw.
                both.append(results.count)
                pairs.append(Pair(relativePath: path, baseline: nil, current: c))
                results.append(PairResult(relativePath: path, status: .added, baselinePath: nil, currentPath: c))
            case (_, nil):
                // Its digest (the bytes, not decoded): an approval deletes it only if the
                // file is still the one listed.
                var removed = PairResult(relativePath: path, status: .removed, baselinePath: b, currentPath: nil)
                removed.baselineDigest = try? ContentDigest.ofFile(b)
                results.append(removed)
            case (.other(let problem)?, _):
                // An image on one side, an empty file, another kind of file, a FIFO or a
                // file that cannot be read on the other: a pair that failed, never an
                // added or a removed one (which approving would create or delete).
                results.append(PairResult(relativePath: path, status: .failed, baselinePath: b, currentPath: c, error: .image(problem.error(path: b, codecs: decoder.codecs))))
            case (_, .other(let problem)?):
                results.append(PairResult(relativePath: path, status: .failed, baselinePath: b, currentPath: c, error: .image(problem.error(path: c, codecs: decoder.codecs))))
            }
        }
        let compared = try work.run(pairs, jobs: jobs ?? ProcessInfo.processInfo.activeProcessorCount)
        let names = try numberDiffImages(compared.map(\.diffImagePath), in: diffImages)
        for (k, index) in both.enumerated() {
            results[index] = compared[k]
            results[index].diffImagePath = names[k]
        }
        if !rules.isEmpty {
            for index in results.indices { results[index].rule = PairRule.index(in: rules, matching: results[index].relativePath) }
        }
        var comparison = FolderComparison(results: results, pairsInRun: shard == nil ? nil : all.count)
        if shard != nil {
            // Every pair of the run, read or not here: what the other shards compare too.
            comparison.pairsDigest = RunDigest.of(
                names: all, baseline: { left[FileNames.bytes(of: $0)] == nil ? nil : baseline + "/" + $0 },
                current: { right[FileNames.bytes(of: $0)] == nil ? nil : current + "/" + $0 }, known: results, jobs: jobs)
        }
        comparison.skippedSpecialFiles = specials.values.sorted { FileNames.precedes($0.path, $1.path) }.map { ($0.path, $0.kind) }
        return comparison
    }

    /// Two files to compare.
    struct Pair: Sendable {
        let relativePath: String, baseline: String?, current: String
    }

    /// What every pair of a comparison shares: how to compare, and where diff images go.
    struct PairWork: Sendable {
        let options: ComparisonOptions
        let tolerance: DiffTolerance
        let decoder: ImageDecoder
        let diffImages: String?
        var rules: [PairRule] = []

        /// The work for the pair at `path`: its rule's options and tolerance, or these.
        func forPair(_ path: String) -> PairWork {
            guard let index = PairRule.index(in: rules, matching: path) else { return self }
            return PairWork(options: rules[index].options, tolerance: rules[index].tolerance, decoder: decoder, diffImages: diffImages)
        }

        /// Compares `pairs` on `jobs` threads under `memoryBudget`: the results in the
        /// pairs' order. An image that cannot be read makes a failed pair (every other
        /// pair is still compared); another error (a diff image that cannot be written)
        /// ends the run: the first pair's in order, so the error too is the same for any
        /// `jobs`.
        func run(_ pairs: [Pair], jobs: Int) throws(DiffError) -> [PairResult] {
            let state = Locked((next: 0, results: [PairResult?](repeating: nil, count: pairs.count), errors: [Int: DiffError]()))
            let budget = DecodeBudget(bytes: FolderComparison.memoryBudget)
            // Fewer pairs than threads: each pair's two images decoded at once.
            let together = pairs.count < jobs
            let worker: @Sendable () -> Void = {
                while true {
                    let index: Int? = state.withLock { s in
                        guard s.next < pairs.count, s.errors.isEmpty else { return nil }
                        s.next += 1
                        return s.next - 1
                    }
                    guard let index else { return }
                    let pair = pairs[index]
                    do throws(DiffError) {
                        let result = try forPair(pair.relativePath).compare(pair, index: index, budget: budget, decodeTogether: together)
                        state.withLock { $0.results[index] = result }
                    } catch {
                        let problem: PairError
                        switch error {
                        case .image(let image): problem = .image(image)
                        case .tooMuchMemory(let path, let bytes, let limit): problem = .tooMuchMemory(path: path, bytes: bytes, limit: limit)
                        default:
                            state.withLock { $0.errors[index] = error }
                            continue
                        }
                        let result = PairResult(
                            relativePath: pair.relativePath, status: .failed, baselinePath: pair.baseline, currentPath: pair.current, error: problem)
                        state.withLock { $0.results[index] = result }
                    }
                }
            }
            let threads = max(1, min(jobs, pairs.count))
            if threads == 1 {
                worker()
            } else {
                let group = DispatchGroup()
                for _ in 0..<threads {
                    group.enter()
                    Thread {
                        worker()
                        group.leave()
                    }.start()
                }
                group.wait()
            }
            let (results, errors) = state.withLock { ($0.results, $0.errors) }
            if let first = errors.keys.min(), let error = errors[first] { throw error }
            return results.compactMap { $0 }
        }

        /// One pair: byte-identical files are equal without decoding (from their headers);
        /// otherwise both are decoded, straight alpha as pixelmatch reads them, and
        /// compared. The pixel memory is reserved from `budget` first (refused, from the
        /// headers, when more than the whole budget). With a folder for diff images, a
        /// pair that differs is scanned a second time to draw its diff image, which is
        /// written as `.pair-INDEX.png` (numbered in order by `numberDiffImages`).
        func compare(_ pair: Pair, index: Int, budget: DecodeBudget? = nil, decodeTogether: Bool = false) throws(DiffError) -> PairResult {
            var straight = decoder
            straight.premultiplyAlpha = false
            guard let baselinePath = pair.baseline else { return try check(added: pair, decoder: straight, budget: budget) }
            let pair = (relativePath: pair.relativePath, baseline: baselinePath, current: pair.current)
            let bytesA: [UInt8], bytesB: [UInt8], infoA: ImageInfo, infoB: ImageInfo
            do throws(ImageDecodingError) {
                bytesA = try straight.fileBytes(pair.baseline)
                bytesB = try straight.fileBytes(pair.current)
                guard let a = try straight.probe(bytes: bytesA, path: pair.baseline) else { throw ImageDecodingError.unreadable(path: pair.baseline, reason: "the headers are incomplete") }
                guard let b = try straight.probe(bytes: bytesB, path: pair.current) else { throw ImageDecodingError.unreadable(path: pair.current, reason: "the headers are incomplete") }
                (infoA, infoB) = (a, b)
            } catch {
                throw .image(error)
            }
            if options.ignoreRegions.isEmpty && bytesA.count == bytesB.count && memcmp(bytesA, bytesB, bytesA.count) == 0 {
                let size = Size(width: infoA.orientedWidth, height: infoA.orientedHeight)
                var difference = ImageDifference(
                    differingPixels: 0, antialiasedPixels: 0, comparedPixels: size.width * size.height, bounds: nil,
                    ssim: options.metric == .ssim ? 1 : nil, largestDelta: 0, size: size, diffImage: nil, sizeMismatch: nil)
                if options.metric == .flip { difference.setScores([], flip: 0) }
                var result = PairResult(
                    relativePath: pair.relativePath, status: tolerance.status(of: difference),
                    baselinePath: pair.baseline, currentPath: pair.current, difference: difference)
                (result.baselineDigest, result.currentDigest) = (ContentDigest(of: bytesA), ContentDigest(of: bytesB))
                return result
            }
            let decodeA = straight.decodedBytes(infoA, minimumSize: nil), decodeB = straight.decodedBytes(infoB, minimumSize: nil)
            let diffBytes = diffImages == nil ? 0 : min(infoA.width * infoA.height, infoB.width * infoB.height) * 4
            let bytes = decodeA + decodeB + diffBytes
            guard bytes <= FolderComparison.memoryBudget else {
                throw .tooMuchMemory(path: decodeA >= decodeB ? pair.baseline : pair.current, bytes: bytes, limit: FolderComparison.memoryBudget)
            }
            budget?.reserve(bytes)
            defer { budget?.release(bytes) }
            let a: Bitmap, b: Bitmap
            do throws(ImageDecodingError) {
                if decodeTogether {
                    let decoded = Locked([Result<Bitmap, ImageDecodingError>?](repeating: nil, count: 2))
                    let reader = straight
                    DispatchQueue.concurrentPerform(iterations: 2) { k in
                        let result = Result { () throws(ImageDecodingError) -> Bitmap in
                            try reader.decode(bytes: k == 0 ? bytesA : bytesB, path: k == 0 ? pair.baseline : pair.current).bitmap
                        }
                        decoded.withLock { $0[k] = result }
                    }
                    // The baseline's error first, as when decoded one after the other.
                    let results = decoded.withLock { $0 }.compactMap { $0 }
                    a = try results[0].get()
                    b = try results[1].get()
                } else {
                    // Together: the current image's rows that are the baseline's are
                    // copied rather than decoded again (two PNGs of one size).
                    let decoded = try straight.decodePair((bytesA, pair.baseline), (bytesB, pair.current))
                    (a, b) = (decoded.0.bitmap, decoded.1.bitmap)
                }
            } catch {
                throw .image(error)
            }
            var difference = ImageComparison.compare(a, b, options: options, premultiplied: false, diffImage: false)
            var diffImagePath: String?
            if let folder = diffImages, !difference.isMatch {
                let path = folder + "/.pair-\(index).png"
                // The marks only: the figures (and the SSIM score) are the first scan's. In
                // FLIP mode the diff image is FLIP's error map.
                var drawing = options
                if drawing.metric == .ssim { drawing.metric = .pixelmatch }
                let image = ImageComparison.compare(a, b, options: drawing, premultiplied: false).diffImage ?? b
                do {
                    try image.writePNG(to: path, hasAlpha: !image.isOpaque, software: nil)
                } catch {
                    throw .cannotWrite(path: path, reason: error.description)
                }
                diffImagePath = path
            }
            difference.diffImage = nil
            var result = PairResult(
                relativePath: pair.relativePath, status: tolerance.status(of: difference),
                baselinePath: pair.baseline, currentPath: pair.current, difference: difference)
            result.diffImagePath = diffImagePath
            (result.baselineDigest, result.currentDigest) = (ContentDigest(of: bytesA), ContentDigest(of: bytesB))
            return result
        }

        /// An added image: read, probed and decoded as a compared one is (under `budget`),
        /// so that one that cannot be read is a failed pair, never approved; its digest
        /// kept for the approval.
        func check(added pair: Pair, decoder: ImageDecoder, budget: DecodeBudget?) throws(DiffError) -> PairResult {
            let bytes: [UInt8], memory: Int
            do throws(ImageDecodingError) {
                bytes = try decoder.fileBytes(pair.current)
                guard let info = try decoder.probe(bytes: bytes, path: pair.current) else {
                    throw ImageDecodingError.unreadable(path: pair.current, reason: "the headers are incomplete")
                }
                memory = decoder.decodedBytes(info, minimumSize: nil)
            } catch {
                throw .image(error)
            }
            // Too large to decode is the comparison's limit, not the image's fault.
            guard memory <= FolderComparison.memoryBudget else {
                throw .tooMuchMemory(path: pair.current, bytes: memory, limit: FolderComparison.memoryBudget)
            }
            budget?.reserve(memory)
            defer { budget?.release(memory) }
            do throws(ImageDecodingError) { _ = try decoder.decode(bytes: bytes, path: pair.current) } catch { throw .image(error) }
            var result = PairResult(relativePath: pair.relativePath, status: .added, currentPath: pair.current)
            result.currentDigest = ContentDigest(of: bytes)
            return result
        }
    }

    /// Renames the diff images written (by pair) to `00001.png`, `00002.png`, ... in the
    /// order given: the names do not depend on which pair finished first.
    static func numberDiffImages(_ written: [String?], in folder: String?) throws(DiffError) -> [String?] {
        guard let folder else { return written }
        var count = 0
        var names: [String?] = []
        for path in written {
            guard let path else {
                names.append(nil)
                continue
            }
            count += 1
            let name = diffImageName(count, in: folder)
            guard rename(path, name) == 0 else { throw .cannotWrite(path: name, reason: String(cString: strerror(errno))) }
            names.append(name)
        }
        return names
    }

    /// The `number`-th diff image's file in `folder` (from 1, in path order): `00001.png`.
    public static func diffImageName(_ number: Int, in folder: String) -> String {
        folder + "/" + String(format: "%05d", number) + ".png"
    }



    /// What a listing found under a name: an image (by its signature), or a regular file
    /// that is not one, a special file or a file that cannot be read (kept: beside an image
    /// of the other side, it makes a failed pair).
    enum Listed {
        case image
        case other(Problem)

        var isImage: Bool {
            if case .image = self { return true }
            return false
        }
    }

    /// Why a file listed is not an image.
    enum Problem {
        /// Its first bytes (none when it is empty).
        case notAnImage(head: [UInt8])
        /// A FIFO, socket or device, or a file that cannot be read.
        case unreadable(ImageDecodingError)

        /// The error of a pair failed for this file, at `path`: "not an image: the file is
        /// empty", as render says it, naming the formats `codecs` (the registry in use) reads.
        func error(path: String, codecs: CodecRegistry) -> ImageDecodingError {
            switch self {
            case .notAnImage(let head): return .unsupportedFormat(path: path, signature: head, readable: codecs.names)
            case .unreadable(let error): return error
            }
        }
    }

    /// The real paths of two folders to compare, refused when one is the other or lies
    /// inside it (through links too).
    static func apart(_ baseline: String, _ current: String) throws(DiffError) -> (baseline: String, current: String) {
        guard let b = FileNames.realPath(baseline) else { throw .notFound(path: baseline) }
        guard let c = FileNames.realPath(current) else { throw .notFound(path: current) }
        // One folder given twice is no overlap: every pair is a file and itself.
        if b != c && overlap(b, c) { throw .overlapping(baseline: baseline, current: current, link: nil) }
        return (b, c)
    }

    /// True when real paths `a` and `b` are one folder or one holds the other.
    static func overlap(_ a: String, _ b: String) -> Bool {
        func inside(_ x: String, _ y: String) -> Bool { x == y || y == "/" || x.hasPrefix(y + "/") }
        return inside(a, b) || inside(b, a)
    }

    /// The files under `root` by their relative paths' bytes, listed with `readdir` so that
    /// every name is kept whatever its bytes (`FileNames`): images by signature, and what
    /// else stands there. Hidden files and folders and folders seen before through a link
    /// are left out; FIFOs, sockets and devices are never opened, and added to `special`
    /// (relative path: kind).
    ///
    /// - Throws: `DiffError.overlapping` for a link that leads into `other` (the other
    ///   folder's real path) or to a folder holding it; `.unreadableDirectory`.
    /// `folders`: the folders listed, by device and inode; `shared`: the other side's, of
    /// which none may be listed here.
    static func files(
        in root: String, other: String, decoder: ImageDecoder, special: inout [[UInt8]: (path: String, kind: String)],
        folders visited: inout Set<String>, shared: Set<String> = []
    ) throws(DiffError) -> [[UInt8]: Listed] {
        var found: [[UInt8]: Listed] = [:]
        // The other folder and every folder holding it, by device and inode: a folder here
        // that is one of them (a mount, which no path shows) holds the other's images.
        var holding: Set<String> = []
        var path = other
        while true {
            if let status = FileNames.status(path.isEmpty ? "/" : path) { holding.insert("\(status.st_dev):\(status.st_ino)") }
            guard let slash = path.lastIndex(of: "/"), !path.isEmpty else { break }
            path = String(path[..<slash])
        }
        let otherIdentity = FileNames.status(other).map { "\($0.st_dev):\($0.st_ino)" }
        try collect(
            root: root, relative: "", other: other, codecs: decoder.codecs, into: &found, special: &special, visited: &visited,
            holding: holding.union(shared), otherIdentity: otherIdentity)
        return found
    }

    /// `files(in:)` for the folder `relative` of `root`.
    static func collect(
        root: String, relative: String, other: String, codecs: CodecRegistry, into found: inout [[UInt8]: Listed],
        special: inout [[UInt8]: (path: String, kind: String)], visited: inout Set<String>, holding: Set<String>, otherIdentity: String?
    ) throws(DiffError) {
        let folder = relative.isEmpty ? root : root + "/" + relative
        if let status = FileNames.status(folder) {
            let identity = "\(status.st_dev):\(status.st_ino)"
            // (One folder given twice is no overlap: every pair is a file and itself.)
            if holding.contains(identity), !(relative.isEmpty && identity == otherIdentity) {
                throw .mountedInside(baseline: root, current: other, folder: folder)
            }
            guard visited.insert(identity).inserted else { return }
        }
        guard let names = FileNames.contentsOfDirectory(folder) else {
            throw .unreadableDirectory(path: folder, reason: String(cString: strerror(errno)))
        }
        for name in names.sorted() where !name.hasPrefix(".") {
            let child = relative.isEmpty ? name : relative + "/" + name
            let path = root + "/" + child
            guard let status = FileNames.status(path) else {
                // A link that leads nowhere (or a file gone since the listing): beside an
                // image of the other side, a pair that failed.
                let reason = String(cString: strerror(errno))
                found[FileNames.bytes(of: child)] = .other(.unreadable(.unreadable(path: path, reason: reason)))
                continue
            }
            if (status.st_mode & S_IFMT) == S_IFDIR {
                var link = stat()
                if FileNames.withSystemPath(path, { lstat($0, &link) }) == 0, (link.st_mode & S_IFMT) == S_IFLNK,
                    let target = FileNames.realPath(path), overlap(target, other)
                {
                    throw .overlapping(baseline: root, current: other, link: path)
                }
                try collect(
                    root: root, relative: child, other: other, codecs: codecs, into: &found, special: &special, visited: &visited,
                    holding: holding, otherIdentity: otherIdentity)
            } else if let kind = FileNames.specialKind(status.st_mode) {
                special[FileNames.bytes(of: child)] = (child, kind)
                found[FileNames.bytes(of: child)] = .other(.unreadable(.notAFile(path: path, kind: kind)))
            } else if (status.st_mode & S_IFMT) == S_IFREG {
                do {
                    let head = try FileBytes.read(path, limit: 16).bytes
                    found[FileNames.bytes(of: child)] = ImageFormat.detect(head, in: codecs) != nil ? .image : .other(.notAnImage(head: head))
                } catch {
                    found[FileNames.bytes(of: child)] = .other(.unreadable(error))
                }
            }
        }
    }
}
