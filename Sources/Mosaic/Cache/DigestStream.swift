import CMosaicShims

/// An incremental XXH3-128 of many pieces (a sheet's every element): `add`, then `finish`.
final class DigestStream {
    private var state: UnsafeMutableRawPointer?

    init() { state = mosaic_hash_begin() }

    deinit { if let state { _ = mosaic_hash_end(state) } }

    /// Adds a text's UTF-8 bytes and a separator (so "ab","c" and "a","bc" differ).
    func add(_ text: String) {
        var text = text
        text.withUTF8 { mosaic_hash_add(state, $0.baseAddress, $0.count) }
        var separator: UInt8 = 0
        mosaic_hash_add(state, &separator, 1)
    }

    /// Adds bytes as they are (a file name's), and a separator.
    func add(bytes: [UInt8]) {
        bytes.withUnsafeBytes { mosaic_hash_add(state, $0.baseAddress, $0.count) }
        var separator: UInt8 = 0
        mosaic_hash_add(state, &separator, 1)
    }

    func add(_ digest: CacheDigest) { add(bytes: digest.bytes) }

    /// The digest; nil when memory ran out at the start.
    func finish() -> CacheDigest? {
        guard let state else { return nil }
        self.state = nil
        let digest = mosaic_hash_end(state)
        return CacheDigest(low: digest.low, high: digest.high)
    }
}
