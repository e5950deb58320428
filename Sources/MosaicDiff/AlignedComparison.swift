import Foundation
import MosaicImage
import MosaicLayout

/// The aligned comparison of a pair that differs (`ComparisonOptions.align`): the rows are
/// matched (`PageAlignment`), the baseline's rows are laid out as the current image's
/// (an inserted row stands for itself, so it compares equal), and that is compared with
/// the current image by the same scan and metric. The regions are then the bands
/// inserted and deleted, the blocks moved, and the scan's regions of corresponding pixels
/// that differ, each `recoloured` or `modified`.
///
/// Cost: two row hashes per pair and a match in O((N + M) D) rows; when the match is the
/// identity (an edit in place), the unaligned scan's figures are the aligned ones and
/// nothing is scanned again.
enum AlignedComparison {
    /// A region is `recoloured` when at least this share of its neighbour relations (a
    /// pixel equal to its right or lower neighbour, or not) is the same in both images.
    static let sameShape = 0.99

    static func compare(
        _ p1: ImageComparison.Plane, _ sizeA: Size, _ p2: ImageComparison.Plane, _ sizeB: Size, options: ComparisonOptions,
        plain: ImageComparison.Measured, diffImage makeDiffImage: Bool, into difference: inout ImageDifference
    ) {
        let width = min(sizeA.width, sizeB.width)
        let (hashesA, uniformA) = PageAlignment.rowHashes(p1, width: width, height: sizeA.height)
        let (hashesB, uniformB) = PageAlignment.rowHashes(p2, width: width, height: sizeB.height)
        let map = PageAlignment.map(baseline: hashesA, uniformA: uniformA, current: hashesB, uniformB: uniformB)
        var options = options
        options.ignoreRegions = ImageComparison.clipped(options.ignoreRegions, width: width, height: sizeB.height)
        var measured: ImageComparison.Measured
        var laidOut: [UInt8] = []
        let identity = sizeA == sizeB && map.isIdentity
        if identity {
            measured = plain
        } else {
            laidOut = layOut(p1, p2, map: map, width: width, height: sizeB.height)
            measured = laidOut.withUnsafeBufferPointer { buffer in
                ImageComparison.measure(
                    ImageComparison.Plane(base: buffer.baseAddress!, stride: width * 4), p2, width: width, height: sizeB.height, options: options,
                    diffImage: makeDiffImage)
            }
        }
        // The scan's regions: recoloured or modified.
        var regions = measured.regions
        laidOut.withUnsafeBufferPointer { buffer in
            let q1 = identity ? p1 : ImageComparison.Plane(base: buffer.baseAddress!, stride: width * 4)
            for r in regions.indices {
                if let offset = nudge(q1, p2, regions[r].bounds, width: width, height: sizeB.height) {
                    regions[r].change = .shifted
                    regions[r].offset = offset
                } else if isRecoloured(q1, p2, regions[r].bounds) {
                    regions[r].change = .recoloured
                } else {
                    regions[r].change = .modified
                }
            }
            regions = joinNudged(regions, q1, p2, width: width, height: sizeB.height)
        }
        var counted = measured.counts.differing
        // Bands inserted and deleted, blocks moved.
        var structural: [ChangedRegion] = []
        var y = 0
        while y < sizeB.height {
            guard map.kind[y] == .inserted else {
                y += 1
                continue
            }
            let first = y
            while y < sizeB.height && map.kind[y] == .inserted { y += 1 }
            structural.append(
                ChangedRegion(
                    bounds: Rect(x: 0, y: first, width: sizeB.width, height: y - first), differingPixels: sizeB.width * (y - first), largestDelta: 1,
                    change: .inserted))
        }
        y = 0
        while y < sizeA.height {
            guard map.deleted[y] else {
                y += 1
                continue
            }
            let first = y
            while y < sizeA.height && map.deleted[y] { y += 1 }
            structural.append(
                ChangedRegion(
                    bounds: Rect(x: 0, y: first, width: sizeA.width, height: y - first), differingPixels: sizeA.width * (y - first), largestDelta: 1,
                    change: .deleted, offset: RegionOffset(dx: 0, dy: (map.deletedAt[first] ?? first) - first)))
        }
        if sizeB.width > sizeA.width {
            structural.append(
                ChangedRegion(
                    bounds: Rect(x: sizeA.width, y: 0, width: sizeB.width - sizeA.width, height: sizeB.height),
                    differingPixels: (sizeB.width - sizeA.width) * sizeB.height, largestDelta: 1, change: .inserted))
        } else if sizeA.width > sizeB.width {
            structural.append(
                ChangedRegion(
                    bounds: Rect(x: sizeB.width, y: 0, width: sizeA.width - sizeB.width, height: sizeA.height),
                    differingPixels: (sizeA.width - sizeB.width) * sizeA.height, largestDelta: 1, change: .deleted,
                    offset: RegionOffset(dx: 0, dy: 0)))
        }
        for block in movedBlocks(map) {
            guard let content = contentBounds(p2, rows: block.rows, width: sizeB.width) else { continue }
            structural.append(
                ChangedRegion(
                    bounds: content.bounds, differingPixels: content.pixels, largestDelta: 1, change: .shifted,
                    offset: RegionOffset(dx: 0, dy: block.dy)))
        }
        counted += structural.reduce(0) { $0 + $1.differingPixels }
        let all = (structural + regions).sorted { ChangedRegion.isListedBefore($0, $1) ?? false }
        difference.regions = Array(all.prefix(RegionGrid.listed))
        difference.regionCount = all.count
        difference.ssim = measured.ssim
        difference.setScores(all, flip: measured.flip)
        difference.alignedDifferingPixels = counted
        difference.alignment = shifts(map)
        if makeDiffImage, var image = measured.diffImage {
            mark(&image, regions: structural, map: map)
            difference.diffImage = image
        } else if makeDiffImage {
            difference.diffImage = Bitmap(width: width, height: sizeB.height)
        }
    }

