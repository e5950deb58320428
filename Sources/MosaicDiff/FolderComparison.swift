import Foundation
import MosaicImage
import MosaicLayout

/// Two folders matched by relative path, or two files.
public struct FolderComparison: Sendable {
    public var results: [PairResult]

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
        var baselineIsFolder: ObjCBool = false, currentIsFolder: ObjCBool = false
        guard FileManager.default.fileExists(atPath: baseline, isDirectory: &baselineIsFolder) else { throw .notFound(path: baseline) }
        guard FileManager.default.fileExists(atPath: current, isDirectory: &currentIsFolder) else { throw .notFound(path: current) }
        guard baselineIsFolder.boolValue == currentIsFolder.boolValue else { throw .kindMismatch(baseline: baseline, current: current) }
        if !baselineIsFolder.boolValue {
            let result = try comparePair(
                relativePath: (current as NSString).lastPathComponent, baseline: baseline, current: current,
                options: options, tolerance: tolerance, decoder: decoder, writer: &writer)
            return FolderComparison(results: [result])
        }
        let left = try images(in: baseline, decoder: decoder)
        let right = try images(in: current, decoder: decoder)
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
        return FolderComparison(results: results)
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

    /// Relative paths of the images under `root` (by signature).
    static func images(in root: String, decoder: ImageDecoder) throws(DiffError) -> [String] {
        guard let enumerator = FileManager.default.enumerator(atPath: root) else {
            throw .unreadableDirectory(path: root, reason: "cannot open it")
        }
        var found: [String] = []
        while let relative = enumerator.nextObject() as? String {
            let name = (relative as NSString).lastPathComponent
            if name.hasPrefix(".") {
                enumerator.skipDescendants()
                continue
            }
            var isDirectory: ObjCBool = false
            guard FileManager.default.fileExists(atPath: root + "/" + relative, isDirectory: &isDirectory), !isDirectory.boolValue else { continue }
            guard let handle = FileHandle(forReadingAtPath: root + "/" + relative) else { continue }
            let head = handle.readData(ofLength: 8)
            // A read handle: closing it cannot lose data, and the file was read already.
            do { try handle.close() } catch {}
            if ImageFormat.detect(head) != nil { found.append(relative) }
        }
        return found
    }
}
