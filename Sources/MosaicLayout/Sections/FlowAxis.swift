/// Maps the engine's flow coordinates to the page: "main" runs along the flow (down on a
/// vertical board, right on a horizontal one), "cross" runs across it.
struct FlowAxis: Hashable, Sendable {
    let isVertical: Bool

    init(_ direction: Direction) {
        isVertical = direction == .vertical
    }

    func rect(main: Int, cross: Int, mainLength: Int, crossLength: Int) -> Rect {
        isVertical
            ? Rect(x: cross, y: main, width: crossLength, height: mainLength)
            : Rect(x: main, y: cross, width: mainLength, height: crossLength)
    }

    func mainMin(_ r: Rect) -> Int { isVertical ? r.minY : r.minX }
    func mainMax(_ r: Rect) -> Int { isVertical ? r.maxY : r.maxX }
    func crossMin(_ r: Rect) -> Int { isVertical ? r.minX : r.minY }
    func crossMax(_ r: Rect) -> Int { isVertical ? r.maxX : r.maxY }

    func size(main: Int, cross: Int) -> Size {
        isVertical ? Size(width: cross, height: main) : Size(width: main, height: cross)
    }

    /// Insets in flow terms.
    func flow(_ insets: Insets) -> FlowInsets {
        isVertical
            ? FlowInsets(mainStart: insets.top, mainEnd: insets.bottom, crossStart: insets.left, crossEnd: insets.right)
            : FlowInsets(mainStart: insets.left, mainEnd: insets.right, crossStart: insets.top, crossEnd: insets.bottom)
    }
}