    /// The baseline's rows laid out as the current image's: `width` x `height`, straight
    /// alpha; an inserted row is the current image's own.
    static func layOut(_ p1: ImageComparison.Plane, _ p2: ImageComparison.Plane, map: PageAlignment.RowMap, width: Int, height: Int) -> [UInt8] {
        let rowBytes = width * 4
        return [UInt8](unsafeUninitializedCapacity: rowBytes * height) { out, initialized in
            guard let to = out.baseAddress else { return }
            for y in 0..<height {
                let source = map.baselineRow[y] >= 0 ? p1.base + p1.offset(0, map.baselineRow[y]) : p2.base + p2.offset(0, y)
                (to + y * rowBytes).update(from: source, count: rowBytes)
            }
            initialized = rowBytes * height
        }
    }

    /// Whether the two images' shapes agree over `box`: each pixel's equality with its
    /// right and lower neighbours is the same in both for `sameShape` of the relations.
    static func isRecoloured(_ p1: ImageComparison.Plane, _ p2: ImageComparison.Plane, _ box: Rect) -> Bool {
        var relations = 0, agreeing = 0
        for y in box.minY..<box.maxY {
            for x in box.minX..<box.maxX {
                let a = UnsafeRawPointer(p1.base + p1.offset(x, y)).loadUnaligned(as: UInt32.self)
                let b = UnsafeRawPointer(p2.base + p2.offset(x, y)).loadUnaligned(as: UInt32.self)
                if x + 1 < box.maxX {
                    let a2 = UnsafeRawPointer(p1.base + p1.offset(x + 1, y)).loadUnaligned(as: UInt32.self)
                    let b2 = UnsafeRawPointer(p2.base + p2.offset(x + 1, y)).loadUnaligned(as: UInt32.self)
                    relations += 1
                    if (a == a2) == (b == b2) { agreeing += 1 }
                }
                if y + 1 < box.maxY {
                    let a2 = UnsafeRawPointer(p1.base + p1.offset(x, y + 1)).loadUnaligned(as: UInt32.self)
                    let b2 = UnsafeRawPointer(p2.base + p2.offset(x, y + 1)).loadUnaligned(as: UInt32.self)
                    relations += 1
                    if (a == a2) == (b == b2) { agreeing += 1 }
                }
            }
        }
        return relations > 0 && Double(agreeing) >= sameShape * Double(relations)
    }

