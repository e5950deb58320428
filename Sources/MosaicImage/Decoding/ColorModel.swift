/// The colour model an image's headers declare, in its format's terms: how the decoder
/// reads the pixels (a JPEG's CMYK and YCCK are inks that a CMYK profile converts), and the
/// short name `mosaic probe` prints. Encoded (`Codable`) as that name.
public enum ColorModel: Hashable, Sendable, Codable, CustomStringConvertible, ExpressibleByStringLiteral {
    case grey
    case greyAlpha
    case rgb
    case rgba
    case palette
    case ycbcr
    /// Printing inks.
    case cmyk
    /// Inks stored as YCbCr plus black (JPEG; decoded to CMYK).
    case ycck
    /// TIFF's transparency mask and CIE L*a*b*.
    case mask
    case lab
    /// WebP's two codings.
    case lossy
    case lossless
    /// A WebP animation of `frames` frames.
    case animation(frames: Int)
    /// HEIF and AVIF: YCbCr with this many stored thumbnails (at least 1; none is `ycbcr`).
    case ycbcrWithThumbnails(Int)
    /// Any other model, by the name its reader gives it ("unknown", "photometric 32844").
    case other(String)

    static let named: [String: ColorModel] = [
        "grey": .grey, "grey+alpha": .greyAlpha, "rgb": .rgb, "rgba": .rgba, "palette": .palette, "ycbcr": .ycbcr,
        "cmyk": .cmyk, "ycck": .ycck, "mask": .mask, "lab": .lab, "lossy": .lossy, "lossless": .lossless,
    ]

    /// The model a name stands for (`init(name: model.name) == model`).
    public init(name: String) {
        if let known = Self.named[name] {
            self = known
            return
        }
        for candidate in [Self.animationFrames(in: name).map(ColorModel.animation), Self.thumbnails(in: name).map(ColorModel.ycbcrWithThumbnails)] {
            if let candidate, candidate.name == name {
                self = candidate
                return
            }
        }
        self = .other(name)
    }

    public init(stringLiteral name: String) { self.init(name: name) }

    /// The short name: "grey", "ycbcr", "cmyk", "animation (12 frames)", "ycbcr, 1 thumbnail".
    public var name: String {
        switch self {
        case .grey: "grey"
        case .greyAlpha: "grey+alpha"
        case .rgb: "rgb"
        case .rgba: "rgba"
        case .palette: "palette"
        case .ycbcr: "ycbcr"
        case .cmyk: "cmyk"
        case .ycck: "ycck"
        case .mask: "mask"
        case .lab: "lab"
        case .lossy: "lossy"
        case .lossless: "lossless"
        case .animation(let frames): "animation (\(frames) frame\(frames == 1 ? "" : "s"))"
        case .ycbcrWithThumbnails(let count): count > 0 ? "ycbcr, \(count) thumbnail\(count == 1 ? "" : "s")" : "ycbcr"
        case .other(let name): name
        }
    }

    public var description: String { name }

    /// The pixels are inks (CMYK, or YCCK that the decoder turns into CMYK): what a CMYK
    /// profile converts, and without one the decoder's own formula.
    public var isInks: Bool { self == .cmyk || self == .ycck }

    /// A WebP animation (the decoder draws its first frame on its canvas).
    public var isAnimation: Bool {
        if case .animation = self { return true }
        return false
    }

    public init(from decoder: any Decoder) throws {
        self.init(name: try decoder.singleValueContainer().decode(String.self))
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(name)
    }

    static func animationFrames(in name: String) -> Int? {
        guard name.hasPrefix("animation ("), let digits = name.dropFirst("animation (".count).split(separator: " ").first else { return nil }
        return Int(digits)
    }

    static func thumbnails(in name: String) -> Int? {
        guard name.hasPrefix("ycbcr, "), let digits = name.dropFirst("ycbcr, ".count).split(separator: " ").first else { return nil }
        return Int(digits)
    }
}

/// How an image's data is spread over passes; nil in `ImageInfo` for sequential data.
public enum Interlacing: String, Hashable, Sendable, Codable, CustomStringConvertible {
    /// JPEG's progressive scans.
    case progressive
    /// Adam7 (PNG) or a GIF's four passes.
    case interlaced
    /// TIFF tiles.
    case tiled

    public var description: String { rawValue }
}
