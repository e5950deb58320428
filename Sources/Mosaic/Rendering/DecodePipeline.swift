import Dispatch
import Foundation
import MosaicSync

/// Decodes cards ahead of the compositor on a few threads, in the order the compositor
/// needs them (top to bottom), no further than the line it allows (`allow(upTo:)`), so
/// memory stays bounded by the sheet's width times the tallest cards.
///
/// Jobs are sorted by their top; a job is admitted once its top is above the allowed line
/// (one signal of `admitted` per job), workers take admitted jobs in order, and each result
/// is announced on one condition (not a semaphore per job: a page may hold 100,000). The
/// shared state is behind one `Locked`.
final class DecodePipeline: Sendable {
    let jobs: [DecodeJob]
    /// Where a job's card starts (its frame's top), in the order of `jobs`.
    private let top: @Sendable (DecodeJob) -> Int
    private let decodeOne: @Sendable (DecodeJob) -> DecodedCard
    private let workerCount: Int
    private let admitted = DispatchSemaphore(value: 0)
    /// Broadcast when a result is stored.
    private let ready = NSCondition()
    private let exited = DispatchSemaphore(value: 0)

    private struct State: Sendable {
        var admittedCount = 0
        var next = 0
        var results: [Int: DecodedCard] = [:]
        var cancelled = false
        var started = false
    }
    private let state = Locked(State())

    init(jobs: [DecodeJob], top: @escaping @Sendable (DecodeJob) -> Int, workers: Int, decode: @escaping @Sendable (DecodeJob) -> DecodedCard) {
        self.jobs = jobs
        self.top = top
        self.decodeOne = decode
        self.workerCount = max(1, workers)
    }

    /// Starts the workers (threads with a 4 MiB stack: the codecs' C code wants room).
    func start() {
        guard state.withLock({ s in
            defer { s.started = true }
            return !s.started
        }) else { return }
        for n in 0..<workerCount {
            let thread = Thread { [self] in
                work()
                exited.signal()
            }
            thread.name = "mosaic-decode-\(n)"
            thread.stackSize = 4 << 20
            thread.start()
        }
    }

    /// Lets the workers decode every card that starts above `y`.
    func allow(upTo y: Int) {
        let newly = state.withLock { s -> Int in
            let before = s.admittedCount
            while s.admittedCount < jobs.count && top(jobs[s.admittedCount]) < y { s.admittedCount += 1 }
            return s.admittedCount - before
        }
        for _ in 0..<newly { admitted.signal() }
    }

    private func work() {
        while true {
            admitted.wait()
            let index = state.withLock { s -> Int? in
                guard !s.cancelled, s.next < jobs.count else { return nil }
                defer { s.next += 1 }
                return s.next
            }
            guard let index else { return }
            let result = decodeOne(jobs[index])
            state.withLock { $0.results[index] = result }
            ready.lock()
            ready.broadcast()
            ready.unlock()
        }
    }

    /// The decoded card `index`, whose card starts at `top`, waiting for it if needed.
    func result(_ index: Int, top: Int) -> DecodedCard {
        allow(upTo: top + 1)
        if let done = state.withLock({ $0.results[index] }) { return done }
        // The check and the wait under the condition's lock, which a worker takes to
        // announce a result after storing it: no announcement is missed.
        ready.lock()
        defer { ready.unlock() }
        while true {
            if let done = state.withLock({ $0.results[index] }) { return done }
            ready.wait()
        }
    }

    /// Frees a card's pixels once the band has passed it.
    func release(_ index: Int) {
        _ = state.withLock { $0.results.removeValue(forKey: index) }
    }

    /// Stops the workers (after the job each is doing) and waits for them.
    func finish() {
        let running = state.withLock { s -> Bool in
            s.cancelled = true
            return s.started
        }
        guard running else { return }
        for _ in 0..<workerCount { admitted.signal() }
        for _ in 0..<workerCount { exited.wait() }
    }
}