    /// How far a region's content moved within its band, when it did: the smallest offset
    /// (up to `nudgeReach` pixels across, or else up and down) under which every pixel of
    /// the current image's box equals the baseline's at the offset. A button moved 1 px to
    /// the right differs over the union of its two places; the offset (1, 0) explains it.
    static func nudge(_ p1: ImageComparison.Plane, _ p2: ImageComparison.Plane, _ box: Rect, width: Int, height: Int) -> RegionOffset? {
        for distance in 1...nudgeReach {
            for (dx, dy) in [(distance, 0), (-distance, 0), (0, distance), (0, -distance)]
            where isMoved(p1, p2, box, RegionOffset(dx: dx, dy: dy), width: width, height: height) {
                return RegionOffset(dx: dx, dy: dy)
            }
        }
        return nil
    }

    /// Whether `box` of the current image is the baseline's at `offset` and the baseline's
    /// `box` is the current image's at the opposite offset (both ways: a dot taken away,
    /// where the current box is plain paper, is not a move of the paper beside it).
    static func isMoved(_ p1: ImageComparison.Plane, _ p2: ImageComparison.Plane, _ box: Rect, _ offset: RegionOffset, width: Int, height: Int) -> Bool {
        let (dx, dy) = (offset.dx, offset.dy)
        guard box.minX - dx >= 0, box.maxX - dx <= width, box.minY - dy >= 0, box.maxY - dy <= height,
            box.minX + dx >= 0, box.maxX + dx <= width, box.minY + dy >= 0, box.maxY + dy <= height
        else { return false }
        for y in box.minY..<box.maxY {
            if memcmp(p2.base + p2.offset(box.minX, y), p1.base + p1.offset(box.minX - dx, y - dy), box.width * 4) != 0 { return false }
            if memcmp(p1.base + p1.offset(box.minX, y), p2.base + p2.offset(box.minX + dx, y + dy), box.width * 4) != 0 { return false }
        }
        return true
    }

    /// Regions shifted by the same offset that the offset explains together (a solid
    /// button moved 1 px differs only along its two edges: two regions, one move) joined
    /// into one, listed largest first again.
    static func joinNudged(_ regions: [ChangedRegion], _ p1: ImageComparison.Plane, _ p2: ImageComparison.Plane, width: Int, height: Int) -> [ChangedRegion] {
        var regions = regions
        guard regions.count <= RegionGrid.listed, regions.contains(where: { $0.change == .shifted }) else { return regions }
        var joined = true
        while joined {
            joined = false
            search: for i in regions.indices where regions[i].change == .shifted {
                for j in regions.indices where j > i && regions[j].change == .shifted && regions[j].offset == regions[i].offset {
                    let a = regions[i].bounds, b = regions[j].bounds
                    let union = Rect(x: min(a.minX, b.minX), y: min(a.minY, b.minY), width: max(a.maxX, b.maxX) - min(a.minX, b.minX),
                                     height: max(a.maxY, b.maxY) - min(a.minY, b.minY))
                    guard let offset = regions[i].offset, isMoved(p1, p2, union, offset, width: width, height: height) else { continue }
                    regions[i].bounds = union
                    regions[i].differingPixels += regions[j].differingPixels
                    regions[i].largestDelta = max(regions[i].largestDelta, regions[j].largestDelta)
                    // The scores: the worse of the two.
                    if let x = regions[j].ssim { regions[i].ssim = min(regions[i].ssim ?? x, x) }
                    if let x = regions[j].deltaE { regions[i].deltaE = max(regions[i].deltaE ?? x, x) }
                    if let x = regions[j].flip { regions[i].flip = max(regions[i].flip ?? x, x) }
                    regions.remove(at: j)
                    joined = true
                    break search
                }
            }
        }
        return regions.sorted { ChangedRegion.isListedBefore($0, $1) ?? false }
    }

