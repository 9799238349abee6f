import Foundation

/// One listen in the outbox, claimed by this process for sending.
public struct QueuedListen: Equatable, Sendable {
    public var id: Int64
    public var service: ListenService
    public var track: ListenTrack
    /// When the track started playing (both services date a listen by its start).
    public var listenedAt: Date
    public var attempts: Int
    /// When a request that carried this listen started, if its outcome is unknown (killed,
    /// answer lost, 5xx): the service may have it already.
    public var sendingSince: Date?

    public init(id: Int64, service: ListenService, track: ListenTrack, listenedAt: Date, attempts: Int = 0, sendingSince: Date? = nil) {
        self.id = id
        self.service = service
        self.track = track
        self.listenedAt = listenedAt
        self.attempts = attempts
        self.sendingSince = sendingSince
    }

    public var maybeDelivered: Bool { sendingSince != nil }
}
