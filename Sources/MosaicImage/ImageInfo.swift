/// The file formats mosaic reads, recognised by their signature (never the extension).
public enum ImageFormat: String, Sendable, Hashable, Codable, CaseIterable {
    case jpeg
    case png

    /// The format whose signature starts `bytes`, or nil.
    public static func detect(_ bytes: some Collection<UInt8>) -> ImageFormat? {
        let head = Array(bytes.prefix(8))
        if head.count >= 3, head[0] == 0xFF, head[1] == 0xD8, head[2] == 0xFF { return .jpeg }
        if head == [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A] { return .png }
        return nil
    }
}

/// EXIF orientation: how the stored pixels must be turned to display upright.
public enum Orientation: Int, Sendable, Hashable, Codable, CaseIterable, CustomStringConvertible {
    /// As stored.
    case up = 1
    /// Mirrored left to right.
    case upMirrored = 2
    /// Turned 180 degrees.
    case down = 3
    /// Mirrored top to bottom.
    case downMirrored = 4
    /// Mirrored along the top-left to bottom-right diagonal (transposed).
    case leftMirrored = 5
    /// Stored turned a quarter anticlockwise: display it turned 90 degrees clockwise.
    case right = 6
    /// Mirrored along the other diagonal (transversed).
    case rightMirrored = 7
    /// Stored turned a quarter clockwise: display it turned 90 degrees anticlockwise.
    case left = 8

    /// True when displaying swaps width and height (5 to 8).
    public var swapsAxes: Bool { rawValue >= 5 }

    public var description: String {
        switch self {
        case .up: return "1 (normal)"
        case .upMirrored: return "2 (mirrored)"
        case .down: return "3 (rotate 180)"
        case .downMirrored: return "4 (mirrored vertically)"
        case .leftMirrored: return "5 (transposed)"
        case .right: return "6 (rotate 90 CW)"
        case .rightMirrored: return "7 (transversed)"
        case .left: return "8 (rotate 90 CCW)"
        }
    }
}

/// What an image's headers say, read without decoding a pixel.
public struct ImageInfo: Sendable, Hashable, Codable {
    public var format: ImageFormat
    /// The stored size in pixels.
    public var width: Int
    public var height: Int
    public var orientation: Orientation
    public var hasAlpha: Bool
    /// JPEG: progressive scans; PNG: Adam7 interlacing.
    public var isProgressive: Bool
    /// Bits per sample (PNG 1 to 16; JPEG 8).
    public var bitDepth: Int
    /// A short name of the colour model: "grey", "rgb", "ycbcr", "cmyk", "ycck", "palette",
    /// "grey+alpha", "rgba".
    public var colorModel: String
    /// PNG: the tEXt "Software" value ("mosaic" for mosaic's own sheets), if any.
    public var software: String? = nil

    public init(
        format: ImageFormat, width: Int, height: Int, orientation: Orientation, hasAlpha: Bool, isProgressive: Bool,
        bitDepth: Int, colorModel: String, software: String? = nil
    ) {
        self.format = format
        self.width = width
        self.height = height
        self.orientation = orientation
        self.hasAlpha = hasAlpha
        self.isProgressive = isProgressive
        self.bitDepth = bitDepth
        self.colorModel = colorModel
        self.software = software
    }

    /// The size as displayed, after the orientation.
    public var orientedWidth: Int { orientation.swapsAxes ? height : width }
    public var orientedHeight: Int { orientation.swapsAxes ? width : height }
}
