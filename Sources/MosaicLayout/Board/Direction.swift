/// Which way the board grows.
public enum Direction: String, Codable, Sendable, CaseIterable {
    /// Equal-width columns; the sheet grows downwards.
    case vertical
    /// Equal-height rows; the sheet grows to the right.
    case horizontal
}
