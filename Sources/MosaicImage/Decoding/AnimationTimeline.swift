/// An animation's frames (an animated GIF, WebP or JPEG XL): when each starts and how long the
/// whole plays, read without decoding a frame (`ImageCodec.timeline(_:info:)`).
public struct AnimationTimeline: Sendable, Hashable {
    /// Each frame's start, in seconds from the first (0, ascending).
    public var starts: [Double]
    /// Seconds the animation plays, once.
    public var duration: Double

    /// The most frames a timeline holds (the rest of a longer animation is left out).
    public static let maximumFrames = 100_000

    public init(starts: [Double], duration: Double) {
        self.starts = starts
        self.duration = duration
    }

    /// The frame shown at `time` seconds: the last that starts at or before it.
    public func frame(at time: Double) -> Int {
        var (low, high) = (0, starts.count - 1)
        guard high > 0 else { return 0 }
        while low < high {
            let middle = (low + high + 1) / 2
            if starts[middle] <= time + 1e-9 { low = middle } else { high = middle - 1 }
        }
        return low
    }

    /// Reads a timeline through a shim's call; nil when it fails or finds fewer than two
    /// frames (a still image).
    static func read(
        _ bytes: [UInt8],
        _ call: (UnsafePointer<UInt8>?, Int, UnsafeMutablePointer<Double>?, Int32, UnsafeMutablePointer<Int32>?, UnsafeMutablePointer<Double>?) -> Bool
    ) -> AnimationTimeline? {
        var starts = [Double](repeating: 0, count: min(maximumFrames, max(1, bytes.count / 8)))
        var count: Int32 = 0
        var duration = 0.0
        let ok = bytes.withUnsafeBufferPointer { input in
            starts.withUnsafeMutableBufferPointer { out in call(input.baseAddress, input.count, out.baseAddress, Int32(out.count), &count, &duration) }
        }
        guard ok, count > 1, duration > 0 else { return nil }
        return AnimationTimeline(starts: Array(starts.prefix(Int(count))), duration: duration)
    }
}
