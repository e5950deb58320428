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
