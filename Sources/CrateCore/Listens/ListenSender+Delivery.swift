import Foundation

extension ListenSender {
    /// How long after an unanswered request Crate waits before looking it up: a scrobble just
    /// taken may not be listed yet, and one not listed would be sent again.
    public static let lookUpDelay: TimeInterval = 60

    /// The part of a claimed batch still to send. Listens an earlier request may have delivered
    /// are looked up at a service that counts repeats; those it holds are settled sent. Nil when
    /// the service could not tell: the batch waits (back-off as for a failed send), never sent
    /// blind, and keeps its marks. Empty when the request is too recent to look up yet.
    func dropDelivered(_ batch: [QueuedListen], through submitter: any ListenSubmitter,
                       into summary: inout ListenRunSummary) async -> [QueuedListen]? {
        let unsure = batch.filter(\.maybeDelivered)
        guard !unsure.isEmpty, let checker = submitter as? any ListenDeliveryChecking else { return batch }
        let lookable = (unsure.compactMap(\.sendingSince).max() ?? now()).addingTimeInterval(Self.lookUpDelay)
        if lookable > now() {
            try? database.settleListens(ids: batch.map(\.id), sent: false, retryAt: lookable, maybeDelivered: true, owner: owner, at: now())
            summary.deferred += batch.count
            return []
        }
        do {
            let held = try await checker.alreadyReceived(unsure)
            if !held.isEmpty {
                try database.settleListens(ids: Array(held), sent: true, owner: owner, at: now())
                summary.sent += held.count
                summary.alreadyThere += held.count
            }
            return batch.filter { !held.contains($0.id) }
        } catch {
            let text = UserMessage.text(for: error)
            let retry = (error as? ListenSubmitError).map { retryTime(for: $0, attempts: batch.map(\.attempts).max() ?? 1) } ?? now()
            try? database.settleListens(ids: batch.map(\.id), sent: false, error: text, retryAt: retry, maybeDelivered: true, owner: owner, at: now())
            summary.lastError = text
            summary.deferred += batch.count
            return nil
        }
    }
}