    /// How far `nudge` looks, pixels.
    static let nudgeReach = 32

    /// Blocks that moved: runs of moved rows and equal runs against the flow, one per
    /// offset (runs of one offset at most `RegionGrid.gap` rows apart are one block).
    static func movedBlocks(_ map: PageAlignment.RowMap) -> [(rows: Range<Int>, dy: Int)] {
        var rows: [(Int, Int)] = []
        for y in map.kind.indices where map.kind[y] == .moved { rows.append((y, y - map.baselineRow[y])) }
        for run in map.shiftedRuns { for y in run { rows.append((y, y - map.baselineRow[y])) } }
        rows.sort { $0.0 < $1.0 }
        var blocks: [(rows: Range<Int>, dy: Int)] = []
        for (y, dy) in rows {
            if let last = blocks.last, last.dy == dy, y - last.rows.upperBound <= RegionGrid.gap {
                blocks[blocks.count - 1].rows = last.rows.lowerBound..<(y + 1)
            } else {
                blocks.append((y..<(y + 1), dy))
            }
        }
        return blocks
    }

    /// The box of the pixels of `rows` that differ from the background (the rows' first
    /// pixel), and how many they are; nil when every pixel is the background.
    static func contentBounds(_ plane: ImageComparison.Plane, rows: Range<Int>, width: Int) -> (bounds: Rect, pixels: Int)? {
        let background = UnsafeRawPointer(plane.base + plane.offset(0, rows.lowerBound)).loadUnaligned(as: UInt32.self)
        var minX = Int.max, minY = Int.max, maxX = -1, maxY = -1, count = 0
        for y in rows {
            let row = UnsafeRawPointer(plane.base + plane.offset(0, y))
            for x in 0..<width where row.loadUnaligned(fromByteOffset: x * 4, as: UInt32.self) != background {
                count += 1
                minX = min(minX, x)
                maxX = max(maxX, x)
                minY = min(minY, y)
                maxY = max(maxY, y)
            }
        }
        return count == 0 ? nil : (Rect(x: minX, y: minY, width: maxX - minX + 1, height: maxY - minY + 1), count)
    }

    /// The runs of current rows that take consecutive baseline rows.
    static func shifts(_ map: PageAlignment.RowMap) -> [RowShift] {
        var shifts: [RowShift] = []
        for y in map.baselineRow.indices where map.baselineRow[y] >= 0 {
            let from = map.baselineRow[y]
            if let last = shifts.last, last.currentY + last.height == y, last.baselineY + last.height == from {
                shifts[shifts.count - 1].height += 1
            } else {
                shifts.append(RowShift(baselineY: from, currentY: y, height: 1))
            }
        }
        return shifts
    }

    /// The diff image's marks of what moved: inserted bands tinted green, moved blocks
    /// blue, a red rule (3 px) where a band was deleted.
    static func mark(_ image: inout Bitmap, regions: [ChangedRegion], map: PageAlignment.RowMap) {
        func tint(_ box: Rect, _ colour: RGBA) {
            for y in max(0, box.minY)..<min(image.height, box.maxY) {
                for x in max(0, box.minX)..<min(image.width, box.maxX) {
                    let p = image[x, y]
                    image[x, y] = RGBA(
                        red: UInt8((Int(p.red) + Int(colour.red)) / 2), green: UInt8((Int(p.green) + Int(colour.green)) / 2),
                        blue: UInt8((Int(p.blue) + Int(colour.blue)) / 2), alpha: 255)
                }
            }
        }
        for region in regions {
            switch region.change {
            case .inserted: tint(region.bounds, RGBA(red: 0, green: 200, blue: 80))
            case .shifted: tint(region.bounds, RGBA(red: 40, green: 110, blue: 255))
            case .deleted:
                let y = region.bounds.minY + (region.offset?.dy ?? 0)
                guard region.bounds.minX == 0 else { break }
                for row in max(0, y - 1)..<min(image.height, y + 2) { for x in 0..<image.width { image[x, row] = RGBA(red: 230, green: 0, blue: 0) } }
            default: break
            }
        }
    }
}
