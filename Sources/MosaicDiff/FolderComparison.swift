import Foundation
import MosaicImage
import MosaicLayout

/// Two folders matched by relative path, or two files.
public struct FolderComparison: Sendable {
    public var results: [PairResult]
    /// FIFOs, sockets and devices found in the folders (never opened): their paths
    /// relative to the folder, in path order, and what each is ("a FIFO (named pipe)").
    public var skippedSpecialFiles: [(path: String, kind: String)] = []

    public var changed: [PairResult] { results.filter { $0.status == .changed } }
    public var added: [PairResult] { results.filter { $0.status == .added } }
    public var removed: [PairResult] { results.filter { $0.status == .removed } }
    public var unchanged: [PairResult] { results.filter { $0.status == .unchanged } }
    /// Pairs that differ, but within the tolerance.
    public var withinTolerance: [PairResult] { results.filter { $0.status == .withinTolerance } }
    /// Pairs of which an image could not be read.
    public var failed: [PairResult] { results.filter { $0.status == .failed } }
    /// Nothing changed (beyond the tolerance), added, removed or failed.
    public var passes: Bool { results.allSatisfy { $0.status == .unchanged || $0.status == .withinTolerance } }

    /// Compares `baseline` with `current`: two image files, or two folders whose images
    /// (JPEG or PNG, at any depth, hidden files skipped) are matched by relative path.
    ///
    /// The results keep each pair's figures, not its diff image: with `diffImages`, the
    /// diff image of each pair with differing pixels is written there as it is made
    /// (`00001.png`, `00002.png`, ... in path order; the pair's `diffImagePath`), so that
    /// memory holds one pair's images at a time however many are compared.
    public static func compare(
        baseline: String, current: String, options: ComparisonOptions = ComparisonOptions(),
        tolerance: DiffTolerance = DiffTolerance(), decoder: ImageDecoder = ImageDecoder(), diffImages: String? = nil
    ) throws(DiffError) -> FolderComparison {
        var writer = DiffImageWriter(folder: diffImages)
        // By the name's bytes (`FileNames`): a name that is not UTF-8 is compared too.
        guard FileNames.status(baseline) != nil else { throw .notFound(path: baseline) }
        guard FileNames.status(current) != nil else { throw .notFound(path: current) }
        let baselineIsFolder = FileNames.isFolder(baseline)
        guard baselineIsFolder == FileNames.isFolder(current) else { throw .kindMismatch(baseline: baseline, current: current) }
        if !baselineIsFolder {
            let result = try comparePair(
                relativePath: (current as NSString).lastPathComponent, baseline: baseline, current: current,
                options: options, tolerance: tolerance, decoder: decoder, writer: &writer)
            return FolderComparison(results: [result])
        }
        var specials: [String: String] = [:]
        let left = try images(in: baseline, decoder: decoder, special: &specials)
        let right = try images(in: current, decoder: decoder, special: &specials)
        var results: [PairResult] = []
        for path in Set(left).union(right).sorted() {
            switch (left.contains(path), right.contains(path)) {
            case (true, true):
                // In folders, one unreadable image is a failed pair, not the end of the run:
                // every other pair is still compared and reported.
                do {
                    results.append(try comparePair(
                        relativePath: path, baseline: baseline + "/" + path, current: current + "/" + path,
                        options: options, tolerance: tolerance, decoder: decoder, writer: &writer))
                } catch {
                    guard case .image(let problem) = error else { throw error }
                    results.append(PairResult(
                        relativePath: path, status: .failed, baselinePath: baseline + "/" + path,
                        currentPath: current + "/" + path, error: problem))
                }
            case (false, true):
                results.append(PairResult(relativePath: path, status: .added, baselinePath: nil, currentPath: current + "/" + path))
            default:
                results.append(PairResult(relativePath: path, status: .removed, baselinePath: baseline + "/" + path, currentPath: nil))
            }
        }
        var comparison = FolderComparison(results: results)
        comparison.skippedSpecialFiles = specials.sorted { $0.key < $1.key }.map { ($0.key, $0.value) }
        return comparison
    }

    static func comparePair(
        relativePath: String, baseline: String, current: String, options: ComparisonOptions, tolerance: DiffTolerance,
        decoder: ImageDecoder, writer: inout DiffImageWriter
    ) throws(DiffError) -> PairResult {
        let a: Bitmap, b: Bitmap
        var straight = decoder
        straight.premultiplyAlpha = false
        do {
            a = try straight.decode(baseline).bitmap
            b = try straight.decode(current).bitmap
        } catch {
            throw .image(error)
        }
        var difference = ImageComparison.compare(a, b, options: options, premultiplied: false)
        var diffImagePath: String?
        if let image = difference.diffImage, !difference.isMatch {
            diffImagePath = try writer.write(image)
        }
        difference.diffImage = nil
        var result = PairResult(
            relativePath: relativePath, status: status(difference, tolerance: tolerance),
            baselinePath: baseline, currentPath: current, difference: difference)
        result.diffImagePath = diffImagePath
        return result
    }

    /// Writes diff images into a folder, numbered in the order they come.
    struct DiffImageWriter {
        let folder: String?
        var count = 0

        /// The path written, or nil without a folder.
        mutating func write(_ image: Bitmap) throws(DiffError) -> String? {
            guard let folder else { return nil }
            count += 1
            let path = folder + "/" + String(format: "%05d", count) + ".png"
            do {
                try image.writePNG(to: path, hasAlpha: !image.isOpaque, software: nil)
            } catch {
                throw .cannotWrite(path: path, reason: error.description)
            }
            return path
        }
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
    static func images(in root: String, decoder: ImageDecoder, special: inout [String: String]) throws(DiffError) -> [String] {
        var found: [String] = []
        var visited: Set<String> = []
        try collect(root: root, relative: "", into: &found, special: &special, visited: &visited)
        return found
    }

    static func collect(
        root: String, relative: String, into found: inout [String], special: inout [String: String], visited: inout Set<String>
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
                try collect(root: root, relative: child, into: &found, special: &special, visited: &visited)
            } else if let kind = FileNames.specialKind(status.st_mode) {
                special[child] = kind
            } else if (status.st_mode & S_IFMT) == S_IFREG,
                let head = try? FileBytes.read(root + "/" + child, limit: 16).bytes, ImageFormat.detect(head) != nil
            {
                found.append(child)
            }
        }
    }
}
