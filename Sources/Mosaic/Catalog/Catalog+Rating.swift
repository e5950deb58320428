extension Catalog {
    /// The same catalog with only the photos rated `minimum` or more (XMP's `xmp:Rating`,
    /// read by a probe with `ImageDecoder.readsXMP`): an unrated photo counts as 0, a
    /// rejected one (-1) never passes. Entries that could not be read are kept (they are
    /// problems to report, not photos to judge). Sections left empty are dropped.
    ///
    /// - Throws: `CatalogError.noneRated` when no photo is left.
    public func keepingRated(atLeast minimum: Int) throws(CatalogError) -> Catalog {
        var kept = self
        var left = 0
        for i in kept.sections.indices {
            let before = kept.sections[i].entries.count
            kept.sections[i].entries.removeAll { entry in
                guard entry.problem == nil, entry.summarizedFailures == nil else { return false }
                let rating = entry.info?.shooting?.rating ?? 0
                return rating < 0 || rating < minimum
            }
            left += before - kept.sections[i].entries.count
            // Spans are by index: those of a filtered section no longer apply.
            if before != kept.sections[i].entries.count { kept.sections[i].spans = [:] }
        }
        kept.sections.removeAll { $0.entries.isEmpty }
        kept.belowRating += left
        if kept.sections.isEmpty { throw .noneRated(minimum: minimum, count: left) }
        return kept
    }
}
