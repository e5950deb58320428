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
    public static func compare(
        baseline: String, current: String, options: ComparisonOptions = ComparisonOptions(),
        tolerance: DiffTolerance = DiffTolerance(), decoder: ImageDecoder = ImageDecoder(), diffImages: String? = nil,
        jobs: Int? = nil, shard: DiffShard? = nil
    ) throws(DiffError) -> FolderComparison {
        // By the name's bytes (`FileNames`): a name that is not UTF-8 is compared too.
        guard FileNames.status(baseline) != nil else { throw .notFound(path: baseline) }
        guard FileNames.status(current) != nil else { throw .notFound(path: current) }
        let baselineIsFolder = FileNames.isFolder(baseline)
        guard baselineIsFolder == FileNames.isFolder(current) else { throw .kindMismatch(baseline: baseline, current: current) }
        // Pairs of the same size come one after another: their bitmaps reuse the freed
        // heap instead of fresh pages (process-wide; see `Allocator.reuseLargeBlocks`).
        Allocator.reuseLargeBlocks(keepFreed: 256 << 20)
        let work = PairWork(options: options, tolerance: tolerance, decoder: decoder, diffImages: diffImages)
        if !baselineIsFolder {
            if let shard, !shard.holds(position: 0) { return FolderComparison(results: [], pairsInRun: 1) }
            let pair = Pair(relativePath: (current as NSString).lastPathComponent, baseline: baseline, current: current)
            // One pair: its two images decoded at once when there are threads to spare.
            var result = try work.compare(pair, index: 0, decodeTogether: (jobs ?? ProcessInfo.processInfo.activeProcessorCount) > 1)
            result.diffImagePath = try numberDiffImages([result.diffImagePath], in: diffImages)[0]
            return FolderComparison(results: [result], pairsInRun: shard == nil ? nil : 1)
        }
        var specials: [[UInt8]: (path: String, kind: String)] = [:]
        // By the names' bytes: café spelt with é and with e + U+0301 are two files (and two
        // pairs), though Swift's String takes them for one name.
        let left = Set(try images(in: baseline, decoder: decoder, special: &specials).map(FileNames.bytes(of:)))
        let right = Set(try images(in: current, decoder: decoder, special: &specials).map(FileNames.bytes(of:)))
        var results: [PairResult] = []
        // The pairs present on both sides, and where their results go.
        var pairs: [Pair] = [], both: [Int] = []
        let all = left.union(right).map { FileNames.string(fromBytes: $0) }
        for path in (shard.map { $0.select(all) } ?? all).sorted(by: FileNames.precedes) {
            let key = FileNames.bytes(of: path)
            switch (left.contains(key), right.contains(key)) {
            case (true, true):
                both.append(results.count)
                pairs.append(Pair(relativePath: path, baseline: baseline + "/" + path, current: current + "/" + path))
                results.append(PairResult(relativePath: path, status: .unchanged, baselinePath: baseline + "/" + path, currentPath: current + "/" + path))
            case (false, true):
                results.append(PairResult(relativePath: path, status: .added, baselinePath: nil, currentPath: current + "/" + path))
            default:
                results.append(PairResult(relativePath: path, status: .removed, baselinePath: baseline + "/" + path, currentPath: nil))
            }
        }
        let compared = try work.run(pairs, jobs: jobs ?? ProcessInfo.processInfo.activeProcessorCount)
        let names = try numberDiffImages(compared.map(\.diffImagePath), in: diffImages)
        for (k, index) in both.enumerated() {
            results[index] = compared[k]
            results[index].diffImagePath = names[k]
        }
        var comparison = FolderComparison(results: results, pairsInRun: shard == nil ? nil : all.count)
        comparison.skippedSpecialFiles = specials.values.sorted { FileNames.precedes($0.path, $1.path) }.map { ($0.path, $0.kind) }
        return comparison
    }

    /// Two files to compare.
    struct Pair: Sendable {
        let relativePath: String, baseline: String, current: String
    }

    /// What every pair of a comparison shares: how to compare, and where diff images go.
    struct PairWork: Sendable {
        let options: ComparisonOptions
        let tolerance: DiffTolerance
        let decoder: ImageDecoder
        let diffImages: String?

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
                        let result = try compare(pair, index: index, budget: budget, decodeTogether: together)
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
                let difference = ImageDifference(
                    differingPixels: 0, antialiasedPixels: 0, comparedPixels: size.width * size.height, bounds: nil,
                    ssim: options.metric == .ssim ? 1 : nil, largestDelta: 0, size: size, diffImage: nil, sizeMismatch: nil)
                return PairResult(
                    relativePath: pair.relativePath, status: status(difference, tolerance: tolerance),
                    baselinePath: pair.baseline, currentPath: pair.current, difference: difference)
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
                // The marks only: the figures (and the SSIM score) are the first scan's.
                var drawing = options
                drawing.metric = .pixelmatch
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
                relativePath: pair.relativePath, status: status(difference, tolerance: tolerance),
                baselinePath: pair.baseline, currentPath: pair.current, difference: difference)
            result.diffImagePath = diffImagePath
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

    /// Identical, within the tolerance, or changed.
    static func status(_ difference: ImageDifference, tolerance: DiffTolerance) -> PairResult.Status {
        guard tolerance.accepts(difference) else { return .changed }
        return difference.differingPixels == 0 && difference.sizeMismatch == nil ? .unchanged : .withinTolerance
    }

    /// Relative paths of the images under `root` (by signature), listed with `readdir` so
    /// that every name is kept whatever its bytes (`FileNames`). Hidden files and folders,
    /// FIFOs, sockets and devices (never opened) and folders seen before through a link
    /// are left out.
    /// The special files found are added to `special` (relative path: kind).
    static func images(in root: String, decoder: ImageDecoder, special: inout [[UInt8]: (path: String, kind: String)]) throws(DiffError) -> [String] {
        var found: [String] = []
        var visited: Set<String> = []
        try collect(root: root, relative: "", codecs: decoder.codecs, into: &found, special: &special, visited: &visited)
        return found
    }

    static func collect(
        root: String, relative: String, codecs: CodecRegistry, into found: inout [String], special: inout [[UInt8]: (path: String, kind: String)], visited: inout Set<String>
    ) throws(DiffError) {
        let folder = relative.isEmpty ? root : root + "/" + relative
        if let status = FileNames.status(folder) {
            guard visited.insert("\(status.st_dev):\(status.st_ino)").inserted else { return }
        }
        guard let names = FileNames.contentsOfDirectory(folder) else {
            throw .unreadableDirectory(path: folder, reason: String(cString: strerror(errno)))
        }
        for name in names.sorted() where !name.hasPrefix(".") {
            let child = relative.isEmpty ? name : relative + "/" + name
            guard let status = FileNames.status(root + "/" + child) else { continue }
            if (status.st_mode & S_IFMT) == S_IFDIR {
                try collect(root: root, relative: child, codecs: codecs, into: &found, special: &special, visited: &visited)
            } else if let kind = FileNames.specialKind(status.st_mode) {
                special[FileNames.bytes(of: child)] = (child, kind)
            } else if (status.st_mode & S_IFMT) == S_IFREG,
                let head = try? FileBytes.read(root + "/" + child, limit: 16).bytes, ImageFormat.detect(head, in: codecs) != nil
            {
                found.append(child)
            }
        }
    }
}
