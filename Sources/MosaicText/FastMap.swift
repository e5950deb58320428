/// A small open-addressing hash map from UInt64 keys, for the typesetter's per-character
/// caches: Swift's Dictionary seeds and finalizes SipHash on every lookup, which cost more
/// than the rest of measuring a caption.
struct FastMap<Value> {
    private var keys: [UInt64]
    private var values: [Value?]
    private var mask: Int
    private(set) var count = 0
    /// Keys are stored plus one, so that 0 marks an empty slot.
    init(capacity: Int = 256) {
        var size = 16
        while size < capacity * 2 { size <<= 1 }
        keys = Array(repeating: 0, count: size)
        values = Array(repeating: nil, count: size)
        mask = size - 1
    }

    @inline(__always)
    private func slot(_ key: UInt64) -> Int {
        Int(truncatingIfNeeded: (key &* 0x9E37_79B9_7F4A_7C15) >> 32) & mask
    }

    subscript(key: UInt64) -> Value? {
        get {
            let stored = key &+ 1
            var i = slot(key)
            while true {
                let k = keys[i]
                if k == stored { return values[i] }
                if k == 0 { return nil }
                i = (i + 1) & mask
            }
        }
        set {
            guard let newValue else { return }  // removal is never needed
            if (count + 1) * 2 > keys.count { grow() }
            let stored = key &+ 1
            var i = slot(key)
            while true {
                let k = keys[i]
                if k == stored {
                    values[i] = newValue
                    return
                }
                if k == 0 {
                    keys[i] = stored
                    values[i] = newValue
                    count += 1
                    return
                }
                i = (i + 1) & mask
            }
        }
    }

    private mutating func grow() {
        let oldKeys = keys, oldValues = values
        keys = Array(repeating: 0, count: oldKeys.count * 2)
        values = Array(repeating: nil, count: oldKeys.count * 2)
        mask = keys.count - 1
        count = 0
        for (i, k) in oldKeys.enumerated() where k != 0 { self[k &- 1] = oldValues[i] }
    }
}
