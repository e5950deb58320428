import Foundation
@testable import MosaicDiff
import MosaicImage
import MosaicLayout
import Testing

/// The aligned comparison (`PageAlignment`, `AlignedComparison`) on text-like pages made
/// by code: sections of lines of glyph-like blocks on white, stacked with gaps.
@Suite struct AlignedComparisonTests {
    static let width = 320
    static let paper = RGBA(red: 255, green: 255, blue: 255)

    /// A section: a title bar, then `lines` lines of words (blocks 7 px tall), seeded.
    static func section(seed: UInt64, lines: Int = 4, title: RGBA = RGBA(red: 40, green: 60, blue: 110)) -> Bitmap {
        let height = 20 + lines * 14
        var b = Bitmap(width: width, height: height, fill: paper)
        for y in 2..<14 { for x in 12..<(60 + Int(seed % 5) * 17) { b[x, y] = title } }
        var state = seed &* 0x9E37_79B9_7F4A_7C15 | 1
        func next(_ n: Int) -> Int {
            state = state &* 6364136223846793005 &+ 1442695040888963407
            return Int(state >> 33) % n
        }
        for line in 0..<lines {
            var x = 12
            let y0 = 20 + line * 14
            while x < width - 24 {
                let w = 4 + next(24)
                let ink = UInt8(20 + next(40))
                for y in y0..<(y0 + 7) { for dx in 0..<w where x + dx < width - 12 { b[x + dx, y] = RGBA(red: ink, green: ink, blue: ink) } }
                // A descender now and then.
                if next(4) == 0 { for y in (y0 + 7)..<(y0 + 10) { b[x + 1, y] = RGBA(red: ink, green: ink, blue: ink) } }
                x += w + 3 + next(4)
            }
        }
        return b
    }

    /// Bitmaps stacked, `gap` pixels of paper between them and around.
    static func stack(_ parts: [Bitmap], gap: Int = 16) -> Bitmap {
        let height = parts.reduce(gap) { $0 + $1.height + gap }
        var page = Bitmap(width: width, height: height, fill: paper)
        var y = gap
        for part in parts {
            for row in 0..<part.height { for x in 0..<width { page[x, y + row] = part[x, row] } }
            y += part.height + gap
        }
        return page
    }

    static func band(_ height: Int, _ colour: RGBA) -> Bitmap {
        var b = Bitmap(width: width, height: height, fill: colour)
        for y in 14..<22 { for x in 20..<180 where (x / 6) % 3 != 2 { b[x, y] = paper } }
        return b
    }

    /// `top` over `page`, no gap: a band inserted at the very top.
    static func over(_ top: Bitmap, _ page: Bitmap) -> Bitmap {
        var out = Bitmap(width: width, height: top.height + page.height, fill: paper)
        for y in 0..<top.height { for x in 0..<width { out[x, y] = top[x, y] } }
        for y in 0..<page.height { for x in 0..<width { out[x, top.height + y] = page[x, y] } }
        return out
    }

    static var aligned: ComparisonOptions {
        var options = ComparisonOptions()
        options.align = true
        return options
    }

    static let sections = (1...5).map { section(seed: UInt64($0) * 7) }

    /// The inserted-banner page: a 40 px band at the top; the unaligned comparison sees
    /// every line below it change, the aligned one a single inserted band of 40 px.
    @Test func aBannerAtTheTopIsOneInsertedBand() throws {
        let a = Self.stack(Self.sections)
        let b = Self.over(Self.band(40, RGBA(red: 250, green: 200, blue: 40)), a)
        let plain = ImageComparison.compare(a, b, diffImage: false)
        #expect(plain.differingPixels > 10 * Self.width)
        let result = ImageComparison.compare(a, b, options: Self.aligned)
        #expect(result.regionCount == 1, "\(result.regions.map { ($0.change, $0.bounds) })")
        let banner = try #require(result.regions.first)
        #expect(banner.change == .inserted && banner.bounds == Rect(x: 0, y: 0, width: Self.width, height: 40))
        #expect(result.alignedDifferingPixels == Self.width * 40)
        #expect(result.alignment == [RowShift(baselineY: 0, currentY: 40, height: a.height)])
        #expect(result.differingPixels == plain.differingPixels, "the pixelmatch counts stay")
        #expect(result.alignmentSummary == "40 px inserted at y 0; 0 regions changed".replacingOccurrences(of: "; 0 regions changed", with: ""))
        // Judged aligned: the inserted pixels count, nothing else.
        #expect(DiffTolerance(maximumPixels: Self.width * 40).accepts(result))
        #expect(!DiffTolerance(maximumPixels: Self.width * 40 - 1).accepts(result))
        #expect(!DiffTolerance(maximumPixels: Self.width * 40).accepts(plain))
        // The diff image: the band tinted green, the rest the grey of equal pixels.
        let image = try #require(result.diffImage)
        #expect(image.width == Self.width && image.height == b.height)
        #expect(image[2, 2].green > image[2, 2].red && image[2, 2].green > image[2, 2].blue)
    }

