import Foundation

/// A clock that moves only when told to, firing due timers synchronously and in order.
///
/// Tests advance it by hand; `PlaybackSimulator` (behind `crate play`) jumps from timer to timer,
/// so hours of simulated playback take milliseconds and every run is identical.
@MainActor
public final class ManualPlaybackClock: PlaybackClock {
    private struct Pending {
        let id: UInt64
        let deadline: Int
        let handler: @MainActor () -> Void
    }

    public private(set) var nowMs: Int = 0
    /// The wall-clock date at `nowMs == 0`.
    public let startDate: Date
    private var pending: [Pending] = []
    private var nextID: UInt64 = 0

    public init(startDate: Date = Date()) {
        self.startDate = startDate
    }

    public var date: Date { startDate.addingTimeInterval(Double(nowMs) / 1000) }

    /// When the earliest pending timer is due, or nil when none is pending.
    public var nextDeadline: Int? { pending.map(\.deadline).min() }

    public func schedule(afterMs delayMs: Int, _ handler: @escaping @MainActor () -> Void) -> ClockTimer {
        let id = nextID
        nextID += 1
        pending.append(Pending(id: id, deadline: Self.adding(nowMs, max(0, delayMs)), handler: handler))
        return ClockTimer { [weak self] in
            self?.pending.removeAll { $0.id == id }
        }
    }

    /// Moves time forward by `ms`, firing every timer that falls due on the way, in order.
    public func advance(byMs ms: Int) {
        advance(toMs: Self.adding(nowMs, ms))
    }

    /// `a + b`, stopping at the ends of `Int` instead of trapping: a track length from the network
    /// can be any number, and time simply never reaches such a deadline.
    static func adding(_ a: Int, _ b: Int) -> Int {
        let (sum, overflow) = a.addingReportingOverflow(b)
        return overflow ? (b > 0 ? Int.max : Int.min) : sum
    }

    /// Moves time to `target`, firing due timers (including ones they schedule) in deadline order.
    public func advance(toMs target: Int) {
        while fireNext(notAfterMs: target) {}
        nowMs = max(nowMs, target)
    }

    /// Fires the earliest pending timer if it is due at or before `limit`, moving time to it.
    /// Returns false when there is none.
    @discardableResult
    public func fireNext(notAfterMs limit: Int) -> Bool {
        // Earliest deadline first; among equal deadlines, the one scheduled first.
        guard let next = pending.min(by: { ($0.deadline, $0.id) < ($1.deadline, $1.id) }),
              next.deadline <= limit else { return false }
        pending.removeAll { $0.id == next.id }
        nowMs = max(nowMs, next.deadline)
        next.handler()
        return true
    }
}
