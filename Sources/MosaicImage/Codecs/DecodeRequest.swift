import MosaicLayout

/// What a decode is asked for.
public struct DecodeRequest: Sendable {
    /// Names the file in errors and warnings.
    public var path: String
    /// The smallest upright size the result must cover; nil for full size.
    public var minimumSize: Size?
    /// Premultiply the alpha (everything but comparisons wants it).
    public var premultiplyAlpha: Bool
    /// Damaged data that the library works around is an error, not a warning.
    public var strict: Bool
    /// Caps for untrusted files (scans, decoder memory).
    public var limits: ImageLimits = ImageLimits()
    /// Convert pixels with an embedded ICC profile to sRGB (`ColorTransforms`).
    public var manageColor = true
    /// How a video's frame is chosen and decoded (poster time, exact frames, time limit).
    public var video = VideoDecoding()

    public init(
        path: String, minimumSize: Size? = nil, premultiplyAlpha: Bool = true, strict: Bool = false, limits: ImageLimits = ImageLimits()
    ) {
        self.limits = limits
        self.path = path
        self.minimumSize = minimumSize
        self.premultiplyAlpha = premultiplyAlpha
        self.strict = strict
    }
}
