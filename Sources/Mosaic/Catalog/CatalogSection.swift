/// A group of entries, with an optional header and footer text.
public struct CatalogSection: Sendable, Hashable {
    /// Text above the section.
    public var header: String?
    /// Text below the section.
    public var footer: String?
    /// The inputs, in order.
    public var entries: CatalogEntries
    /// Settings of this section that differ from the sheet's.
    public var overrides: SectionOverrides
    /// Inputs that could not be read past the section's first `Catalog.placeholderLimit`
    /// failures: not drawn as cards of their own but as one card that stands for them all
    /// (`CatalogEntry.summarizedFailures`), and named in the summary and the image map.
    public var summarizedProblems: [CardProblem] = []
    /// Feature cards: the columns an entry spans, by its index (a manifest's `span`);
    /// entries not listed span one.
    public var spans: [Int: Int] = [:]

    /// A section of `entries`.
    public init(header: String? = nil, footer: String? = nil, entries: CatalogEntries, overrides: SectionOverrides = SectionOverrides()) {
        self.header = header
        self.footer = footer
        self.entries = entries
        self.overrides = overrides
    }

    /// A section of `entries`, packed.
    public init(header: String? = nil, footer: String? = nil, entries: some Sequence<CatalogEntry>, overrides: SectionOverrides = SectionOverrides()) {
        self.init(header: header, footer: footer, entries: CatalogEntries(entries), overrides: overrides)
    }
}
