import Foundation

/// What one pass over the Discogs outbox did.
public struct DiscogsOutboxSummary: Equatable, Sendable {
    /// Additions Discogs accepted.
    public var sent = 0
    /// Collection additions found already done (a POST whose answer was lost had gone through).
    public var alreadyDone = 0
    /// Left for a later pass (offline, rate limited, Discogs failing, token refused).
    public var deferred = 0
    /// Given up on (Discogs knows no such release, or refused the request itself).
    public var failed = 0
    /// Discogs refused the token: the additions wait for a new one.
    public var tokenRefused = false
    /// The last problem, in words.
    public var lastError: String?

    public init() {}
}

/// Sends the Discogs outbox (docs/decisions/0044-discogs-account-and-outbox.md). A row is
/// claimed with a lease (one process sends it), sent, and settled. Wantlist PUTs are idempotent.
/// A collection POST adds a NEW copy each time, so before it leaves the row notes the user's
/// copies; a row claimed again with that note still set (the process died, or the answer was
/// lost) is only sent again when Discogs's count has not gone up since.
public struct DiscogsOutboxSender: Sendable {
    public let database: AppDatabase
    /// Nil (no token, offline): nothing is claimed; the rows wait.
    public let account: DiscogsAccount?
    /// The claim's owner: this opening of the library unless a test plays several processes.
    public var owner: BatchLeaseOwner?
    /// Longer than the wait for a pacing slot (60 s at most) and a request (10 s) together, so a
    /// POST in flight is never taken over by another process.
    public var leaseDuration: TimeInterval = 300
    /// After a refused token the rows wait this long (or for `crate discogs send`).
    public var tokenPause: TimeInterval = 900
    public var now: @Sendable () -> Date

    public init(database: AppDatabase, account: DiscogsAccount?, owner: BatchLeaseOwner? = nil, now: @escaping @Sendable () -> Date = { Date() }) {
        self.database = database
        self.account = account
        self.owner = owner
        self.now = now
    }

    /// Sends what is due, up to `limit` rows; the first deferral ends the pass (the next row
    /// would meet the same outage, pause or token).
    public func run(limit: Int = 50) async -> DiscogsOutboxSummary {
        var summary = DiscogsOutboxSummary()
        guard let account, !database.isReadOnly else { return summary }
        for _ in 0..<limit {
            let claimed: DiscogsOutboxItem?
            do {
                claimed = try database.claimDiscogsAction(owner: owner, leaseDuration: leaseDuration, at: now())
            } catch {
                summary.lastError = UserMessage.text(for: error)
                break
            }
            guard let item = claimed else { break }
            do {
                let done = try await send(item, through: account)
                try database.settleDiscogsAction(id: item.id, .sent, owner: owner, at: now())
                if done == .alreadyDone { summary.alreadyDone += 1 } else { summary.sent += 1 }
            } catch is LeaseLost {
                break
            } catch {
                guard settle(item, after: error, into: &summary) else { break }
            }
        }
        return summary
    }

    private enum Done { case sent, alreadyDone }
    /// Another process holds the row now; it finishes it.
    private struct LeaseLost: Error {}
    /// The POST or PUT itself failed (as opposed to the reads before it).
    private struct WriteFailed: Error { let error: Error }

    private func send(_ item: DiscogsOutboxItem, through account: DiscogsAccount) async throws -> Done {
        try Task.checkCancellation()
        let user = try await account.username()
        let client = account.client
        switch item.action {
        case .addToWantlist:
            try await write(item) { try await client.addToWantlist(username: user, releaseID: item.releaseID) }
            try? database.markDiscogsWanted(releaseID: item.releaseID, username: user)
            return .sent
        case .addToCollection:
            let copies = try await client.collectionCopies(username: user, releaseID: item.releaseID)
            try? database.saveDiscogsCopies(copies, releaseID: item.releaseID, username: user, at: now())
            // A POST went out before and its outcome was never recorded: Discogs's count says.
            if item.postedAt != nil, item.username == user, let before = item.copiesBefore, copies > before {
                return .alreadyDone
            }
            guard try database.recordDiscogsPost(id: item.id, username: user, copiesBefore: copies, owner: owner,
                                                 leaseDuration: leaseDuration, at: now()) else { throw LeaseLost() }
            try await write(item) { _ = try await client.addToCollection(username: user, releaseID: item.releaseID) }
            try? database.saveDiscogsCopies(copies + 1, releaseID: item.releaseID, username: user, at: now())
            return .sent
        }
    }

    /// Runs the write, telling its failures from the reads' (a 404 here is an unknown release).
    private func write(_ item: DiscogsOutboxItem, _ body: () async throws -> Void) async throws {
        do {
            try await body()
        } catch DiscogsError.server(status: 404) {
            throw WriteFailed(error: DiscogsAccountError.releaseUnknown(item.releaseID))
        } catch {
            throw WriteFailed(error: error)
        }
    }

    /// Settles a row that could not go; false ends the pass.
    private func settle(_ item: DiscogsOutboxItem, after thrown: Error, into summary: inout DiscogsOutboxSummary) -> Bool {
        let writeFailed = thrown as? WriteFailed
        let cause = writeFailed?.error ?? thrown
        guard let error = DiscogsAccountError(cause) else {
            // Cancelled, or the library could not be written: due again at once, outcome unknown.
            try? database.settleDiscogsAction(id: item.id, .retry(at: now(), keepPost: true), owner: owner, at: now())
            summary.deferred += 1
            if !(cause is CancellationError) { summary.lastError = UserMessage.text(for: cause) }
            return false
        }
        let text = error.message
        summary.lastError = text
        // Only a POST that certainly did not go through loses its note; a failed read keeps it.
        let keepPost = writeFailed == nil || !error.certainlyNotAccepted
        switch error {
        case .releaseUnknown, .noRelease, .albumNotFound:
            try? database.settleDiscogsAction(id: item.id, .failed, error: text, owner: owner, at: now())
            summary.failed += 1
            return true
        case .server(let status) where status < 500 && writeFailed != nil:
            // Discogs refused this request itself (400, 422, …): sending it again cannot help.
            try? database.settleDiscogsAction(id: item.id, .failed, error: text, owner: owner, at: now())
            summary.failed += 1
            return true
        case .noToken, .tokenRejected, .rateLimited:
            // Every row would meet the same answer: they all wait (a new token makes them due).
            let wait: TimeInterval
            if case .rateLimited(let seconds) = error { wait = max(1, RetryAfter.granted(seconds)) } else { wait = tokenPause }
            summary.tokenRefused = summary.tokenRefused || error == .tokenRejected || error == .noToken
            let until = now().addingTimeInterval(wait)
            try? database.settleDiscogsAction(id: item.id, .retry(at: until, keepPost: keepPost), error: text, owner: owner, at: now())
            try? database.postponeDiscogsActions(until: until)
        case .server, .network, .malformedResponse:
            let backoff = min(3600, 30 * pow(2, Double(min(max(0, item.attempts - 1), 12))))
            try? database.settleDiscogsAction(id: item.id, .retry(at: now().addingTimeInterval(backoff), keepPost: keepPost), error: text,
                                              owner: owner, at: now())
        }
        summary.deferred += 1
        return false
    }
}
