import Foundation

/// How many rows of an image being decoded are ready, shared by the decoding thread and a thread
/// that works on the rows as they arrive (decoding a 12 MP photo is the longest step of photo
/// preparation, and one core would otherwise sit idle through it).
///
/// Unchecked because every stored property but two is read and written only while holding
/// `condition` (a waiter needs a condition variable, which `Mutex` does not offer). The two
/// exceptions, `onDecoderThread` and `producerDone`, belong to the decoding thread: the hook is
/// set before decoding starts and both are then touched only by `publish`, on that thread.
final class RowProgress: @unchecked Sendable {
    private let condition = NSCondition()
    private var ready = 0
    private var ended = false
    private var failed = false
    private let onDecoderThread: ((Range<Int>) -> Void)?
    private var producerDone = 0

    /// `onDecoderThread`, if given, is run by the decoding thread on each batch of new rows
    /// before they are published: work that would otherwise wait for the consuming thread
    /// (photo preparation's consumer is the slower of the two).
    init(onDecoderThread: ((Range<Int>) -> Void)? = nil) {
        self.onDecoderThread = onDecoderThread
    }

    /// Called by the decoder: rows `0..<rows` are complete.
    func publish(_ rows: Int) {
        if let onDecoderThread, rows > producerDone {
            onDecoderThread(producerDone..<rows)
            producerDone = rows
        }
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
