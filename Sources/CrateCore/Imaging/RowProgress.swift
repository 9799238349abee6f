import Foundation

/// How many rows of an image being decoded are ready, shared by the decoding thread and a thread
/// that works on the rows as they arrive (decoding a 12 MP photo is the longest step of photo
/// preparation, and one core would otherwise sit idle through it).
///
/// Unchecked because every stored property is read and written only while holding `condition`;
/// a waiter needs a condition variable, which `Mutex` does not offer.
final class RowProgress: @unchecked Sendable {
    private let condition = NSCondition()
    private var ready = 0
    private var ended = false
    private var failed = false

    /// Called by the decoder: rows `0..<rows` are complete.
    func publish(_ rows: Int) {
        condition.lock()
        ready = rows
        condition.broadcast()
        condition.unlock()
    }

    /// Called by the decoder when it stops, whether every row arrived or not.
    func end(failed: Bool) {
        condition.lock()
        ended = true
        self.failed = failed
        condition.broadcast()
        condition.unlock()
    }

    /// Waits until more than `done` rows are ready or decoding has ended; returns the rows
    /// ready, or nil once decoding has failed (stop reading rows, they may be garbage).
    func wait(beyond done: Int) -> Int? {
        condition.lock()
        defer { condition.unlock() }
        while ready <= done && !ended { condition.wait() }
        return failed ? nil : ready
    }
}
