import Foundation

/// Runs a `PlaybackStore` + `LogPlayer` on a `ManualPlaybackClock` as fast as the CPU allows:
/// what `crate play` uses to show what would play, without audio and without waiting.
@MainActor
public final class PlaybackSimulator {
    /// Stops a run that was given no limit; far longer than any grid a person would queue.
    public static let defaultLimitMs = 48 * 3_600_000

    public let clock: ManualPlaybackClock
    public let log: PlaybackLog
    public let player: LogPlayer
    public let store: PlaybackStore

    public init(database: AppDatabase, log: PlaybackLog, trackLists: TrackListProvider = .unavailable, startDate: Date = Date()) {
        self.clock = ManualPlaybackClock(startDate: startDate)
        self.log = log
        // Progress ticks matter to a progress bar, not to the log; one a minute keeps runs quick.
        self.player = LogPlayer(clock: clock, log: log, progressIntervalMs: 60_000)
        self.store = PlaybackStore(database: database, player: player, trackLists: trackLists)
    }

    /// Plays `albumID` (from `grid`, if given) for `limitMs` of simulated time, or until nothing
    /// is left to play. Playback still going at the limit is stopped, so the log says where it ended.
    public func run(albumID: Int64, grid: GridContext?, limitMs: Int? = nil) async {
        await store.play(albumID: albumID, grid: grid)
        await drive(limitMs: limitMs)
    }

    /// Lets whatever the store is playing run on until `limitMs` of simulated time (or the end).
    public func drive(limitMs: Int? = nil) async {
        let limit = limitMs ?? Self.defaultLimitMs
        await store.settle()
        while clock.nowMs < limit {
            if clock.fireNext(notAfterMs: limit) {
                await store.settle()
                continue
            }
            // No timer due before the limit: either playback is over, or it is waiting on work.
            await store.settle()
            if clock.nextDeadline == nil { break }
            clock.advance(toMs: limit)
        }
        if player.state.value.status != .stopped {
            await store.stop()
        }
    }
}