    /// The same banner on a screen of fixed height: the page's bottom 40 rows fall off.
    @Test func aBannerOnAFixedScreenIsAtMostThreeRegions() throws {
        let a = Self.stack(Self.sections)
        let grown = Self.over(Self.band(40, RGBA(red: 250, green: 200, blue: 40)), a)
        var b = Bitmap(width: Self.width, height: a.height, fill: Self.paper)
        for y in 0..<a.height { for x in 0..<Self.width { b[x, y] = grown[x, y] } }
        let result = ImageComparison.compare(a, b, options: Self.aligned)
        #expect(result.regionCount <= 3, "\(result.regions.map { ($0.change, $0.bounds) })")
        let inserted = result.regions.filter { $0.change == .inserted }
        #expect(inserted.map(\.bounds) == [Rect(x: 0, y: 0, width: Self.width, height: 40)])
        #expect(result.regions.allSatisfy { $0.change == .inserted || $0.change == .deleted })
    }

    /// A section taken out: one deleted band, in the baseline's rows, taken out where the
    /// next section now starts.
    @Test func aDeletedBlockIsOneDeletedBand() throws {
        let s = Self.sections
        let a = Self.stack(s), b = Self.stack([s[0], s[1], s[3], s[4]])
        let result = ImageComparison.compare(a, b, options: Self.aligned)
        #expect(result.regionCount == 1, "\(result.regions.map { ($0.change, $0.bounds) })")
        let deleted = try #require(result.regions.first)
        #expect(deleted.change == .deleted)
        // The section and one gap's worth of paper (which blank rows go with it is a free
        // choice: here the ones above it), holding every inked row of the section.
        let top = 16 + s[0].height + 16 + s[1].height + 16
        #expect(deleted.bounds.height == s[2].height + 16)
        #expect(deleted.bounds.minY <= top + 2 && deleted.bounds.maxY >= top + 72, "\(deleted.bounds) \(top)")
        #expect(deleted.offset == RegionOffset(dx: 0, dy: 0))
        #expect(result.alignmentSummary?.hasPrefix("\(s[2].height + 16) px deleted at y") == true)
    }

    /// Two sections swapped: both shifted, by opposite offsets; nothing inserted or deleted.
    @Test func twoSwappedSectionsAreBothShifted() throws {
        let s = Self.sections
        let a = Self.stack(s), b = Self.stack([s[0], s[2], s[1], s[3], s[4]])
        let result = ImageComparison.compare(a, b, options: Self.aligned)
        #expect(result.regionCount == 2, "\(result.regions.map { ($0.change, $0.bounds, $0.offset) })")
        #expect(result.regions.allSatisfy { $0.change == .shifted })
        #expect(result.alignmentSummary?.contains("a block moved 92 px down at y") == true)
        let offsets = Set(result.regions.compactMap(\.offset?.dy))
        #expect(offsets == [s[2].height + 16, -(s[1].height + 16)])
        // Each block's content, where it is now.
        let moved = try #require(result.regions.first { $0.offset?.dy == s[2].height + 16 })
        #expect(moved.bounds.minY == 16 + s[0].height + 16 + s[2].height + 16 + 2)
    }

    /// Two sections swapped whose blank margins differ (one ends in a rule on its last row,
    /// the others in blank rows): the blank rows between them differ by a few rows on each
    /// side of the moved block, which are the block's margins, not a band inserted and
    /// another deleted. Two moved blocks, nothing else.
    @Test func aSwapWithUnevenMarginsIsTwoMovesOnly() throws {
        let s = Self.sections
        var ruled = Self.section(seed: 98)
        for x in 12..<(Self.width - 12) { ruled[x, ruled.height - 1] = RGBA(red: 40, green: 60, blue: 110) }
        let a = Self.stack([s[0], ruled, s[1], s[3]]), b = Self.stack([s[0], s[1], ruled, s[3]])
        let result = ImageComparison.compare(a, b, options: Self.aligned)
        #expect(result.regions.allSatisfy { $0.change == .shifted }, "\(result.regions.map { ($0.change, $0.bounds, $0.offset) })")
        #expect(result.regionCount == 2)
        #expect(result.alignmentSummary?.contains("inserted") == false && result.alignmentSummary?.contains("deleted") == false, "\(result.alignmentSummary ?? "")")
        // Every row of either page corresponds to one of the other.
        let alignment = try #require(result.alignment)
        #expect(alignment.reduce(0) { $0 + $1.height } == b.height)
    }

