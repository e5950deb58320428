// Lays out 1,000,000 cards in 6 columns and runs 1,000,000 band queries of 256 px,
// printing the median of several runs. Release builds only: debug figures mean nothing.
import MosaicLayout
#if canImport(Glibc)
import Glibc
#endif

struct SplitMix64: RandomNumberGenerator {
    var state: UInt64
    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}

func median(_ values: [Double]) -> Double {
    let sorted = values.sorted()
    return sorted[sorted.count / 2]
}

func seconds(_ duration: Duration) -> Double {
    Double(duration.components.seconds) + Double(duration.components.attoseconds) / 1e18
}

let cardCount = 1_000_000
let queryCount = 1_000_000
let runs = 5
var generator = SplitMix64(state: 42)
// Photo-like aspect ratios: landscape, portrait, square and the odd panorama.
let shapes: [(Double, Double)] = [(4, 3), (3, 4), (16, 9), (9, 16), (1, 1), (3, 2), (2, 3), (21, 9)]
let items = (0..<cardCount).map { _ in
    let shape = shapes.randomElement(using: &generator)!
    return LayoutItem(width: shape.0 * 1000, height: shape.1 * 1000)
}
let configuration = BoardConfiguration(
    extent: 1800, contentInsets: Insets(all: 16), cellPadding: Insets(all: 6),
    sectionStyle: SectionStyle(columns: .count(6), columnSpacing: 8, rowSpacing: 8))

let clock = ContinuousClock()
var layoutTimes: [Double] = []
var layout: MasonryLayout? = nil
for _ in 0..<runs {
    layout = nil  // free the previous board first: measure building, not freeing
    let start = clock.now
    layout = try MasonryLayout(configuration: configuration, sections: [LayoutSection(items: items)])
    layoutTimes.append(seconds(clock.now - start))
}
let board = layout!
let height = board.pageSize().height
print("layout: \(cardCount) cards, 6 columns, sheet 1800 x \(height) px")
print("  full layout: median \(format3(median(layoutTimes) * 1000)) ms over \(runs) runs (min \(format3(layoutTimes.min()! * 1000)) ms)")

// Justified rows of the same million cards (target 240 px, the default): the target is
// within twice masonry's time, and appending O(k) like masonry.
var justifiedTimes: [Double] = []
var justified: JustifiedLayout? = nil
for _ in 0..<runs {
    justified = nil
    let start = clock.now
    justified = try JustifiedLayout(
        configuration: configuration, rows: JustifiedRows(targetRowHeight: 240), sections: [LayoutSection(items: items)])
    justifiedTimes.append(seconds(clock.now - start))
}
print("justified: \(cardCount) cards, sheet 1800 x \(justified!.pageSize().height) px")
print("  full layout: median \(format3(median(justifiedTimes) * 1000)) ms over \(runs) runs, \(format3(median(justifiedTimes) / median(layoutTimes)))x masonry's")
var grownRows = justified!
justified = nil
var justifiedAppendTimes: [Double] = []
for round in 0..<50 {
    let batch = Array(items[(round * 100)..<(round * 100 + 100)])
    let start = clock.now
    try grownRows.append(batch)
    justifiedAppendTimes.append(seconds(clock.now - start))
}
print("  append: 100 cards to a \(cardCount)-card board, median \(format3(median(justifiedAppendTimes) * 1e6)) us over 50 appends")
if CommandLine.arguments.dropFirst().first == "layout" { exit(0) }

// Band queries at random positions; the count of elements returned is summed so that the
// work cannot be optimised away, and reported so the per-element cost can be judged.
let bands = (0..<queryCount).map { _ in Int.random(in: 0..<(height - 256), using: &generator) }
var queryTimes: [Double] = []
var returned = 0
for _ in 0..<runs {
    returned = 0
    let start = clock.now
    for y in bands {
        returned &+= board.elements(in: Rect(x: 0, y: y, width: 1800, height: 256)).count
    }
    queryTimes.append(seconds(clock.now - start))
}
let perQuery = median(queryTimes) / Double(queryCount) * 1e6
let perElement = Double(returned) / Double(queryCount)
print("elements(in:) 256 px band: \(queryCount) queries, \(format3(perElement)) elements each on average")
print("  median \(format3(median(queryTimes) * 1000)) ms in all, \(format3(perQuery)) us per query")

// What returning an element costs on its own: element(at:) for as many cards as the band
// queries returned, at random places (the queries' cards are as scattered in memory).
let paths = (0..<queryCount).map { _ in ItemPath(section: 0, item: Int.random(in: 0..<cardCount, using: &generator)) }
var elementTimes: [Double] = []
let perQueryElements = Int(perElement)
for _ in 0..<runs {
    var sum = 0
    let start = clock.now
    for path in paths {
        // One query's worth of neighbours: the cards around a random one.
        for offset in 0..<perQueryElements {
            sum &+= board.element(at: ItemPath(section: 0, item: (path.item + offset) % cardCount))!.frame.height
        }
    }
    elementTimes.append(seconds(clock.now - start))
    returned &+= sum
}
let perElementCost = median(elementTimes) / Double(queryCount)
print("  of which returning \(perQueryElements) elements costs \(format3(perElementCost * 1e6)) us: the search itself \(format3(perQuery - perElementCost * 1e6)) us")

// Appending is O(k): 100 cards at a time onto the million-card board.
var grown = board
var appendTimes: [Double] = []
for round in 0..<50 {
    let batch = Array(items[(round * 100)..<(round * 100 + 100)])
    let start = clock.now
    try grown.append(batch)
    appendTimes.append(seconds(clock.now - start))
}
print("append: 100 cards to a \(cardCount)-card board, median \(format3(median(appendTimes) * 1e6)) us over 50 appends")

// The same queries on a board of 6,000 cards: a query's cost should not grow with the board.
let small = try MasonryLayout(configuration: configuration, sections: [LayoutSection(items: Array(items.prefix(6_000)))])
let smallHeight = small.pageSize().height
var smallTimes: [Double] = []
for _ in 0..<runs {
    var sum = 0
    let start = clock.now
    for y in bands { sum &+= small.elements(in: Rect(x: 0, y: y % (smallHeight - 256), width: 1800, height: 256)).count }
    smallTimes.append(seconds(clock.now - start))
    returned &+= sum
}
print("  on a 6,000-card board: \(format3(median(smallTimes) / Double(queryCount) * 1e6)) us per query")
print("checksum \(returned)")

/// Three decimals, without Foundation.
func format3(_ value: Double) -> String {
    let thousandths = Int(value * 1000 + 0.5)
    let fraction = thousandths % 1000
    return "\(thousandths / 1000)." + (fraction < 10 ? "00" : fraction < 100 ? "0" : "") + "\(fraction)"
}
