import Testing
@testable import CrateCore

/// A track length from the network can be any number: a deadline past the end of `Int` is simply
/// never reached, it does not trap.
@Suite("Manual clock: no overflow")
@MainActor
struct ClockOverflowTests {
    @Test func aDeadlineBeyondIntIsNeverReachedAndNeverTraps() {
        let clock = ManualPlaybackClock()
        clock.advance(byMs: 10)
        var fired = false
        let timer = clock.schedule(afterMs: Int.max) { fired = true }
        #expect(clock.nextDeadline == Int.max)
        clock.advance(byMs: Int.max)
        #expect(clock.nowMs == Int.max)
        #expect(fired)
        timer.cancel()
    }
}
