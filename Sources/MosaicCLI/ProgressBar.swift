import ArgumentParser
import Foundation
import MosaicSync
import Mosaic

/// A one-line progress bar with count, rate and ETA on standard error, never wider than
/// the terminal (it would wrap and print a new line per update); an interrupt clears it.
final class ProgressBar: Sendable {
    let enabled: Bool
    let start = Date()
    /// When the bar was last drawn: updates come from the compositor, one at a time, but
    /// the callback is `@Sendable`.
    let lastDraw = Locked(Date.distantPast)
    /// The terminal's width when the bar started.
    let columns: Int

    init(enabled: Bool, columns: Int? = nil) {
        self.enabled = enabled
        self.columns = columns ?? Self.terminalColumns()
        if enabled { TemporaryFiles.progressLine(active: true) }
    }

    /// Standard error's terminal width, else $COLUMNS, else 80.
    static func terminalColumns() -> Int {
        var size = winsize()
        if ioctl(2, UInt(TIOCGWINSZ), &size) == 0, size.ws_col > 0 { return Int(size.ws_col) }
        if let text = ProcessInfo.processInfo.environment["COLUMNS"], let value = Int(text), value > 0 { return value }
        return 80
    }

    func update(_ progress: RenderProgress) {
        guard enabled else { return }
        lastDraw.withLock { lastDraw in
            let now = Date()
            guard progress.done == progress.total || now.timeIntervalSince(lastDraw) > 0.1 else { return }
            lastDraw = now
            let text = Self.line(done: progress.done, total: progress.total, elapsed: now.timeIntervalSince(start), columns: columns)
            Terminal.writeError(Data(("\r" + text + "\u{1B}[K").utf8))
        }
    }

    /// The bar for `done` of `total` after `elapsed` seconds, at most `columns - 1` wide.
    /// The ETA waits for a second and 5% of the work (the first cards wait for the
    /// decoders to fill, which made a 5 s run start at "ETA 44s"), then extrapolates the
    /// average rate.
    static func line(done: Int, total: Int, elapsed: Double, columns: Int) -> String {
        let fraction = total == 0 ? 1 : Double(done) / Double(total)
        let rate = elapsed > 0 ? Double(done) / elapsed : 0
        var figures = " \(done)/\(total)"
        if done < total {
            if elapsed >= 1 && fraction >= 0.05 && rate > 0 {
                figures += String(format: "  ETA %.0fs", Double(total - done) / rate)
            } else {
                figures += "  ETA --"
            }
        }
        let room = columns - 1 - figures.count - 2
        guard room >= 5 else { return String(figures.dropFirst().prefix(max(0, columns - 1))) }
        let width = min(30, room)
        let filled = min(width, Int(fraction * Double(width)))
        return "[" + String(repeating: "#", count: filled) + String(repeating: "-", count: width - filled) + "]" + figures
    }

    func finish() {
        guard enabled else { return }
        Terminal.writeError(Data("\r\u{1B}[K".utf8))
        TemporaryFiles.progressLine(active: false)
    }
}
