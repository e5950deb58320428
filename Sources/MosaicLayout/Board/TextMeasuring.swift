/// Measures captions for the layout. The text module implements it with real fonts; the
/// renderer draws with the same code, so a measured caption is exactly as tall as drawn.
public protocol TextMeasuring {
    /// The height in pixels that `caption` takes when broken into lines `width` pixels wide.
    func height(of caption: Caption, width: Int) -> Int
    /// The height in pixels reserved for `caption` when its width is not known in advance
    /// (the fixed caption block of a horizontal board): its maximum line count times the
    /// line height.
    func reservedHeight(of caption: Caption) -> Int
}
