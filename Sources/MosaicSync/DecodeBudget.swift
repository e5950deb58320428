import Dispatch

/// A budget of decoded-pixel bytes shared by the decoding workers: a decode waits while
/// others hold the budget, so a folder of huge PNGs does not decode several at once. One
/// decode larger than the whole budget still runs, alone. The render's decodes share
/// `shared`; `mosaic diff`'s pairs have their own (`FolderComparison.memoryBudget`).
///
/// Counted in units (1 MiB by default) on a semaphore; one reservation takes its units
/// at a time (the `acquiring` mutex), so two large ones never hold half each and wait on
/// each other.
public final class DecodeBudget: Sendable {
    /// 64 MiB: room for one 12 MP progressive JPEG's coefficients at 2/8 beside baseline
    /// decodes, but not for two such files at once, which raised a render's peak memory
    /// (the figures: docs/guide/benchmarks.md, "Memory").
    public static let shared = DecodeBudget(bytes: 64 << 20)

    public let unit: Int
    public let units: Int
    private let available: DispatchSemaphore
    private let acquiring = Locked(())

    public init(bytes: Int, unit: Int = 1 << 20) {
        self.unit = max(1, unit)
        units = max(1, bytes / self.unit)
        available = DispatchSemaphore(value: units)
    }

    /// The units `bytes` take: at least one, at most the whole budget.
    public func count(_ bytes: Int) -> Int {
        min(units, max(1, (bytes + unit - 1) / unit))
    }

    /// Waits until `bytes` fit beside what others hold, and takes them.
    public func reserve(_ bytes: Int) {
        let n = count(bytes)
        acquiring.withLock { _ in
            for _ in 0..<n { available.wait() }
        }
    }

    /// Gives back what `reserve(bytes)` took.
    public func release(_ bytes: Int) {
        for _ in 0..<count(bytes) { available.signal() }
    }
}
