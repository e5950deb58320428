import MosaicLayout

/// A deterministic stand-in for real text: 10 px per character, 16 px per line, the title
/// a line of its own.
struct FakeText: TextMeasuring {
    static let lineHeight = 16

    func height(of caption: Caption, width: Int) -> Int {
        let perLine = max(1, width / 10)
        let titleLines = caption.title.isEmpty ? 0 : 1
        let count = caption.description.count
        let descriptionLines = (count + perLine - 1) / perLine
        return (titleLines + descriptionLines) * Self.lineHeight
    }

    func reservedHeight(of caption: Caption) -> Int { 2 * Self.lineHeight }
}

/// SplitMix64: a small seeded generator, so that every random board can be made again.
struct SeededGenerator: RandomNumberGenerator {
    var state: UInt64

    init(seed: UInt64) { state = seed }

    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}

func items(_ sizes: [(Int, Int)]) -> [LayoutItem] {
    sizes.map { LayoutItem(width: $0.0, height: $0.1) }
}

func cardFrames(_ layout: MasonryLayout, page: Int = 0) -> [Rect] {
    layout.elements(onPage: page).filter { $0.kind == .card }.map(\.frame)
}
