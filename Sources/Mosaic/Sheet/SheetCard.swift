/// A card's input and what it shows, as the layout, the renderer and the JSON map see it:
/// made on demand from the catalog's entry and the caption resolved once (the sheet keeps
/// no second copy of its entries).
struct SheetCard: Sendable {
    var entry: CatalogEntry
    var caption: Caption?
}
