import Foundation

/// Sends the listen outbox: per service, batches of its size (1 000 for ListenBrainz, 50 for
/// Last.fm), oldest first, each batch claimed with a lease so one process only sends it.
///
/// A batch is settled "sent" only after the service accepted it. A process killed between the
/// claim and the settle leaves a lease that lapses (or whose owner is gone); the next pass sends
/// the batch then. For a service that counts repeats (Last.fm) each batch is marked before its
/// request goes; a batch whose mark outlived its request (a kill, a lost answer, a 5xx) is
/// checked against what the service holds first, and only the rest is sent. Failures are
/// classed by `ListenSubmitError`: a wrong token or session stops the service's pass and waits
/// for the user; rate limits and outages wait (capped, with back-off) and never drop a listen;
/// only a refusal of one listen on its own fails it.
public struct ListenSender: Sendable {
    public let database: AppDatabase
    public let submitters: [any ListenSubmitter]
    /// The claim's owner: this opening of the library unless a test plays several processes.
    public var owner: BatchLeaseOwner?
    public var leaseDuration: TimeInterval = 120
    /// After a wrong token or session, the listens wait this long (or for `crate listens send`).
    public var notAuthorizedPause: TimeInterval = 900
    public var now: @Sendable () -> Date = { Date() }

    public init(database: AppDatabase, submitters: [any ListenSubmitter], owner: BatchLeaseOwner? = nil) {
        self.database = database
        self.submitters = submitters
        self.owner = owner
    }

    /// Sends what is due, up to `maxBatches` requests per service.
    public func run(maxBatches: Int = 20) async -> [ListenService: ListenRunSummary] {
        var result: [ListenService: ListenRunSummary] = [:]
        guard !database.isReadOnly else { return result }
        for submitter in submitters where submitter.isConfigured {
            result[submitter.service] = await run(submitter, maxBatches: maxBatches)
        }
        return result
    }

    private func run(_ submitter: any ListenSubmitter, maxBatches: Int) async -> ListenRunSummary {
        var summary = ListenRunSummary()
        for _ in 0..<maxBatches {
            let batch: [QueuedListen]
            do {
                batch = try database.claimListens(service: submitter.service, limit: submitter.service.batchSize, owner: owner,
                                                  leaseDuration: leaseDuration, at: now())
            } catch {
                summary.lastError = UserMessage.text(for: error)
                break
            }
            guard !batch.isEmpty else { break }
            guard let rest = await dropDelivered(batch, through: submitter, into: &summary) else { break }
            if rest.isEmpty { continue }
            guard await send(rest, through: submitter, into: &summary) else { break }
        }
        return summary
    }

    /// Sends one claimed batch and settles it. Returns false when the pass should stop.
    private func send(_ batch: [QueuedListen], through submitter: any ListenSubmitter, into summary: inout ListenRunSummary) async -> Bool {
        let ids = batch.map(\.id)
        var requested = false
        do {
            try Task.checkCancellation()
            if submitter is any ListenDeliveryChecking {
                guard try database.markListensSending(ids: ids, owner: owner, at: now()) else {
                    // Part of the batch was leased again elsewhere: send none of it.
                    try? database.settleListens(ids: ids, sent: false, retryAt: now(), owner: owner, at: now())
                    return false
                }
            }
            requested = true
            try await submitter.submit(batch)
            try database.settleListens(ids: ids, sent: true, owner: owner, at: now())
            summary.sent += batch.count
            return true
        } catch let error as ListenSubmitError {
            let text = UserMessage.text(for: error)
            summary.lastError = text
            if case .rejected = error {
                // One bad listen must not sink the others: alone, each is sent or failed.
                guard batch.count > 1 else {
                    try? database.settleListens(ids: ids, sent: false, error: text, retryAt: nil, owner: owner, at: now())
                    summary.failed += 1
                    return true
                }
                for (index, listen) in batch.enumerated() {
                    guard await send([listen], through: submitter, into: &summary) else {
                        // The rest of the batch is still leased to this pass: due again at once.
                        let rest = batch[(index + 1)...].map(\.id)
                        try? database.settleListens(ids: rest, sent: false, error: nil, retryAt: now(), owner: owner, at: now())
                        return false
                    }
                }
                return true
            }
            // No answer or a 5xx: the service may have taken the batch (the mark stays).
            try? database.settleListens(ids: ids, sent: false, error: text, retryAt: retryTime(for: error, attempts: batch.map(\.attempts).max() ?? 1),
                                        maybeDelivered: requested && error == .unavailable(submitter.service), owner: owner, at: now())
            summary.deferred += batch.count
            return false
        } catch {
            // Cancelled, or the outbox could not be written: the batch is due again at once.
            try? database.settleListens(ids: ids, sent: false, error: nil, retryAt: now(), maybeDelivered: requested, owner: owner, at: now())
            summary.deferred += batch.count
            return false
        }
    }

    /// How often the window looks at the outbox with nothing due (another process may queue).
    public static let idleRecheck: TimeInterval = 900

    /// Seconds to sleep until `due`: at least 5 (a burst of failures never spins), at most
    /// `idleRecheck`.
    public static func delay(until due: Date, now: Date) -> TimeInterval {
        min(idleRecheck, max(5, due.timeIntervalSince(now)))
    }

    /// When a batch that could not go is due again. Never nil: a listen is only dropped when the
    /// service refuses it.
    func retryTime(for error: ListenSubmitError, attempts: Int) -> Date {
        switch error {
        case .rateLimited(_, let seconds): return now().addingTimeInterval(max(1, RetryAfter.granted(seconds)))
        case .notAuthorized, .notConfigured: return now().addingTimeInterval(notAuthorizedPause)
        case .unavailable, .rejected:
            return now().addingTimeInterval(min(3600, 30 * pow(2, Double(min(max(0, attempts - 1), 12)))))
        }
    }
}
