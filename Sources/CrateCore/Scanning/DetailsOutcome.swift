/// How one fetch of an album's track list or artwork ended, for the repair pass's bookkeeping.
enum DetailsOutcome: Sendable, Equatable {
    /// Fetched and saved, or known to be missing at the source (`unavailable`).
    case done
    /// Not attempted (no client for it, or nothing to fetch).
    case skipped
    /// Failed and counted against the album's tries.
    case failed
    /// The service asked for a long pause: nothing was counted, and the pass should stop.
    case mustWait
}
