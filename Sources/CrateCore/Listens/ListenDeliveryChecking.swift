import Foundation

/// A service that can say which listens it already holds. Asked before a batch whose earlier
/// request ended unknown (a kill, a lost answer, a 5xx) goes again: Last.fm counts a repeated
/// scrobble, ListenBrainz keeps one listen per user, time and track and needs no check.
public protocol ListenDeliveryChecking: Sendable {
    /// The ids of `listens` the service has already. Throws `ListenSubmitError` when it cannot
    /// tell; the caller then keeps the listens and sends nothing.
    func alreadyReceived(_ listens: [QueuedListen]) async throws -> Set<Int64>
}
