import MosaicLayout

/// A caption set for a width: what the renderer draws, and exactly what was measured.
public struct CaptionLayout: Hashable, Sendable {
    public var title: TextLayout?
    public var description: TextLayout?
    public var gap: Int

    public var height: Int {
        let t = title?.height ?? 0, d = description?.height ?? 0
        return t + d + (t > 0 && d > 0 ? gap : 0)
    }

    /// Where the description starts below the caption's top.
    public var descriptionTop: Int {
        let t = title?.height ?? 0
        return t + (t > 0 && (description?.height ?? 0) > 0 ? gap : 0)
    }
}
