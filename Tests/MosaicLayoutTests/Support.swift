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

func items(_ sizes: [(Int, Int)]) -> [LayoutItem] {
    sizes.map { LayoutItem(width: $0.0, height: $0.1) }
}

func cardFrames(_ layout: MasonryLayout, page: Int = 0) -> [Rect] {
    layout.elements(onPage: page).filter { $0.kind == .card }.map(\.frame)
}
