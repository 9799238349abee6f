import Foundation

/// A service's listen API, as the outbox and the "playing now" announcements use it.
/// Implementations throw `ListenSubmitError` only.
public protocol ListenSubmitter: Sendable {
    var service: ListenService { get }
    /// False when a token, key or session is missing: nothing is claimed for this service.
    var isConfigured: Bool { get }
    /// "Playing now": best effort, never queued (it means nothing a minute later).
    func nowPlaying(_ track: ListenTrack) async throws
    /// Sends up to `service.batchSize` listens in one request; throws when none were taken.
    func submit(_ listens: [QueuedListen]) async throws
}
