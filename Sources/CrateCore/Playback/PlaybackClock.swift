import Foundation

/// The time source a simulated player runs on.
///
/// Injected so tests and `crate play` can run a 40-minute album in milliseconds: the live clock
/// waits for real, `ManualPlaybackClock` only moves when told to.
@MainActor
public protocol PlaybackClock: AnyObject {
    /// Milliseconds since the clock started.
    var nowMs: Int { get }
    /// The wall-clock date for `nowMs`, used to timestamp log lines.
    var date: Date { get }
    /// Calls `handler` once, `delayMs` from now, unless the returned timer is cancelled first.
    func schedule(afterMs delayMs: Int, _ handler: @escaping @MainActor () -> Void) -> ClockTimer
}
