/// A card's input and what it shows: resolved once, used by the layout, the renderer and
/// the JSON map.
struct SheetCard: Sendable {
    var entry: CatalogEntry
    var caption: Caption?
}