    /// A banner inserted and, below it, a button recoloured: the band is inserted and the
    /// button, compared with its baseline where it moved from, recoloured.
    @Test func aShiftAndAColourChangeAreTold() throws {
        var s = Self.sections
        var button = Bitmap(width: Self.width, height: 30, fill: Self.paper)
        for y in 4..<26 { for x in 200..<290 { button[x, y] = RGBA(red: 200, green: 40, blue: 40) } }
        let before = Self.stack([s[0], s[1], button, s[2]])
        for y in 4..<26 { for x in 200..<290 { button[x, y] = RGBA(red: 40, green: 140, blue: 60) } }
        s = Array(s.prefix(3))
        let after = Self.over(Self.band(40, RGBA(red: 250, green: 200, blue: 40)), Self.stack([s[0], s[1], button, s[2]]))
        let result = ImageComparison.compare(before, after, options: Self.aligned)
        #expect(result.regionCount == 2, "\(result.regions.map { ($0.change, $0.bounds) })")
        let recoloured = try #require(result.regions.first { $0.change == .recoloured })
        let buttonTop = 40 + 16 + s[0].height + 16 + s[1].height + 16 + 4
        #expect(recoloured.bounds == Rect(x: 200, y: buttonTop, width: 90, height: 22))
        #expect(result.regions.contains { $0.change == .inserted && $0.bounds.height == 40 })
        #expect(result.alignmentSummary == "40 px inserted at y 0; 1 region changed")
    }

    /// An edit in place: the alignment is the identity, the aligned figures are the plain
    /// ones, and the regions say what kind of change they are.
    @Test func anEditInPlaceKeepsThePlainFigures() throws {
        let s = Self.sections
        let a = Self.stack(s)
        var b = a
        for y in 40..<44 { for x in 30..<60 { b[x, y] = RGBA(red: 255, green: 255, blue: 255) } }
        let plain = ImageComparison.compare(a, b)
        let result = ImageComparison.compare(a, b, options: Self.aligned)
        #expect(result.alignedDifferingPixels == plain.differingPixels)
        #expect(result.regions.map(\.bounds) == plain.regions.map(\.bounds))
        #expect(result.regions.allSatisfy { $0.change == .modified })
        #expect(result.alignment == [RowShift(baselineY: 0, currentY: 0, height: a.height)])
        #expect(result.diffImage == plain.diffImage)
    }

    /// A button moved 1 px to the right within its rows: one region, shifted by (1, 0).
    @Test func aButtonNudgedAcrossIsShifted() throws {
        var button = Bitmap(width: Self.width, height: 30, fill: Self.paper)
        for y in 4..<26 { for x in 200..<290 { button[x, y] = RGBA(red: 200, green: 40, blue: 40) } }
        var moved = Bitmap(width: Self.width, height: 30, fill: Self.paper)
        for y in 4..<26 { for x in 201..<291 { moved[x, y] = RGBA(red: 200, green: 40, blue: 40) } }
        let s = Self.sections
        let a = Self.stack([s[0], button, s[1]]), b = Self.stack([s[0], moved, s[1]])
        let result = ImageComparison.compare(a, b, options: Self.aligned)
        #expect(result.regionCount == 1)
        let region = try #require(result.regions.first)
        #expect(region.change == .shifted && region.offset == RegionOffset(dx: 1, dy: 0), "\(region)")
        #expect(result.alignmentSummary == "a block moved 1 px right at x 200, y \(region.bounds.minY)")
    }

    /// Equal pairs are not aligned at all.
    @Test func equalPairsAreNotAligned() {
        let a = Self.stack(Self.sections)
        let result = ImageComparison.compare(a, a, options: Self.aligned)
        #expect(result.alignment == nil && result.alignedDifferingPixels == nil && result.regionCount == 0)
    }

    /// Myers' runs are a longest common subsequence: as long as the dynamic programme's,
    /// and each run's rows equal, in order, on random sequences over small alphabets.
    @Test(arguments: 0..<40)
    func equalRunsAreALongestCommonSubsequence(seed: Int) throws {
        var state = UInt64(seed + 1) &* 0x9E37_79B9_7F4A_7C15
        func next(_ n: Int) -> Int {
            state = state &* 6364136223846793005 &+ 1442695040888963407
            return Int(state >> 33) % n
        }
        let alphabet = 2 + next(5)
        let a = (0..<next(30)).map { _ in UInt64(next(alphabet)) }, b = (0..<next(30)).map { _ in UInt64(next(alphabet)) }
        let runs = try #require(PageAlignment.equalRuns(a, b))
        var lastA = -1, lastB = -1
        for run in runs {
            #expect(run.a > lastA && run.b > lastB)
            for k in 0..<run.length { #expect(a[run.a + k] == b[run.b + k]) }
            (lastA, lastB) = (run.a + run.length - 1, run.b + run.length - 1)
        }
        var table = [[Int]](repeating: [Int](repeating: 0, count: b.count + 1), count: a.count + 1)
        for i in stride(from: a.count - 1, through: 0, by: -1) {
            for j in stride(from: b.count - 1, through: 0, by: -1) {
                table[i][j] = a[i] == b[j] ? table[i + 1][j + 1] + 1 : max(table[i + 1][j], table[i][j + 1])
            }
        }
        #expect(runs.reduce(0) { $0 + $1.length } == table[0][0], "\(a) \(b)")
    }

    /// More edits than the limit: no match (the pages are paired in place).
    @Test func tooManyEditsGiveNoMatch() {
        let a = (0..<50).map { UInt64($0) }, b = (100..<150).map { UInt64($0) }
        #expect(PageAlignment.equalRuns(a, b, maximumEdits: 99) == nil)
        #expect(PageAlignment.equalRuns(a, b, maximumEdits: 100)?.isEmpty == true)
    }
}
