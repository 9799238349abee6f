import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// Who is fetching an album's track list and artwork, so two Crate processes (or a scan and the
/// repair pass of one process) never fetch the same album at once (docs/reliability.md #21).
///
/// A claim is the owner's process id and the time it was taken. It stops counting when the owner
/// has died (a kill -9 frees its albums for the very next process, with no wait) or when it is
/// older than `lease` (a hung process, or an owner in another PID namespace that looks dead or
/// alive by mistake: at worst an album is fetched twice, or waits `lease`).
public struct DetailsClaim: Sendable, Equatable {
    /// Failed fetches (of the track list, or of the artwork) before an album is given up on.
    public static let maxAttempts = 3
    /// Longer than a slow fetch (MusicBrainz pacing, timeouts, one retry each).
    public static let lease: TimeInterval = 180

    public let owner: Int32

    public init(owner: Int32) {
        self.owner = owner
    }

    /// This process.
    public static var current: DetailsClaim { DetailsClaim(owner: getpid()) }

    /// Whether a stored claim still keeps others away at `now`.
    public static func holds(owner: Int32?, since: Date?, now: Date, isAlive: (Int32) -> Bool = processIsAlive) -> Bool {
        guard let owner, let since else { return false }
        guard now.timeIntervalSince(since) < lease else { return false }
        return isAlive(owner)
    }

    /// `kill(pid, 0)`: delivered (or refused for permission) means the process exists.
    public static func processIsAlive(_ pid: Int32) -> Bool {
        guard pid > 0 else { return false }
        return kill(pid, 0) == 0 || errno == EPERM
    }
}
