/// A group of entries, with an optional header and footer text.
public struct CatalogSection: Sendable, Hashable {
    public var header: String?
    public var footer: String?
    public var entries: [CatalogEntry]
    public var overrides: SectionOverrides

    public init(header: String? = nil, footer: String? = nil, entries: [CatalogEntry], overrides: SectionOverrides = SectionOverrides()) {
        self.header = header
        self.footer = footer
        self.entries = entries
        self.overrides = overrides
    }
}
