import CMosaicShims

/// A 128-bit digest (XXH3-128) of bytes: a file's content, or an entry's key.
public struct CacheDigest: Hashable, Sendable, CustomStringConvertible {
    public var low: UInt64
    public var high: UInt64

    public init(low: UInt64, high: UInt64) {
        self.low = low
        self.high = high
    }

    /// The digest of `bytes`.
    public init(of bytes: [UInt8]) {
        let digest = bytes.withUnsafeBytes { mosaic_hash128($0.baseAddress, $0.count) }
        self.init(low: digest.low, high: digest.high)
    }

    /// The digest of part of an array.
    public init(of bytes: ArraySlice<UInt8>) {
        let digest = bytes.withUnsafeBytes { mosaic_hash128($0.baseAddress, $0.count) }
        self.init(low: digest.low, high: digest.high)
    }

    /// The digest of a text's UTF-8 bytes.
    public init(text: String) {
        var text = text
        let digest = text.withUTF8 { mosaic_hash128($0.baseAddress, $0.count) }
        self.init(low: digest.low, high: digest.high)
    }

    /// 32 lowercase hex digits, high half first: the entry's file name.
    public var description: String { Self.hex(high) + Self.hex(low) }

    static func hex(_ value: UInt64) -> String {
        let digits = String(value, radix: 16)
        return String(repeating: "0", count: 16 - digits.count) + digits
    }

    /// The 16 bytes, little-endian, low half first.
    var bytes: [UInt8] {
        var out: [UInt8] = []
        out.reserveCapacity(16)
        for value in [low, high] { for shift in stride(from: 0, to: 64, by: 8) { out.append(UInt8(truncatingIfNeeded: value >> UInt64(shift))) } }
        return out
    }
}

