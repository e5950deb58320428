/// What the renderer and the image map need of a laid-out board, whatever the layout:
/// pages and their sizes, the elements of a page or of a rect of it, and the cards.
///
/// `MasonryLayout` and `GridLayout` conform (both through `SectionLayout`, which shares
/// sections, headers, footers, decorations, insets and pagination). A layout of another
/// family conforms directly. Frames are integral pixels in the coordinates of their page,
/// origin top-left, y down.
public protocol BoardLayout: Sendable {
    /// The number of pages (1 without pagination).
    var pageCount: Int { get }
    /// The number of sections.
    var sectionCount: Int { get }
    /// The number of cards in all sections.
    var cardCount: Int { get }
    /// The number of cards in `section`; 0 when there is no such section.
    func itemCount(inSection section: Int) -> Int
    /// The size of `page` in pixels; `.zero` for a page that does not exist.
    func pageSize(_ page: Int) -> Size
    /// The card at `path`, or `nil` when there is none.
    func element(at path: ItemPath) -> LayoutAttributes?
    /// Every element of `page` whose frame shares a pixel with `rect`, in z order
    /// (decorations, cards, headers and footers) and, within a z, in document order.
    /// Conformers say their complexity; it must not be a scan of the whole board.
    func elements(in rect: Rect, page: Int) -> [LayoutAttributes]
    /// The columns (rows, when horizontal) `section` is dealt into.
    func columnCount(inSection section: Int) -> Int
}

extension BoardLayout {
    /// The columns (rows, when horizontal) `section` is dealt into; 1 for a layout of rows
    /// or a section that does not exist.
    public func columnCount(inSection section: Int) -> Int { 1 }

    /// Every element of `page`, in z then document order.
    public func elements(onPage page: Int = 0) -> [LayoutAttributes] {
        let size = pageSize(page)
        return elements(in: Rect(x: 0, y: 0, width: size.width, height: size.height), page: page)
    }
}
