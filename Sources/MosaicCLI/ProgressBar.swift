import ArgumentParser
import Foundation
import MosaicSync
import Mosaic

/// A one-line progress bar with count, rate and ETA on standard error.
final class ProgressBar: Sendable {
    let enabled: Bool
    let start = Date()
    /// When the bar was last drawn: updates come from the compositor, one at a time, but
    /// the callback is `@Sendable`.
    let lastDraw = Locked(Date.distantPast)

    init(enabled: Bool) { self.enabled = enabled }

    func update(_ progress: RenderProgress) {
        guard enabled else { return }
        lastDraw.withLock { lastDraw in
            let now = Date()
            guard progress.done == progress.total || now.timeIntervalSince(lastDraw) > 0.1 else { return }
            lastDraw = now
            let fraction = progress.total == 0 ? 1 : Double(progress.done) / Double(progress.total)
            let width = 30
            let filled = Int(fraction * Double(width))
            let elapsed = now.timeIntervalSince(start)
            let rate = elapsed > 0 ? Double(progress.done) / elapsed : 0
            let remaining = rate > 0 ? Double(progress.total - progress.done) / rate : 0
            let bar = String(repeating: "#", count: filled) + String(repeating: "-", count: width - filled)
            let text = String(format: "\r[%@] %d/%d  %.0f/s  ETA %.0fs ", bar, progress.done, progress.total, rate, remaining)
            FileHandle.standardError.write(Data(text.utf8))
        }
    }

    func finish() {
        guard enabled else { return }
        FileHandle.standardError.write(Data("\r\u{1B}[K".utf8))
    }
}
