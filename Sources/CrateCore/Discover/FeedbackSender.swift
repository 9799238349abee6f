import Foundation

/// What one pass over the feedback outbox did.
public struct FeedbackRunSummary: Equatable, Sendable {
    /// Albums whose feedback ListenBrainz accepted for every recording.
    public var sent = 0
    /// Albums left for a later pass (ListenBrainz or MusicBrainz failed; retried with backoff).
    public var deferred = 0
    /// Albums given up on (no recordings, or too many failed tries).
    public var failed = 0
    /// The last failure, in words.
    public var lastError: String?

    public init() {}
}

/// Sends the feedback outbox to ListenBrainz: for each album row, its recordings (from the
/// library's track list, else one MusicBrainz request), then one `recording-feedback` POST per
/// recording. Rows are claimed with a lease (one process per row); the recordings found and each
/// one accepted are written down as they go, so after a kill the next pass sends only the rest
/// (at most the one recording whose answer was lost with the process goes again; ListenBrainz
/// stores a score, so that repeat changes nothing).
public struct FeedbackSender: Sendable {
    public let database: AppDatabase
    public let listenBrainz: ListenBrainzClient?
    public let musicBrainz: MusicBrainzClient?
    /// Tries per album before it is failed for good.
    public var maxAttempts = 8
    /// Lease on a claimed row; renewed after every recording.
    public var leaseDuration: TimeInterval = 60

    public init(database: AppDatabase, listenBrainz: ListenBrainzClient?, musicBrainz: MusicBrainzClient?) {
        self.database = database
        self.listenBrainz = listenBrainz
        self.musicBrainz = musicBrainz
    }

    /// Sends what is due, up to `limit` albums. Without a token nothing is claimed.
    public func run(limit: Int = 50) async -> FeedbackRunSummary {
        var summary = FeedbackRunSummary()
        guard let listenBrainz, listenBrainz.hasToken, !database.isReadOnly else { return summary }
        // Each album at most once a pass: one deferred early may be due again before a slow pass
        // ends, and it waits for the next pass (as its back-off meant).
        var tried: Set<Int64> = []
        for _ in 0..<limit {
            let claimed: FeedbackItem?
            do {
                claimed = try database.claimFeedback(leaseDuration: leaseDuration, excluding: tried)
            } catch {
                summary.lastError = UserMessage.text(for: error)
                break
            }
            guard let item = claimed else { break }
            tried.insert(item.id)
            do {
                try await send(item, through: listenBrainz)
                try database.settleFeedback(id: item.id, sent: true)
                summary.sent += 1
            } catch is CancellationError {
                try? database.settleFeedback(id: item.id, sent: false, error: nil, retryAt: Date())
                break
            } catch {
                let text = UserMessage.text(for: error)
                summary.lastError = text
                if let retryAt = retryTime(for: error, attempts: item.attempts) {
                    try? database.settleFeedback(id: item.id, sent: false, error: text, retryAt: retryAt)
                    summary.deferred += 1
                    // The service asked for a pause: the other rows wait too.
                    if case ListenBrainzError.rateLimited = error { break }
                    if case ListenBrainzError.invalidToken = error { break }
                } else {
                    try? database.settleFeedback(id: item.id, sent: false, error: text, retryAt: nil)
                    summary.failed += 1
                }
            }
        }
        return summary
    }

    private func send(_ item: FeedbackItem, through listenBrainz: ListenBrainzClient) async throws {
        var recordings = item.recordings ?? []
        if item.recordings == nil {
            recordings = try await self.recordings(of: item)
            guard !recordings.isEmpty else { throw FeedbackError.noRecordings }
            guard try database.recordFeedbackProgress(id: item.id, recordings: recordings, sent: item.sent, leaseDuration: leaseDuration) else {
                throw FeedbackError.leaseLost
            }
        }
        var sent = item.sent
        for recording in recordings where !sent.contains(recording) {
            try Task.checkCancellation()
            try await listenBrainz.sendFeedback(recording: recording, score: item.score)
            sent.insert(recording)
            guard try database.recordFeedbackProgress(id: item.id, recordings: recordings, sent: sent, leaseDuration: leaseDuration) else {
                throw FeedbackError.leaseLost
            }
        }
    }

    /// The album's recordings: the library's track list when it has one, else MusicBrainz (one
    /// request: a release lookup, or the group's first official release with its recordings).
    private func recordings(of item: FeedbackItem) async throws -> [MBID] {
        let local = try database.read(CrateRecordingsRequest(releaseGroupID: item.releaseGroupID))
        if !local.isEmpty { return local }
        guard let musicBrainz else { throw FeedbackError.noRecordings }
        if let release = item.releaseID {
            return try await musicBrainz.recordings(ofRelease: release)
        }
        return try await musicBrainz.recordings(ofReleaseGroup: item.releaseGroupID)
    }

    /// When to try again, or nil to give up.
    private func retryTime(for error: Error, attempts: Int) -> Date? {
        switch error {
        case FeedbackError.noRecordings, MusicBrainzError.notFound, MusicBrainzError.invalidIdentifier, ListenBrainzError.badRequest:
            return nil
        case FeedbackError.leaseLost:
            return Date()
        case ListenBrainzError.rateLimited(let seconds), MusicBrainzError.mustWait(let seconds):
            return Date().addingTimeInterval(max(1, seconds))
        default:
            guard attempts < maxAttempts else { return nil }
            return Date().addingTimeInterval(min(3600, 30 * pow(2, Double(max(0, attempts - 1)))))
        }
    }
}

/// Why an album's feedback could not be sent.
public enum FeedbackError: Error, Equatable, Sendable, LocalizedError {
    /// MusicBrainz lists no recordings for the album, so there is nothing to send feedback for.
    case noRecordings
    /// Another process took the row over (this one was too slow); it finishes the sending.
    case leaseLost

    public var errorDescription: String? {
        switch self {
        case .noRecordings: return "MusicBrainz lists no recordings for this album, so no feedback could be sent to ListenBrainz."
        case .leaseLost: return "Another Crate process took over sending this feedback."
        }
    }
}
