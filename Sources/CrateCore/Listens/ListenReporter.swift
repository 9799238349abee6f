import Foundation

/// Where listen events go: "playing now" straight to each service that is set up (best effort,
/// never queued), listens into the outbox for every service turned on, then a send pass.
/// A listen waits in the outbox while a service is offline or not signed in yet.
public struct ListenReporter: Sendable {
    public let database: AppDatabase
    public let submitters: [any ListenSubmitter]
    public var sender: ListenSender

    public init(database: AppDatabase, submitters: [any ListenSubmitter]) {
        self.database = database
        self.submitters = submitters
        self.sender = ListenSender(database: database, submitters: submitters)
    }

    public func handle(_ event: ListenEvent) async {
        switch event {
        case .playingNow(let track):
            for submitter in submitters where submitter.isConfigured {
                do {
                    try await submitter.nowPlaying(track)
                } catch {
                    Log.debug("\(submitter.service.displayName) playing-now not sent: \(UserMessage.text(for: error))")
                }
            }
        case .listen(let track, let listenedAt):
            do {
                try database.queueListen(track, listenedAt: listenedAt, services: submitters.map(\.service))
            } catch {
                Log.error("A listen could not be kept: \(UserMessage.text(for: error))")
                return
            }
            _ = await sender.run()
        }
    }
}
