/// An image in memory: RGBA, 8 bits per channel, premultiplied alpha, rows top to bottom
/// with no padding (`width * 4` bytes apart).
///
/// A value: copies share storage until one of them is written (copy on write), so it is
/// `Sendable` and can be handed between threads freely.
public struct Bitmap: Hashable, Sendable {
    public let width: Int
    public let height: Int
    /// `width * height * 4` bytes: R, G, B, A per pixel, premultiplied.
    public var pixels: [UInt8]

    /// A bitmap filled with one colour (premultiplied), transparent by default. A negative
    /// size counts as zero.
    public init(width: Int, height: Int, fill: RGBA = .transparent) {
        let width = max(0, width), height = max(0, height)
        self.width = width
        self.height = height
        let count = width * height
        if fill == .transparent {
            pixels = Array(repeating: 0, count: count * 4)
        } else {
            pixels = [UInt8](unsafeUninitializedCapacity: count * 4) { buffer, initialized in
                for i in 0..<count {
                    buffer[4 * i] = fill.red
                    buffer[4 * i + 1] = fill.green
                    buffer[4 * i + 2] = fill.blue
                    buffer[4 * i + 3] = fill.alpha
                }
                initialized = count * 4
            }
        }
    }

    /// Wraps premultiplied RGBA pixels; `nil` when the count is not `width * height * 4`.
    public init?(width: Int, height: Int, pixels: [UInt8]) {
        guard width >= 0, height >= 0, pixels.count == width * height * 4 else { return nil }
        self.width = width
        self.height = height
        self.pixels = pixels
    }

    /// Bytes between the starts of two rows.
    public var stride: Int { width * 4 }

    /// The pixel at (x, y), origin top-left; premultiplied.
    public subscript(x: Int, y: Int) -> RGBA {
        get {
            let i = (y * width + x) * 4
            return RGBA(red: pixels[i], green: pixels[i + 1], blue: pixels[i + 2], alpha: pixels[i + 3])
        }
        set {
            let i = (y * width + x) * 4
            pixels[i] = newValue.red
            pixels[i + 1] = newValue.green
            pixels[i + 2] = newValue.blue
            pixels[i + 3] = newValue.alpha
        }
    }

    /// True when every pixel is fully opaque.
    public var isOpaque: Bool {
        var index = 3
        while index < pixels.count {
            if pixels[index] != 255 { return false }
            index += 4
        }
        return true
    }
}

/// `value * alpha / 255`, rounded to nearest: exact for every pair of 8-bit values.
@inline(__always)
public func premultiply(_ value: UInt8, _ alpha: UInt8) -> UInt8 {
    let product = UInt32(value) * UInt32(alpha) + 128
    return UInt8((product + (product >> 8)) >> 8)
}

/// `value * 255 / alpha`, rounded, at most 255: the inverse of `premultiply` (for alpha
/// above 0).
@inline(__always)
public func unpremultiply(_ value: UInt8, _ alpha: UInt8) -> UInt8 {
    let a = UInt32(alpha)
    return UInt8(min(255, (UInt32(value) * 255 + a / 2) / a))
}
