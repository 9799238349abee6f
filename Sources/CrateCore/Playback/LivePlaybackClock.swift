import Foundation

/// Real time: timers fire after the delay has actually passed (on the main actor).
@MainActor
public final class LivePlaybackClock: PlaybackClock {
    private let origin = ContinuousClock.now

    public init() {}

    public var nowMs: Int {
        let elapsed = ContinuousClock.now - origin
        return Int(elapsed.components.seconds * 1000 + elapsed.components.attoseconds / 1_000_000_000_000_000)
    }

    public var date: Date { Date() }

    public func schedule(afterMs delayMs: Int, _ handler: @escaping @MainActor () -> Void) -> ClockTimer {
        let task = Task { @MainActor in
            do {
                try await Task.sleep(for: .milliseconds(max(0, delayMs)))
            } catch {
                return // cancelled: the timer was cancelled or released
            }
            handler()
        }
        return ClockTimer { task.cancel() }
    }
}
