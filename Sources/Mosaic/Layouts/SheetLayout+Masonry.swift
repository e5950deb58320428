extension SheetLayout {
    /// Masonry: equal columns, each card as tall as its image's aspect ratio makes it, each
    /// dropped into the shortest column (`--order`); `--max-aspect` clamps extreme images.
    public static let masonry = SheetLayout(
        name: "masonry", summary: "cards as tall as their images"
    ) { _, configuration, sections, captions throws(LayoutError) in
        try MasonryLayout(configuration: configuration, sections: sections, measurer: captions)
    }
}
