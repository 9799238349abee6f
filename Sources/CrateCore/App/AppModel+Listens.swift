import Foundation

/// Listens from the window's playback (docs/decisions/0042-listens-and-the-turntable.md): the
/// playback bar's tracks go to the services turned on in the settings of the moment, so a switch
/// in Preferences counts from the next track on.
extension AppModel {
    func makeListenRecorder() -> PlaybackListenRecorder {
        // Listens queued while offline or before a quit go out at launch, and those that wait
        // (offline, rate limited) when they are due, while the window is open.
        listenResend?.cancel()
        listenResend = Task { [weak self] in
            // Holds the model only for a pass, so a closed window's model goes.
            while !Task.isCancelled, let wait = await self?.sendDueListens() {
                try? await Task.sleep(for: .seconds(wait))
            }
        }
        return PlaybackListenRecorder(state: playback.state, clock: LivePlaybackClock()) { [weak self] event in
            guard let reporter = self?.currentListenReporter() else { return }
            Task.detached { await reporter.handle(event) }
        }
    }

    /// "Spin This Record": the turntable's tracks go to the same services as the speakers'.
    func makeTurntable() -> TurntableStore {
        TurntableStore(database: environment.database, clock: LivePlaybackClock()) { [weak self] event in
            guard let reporter = self?.currentListenReporter() else { return }
            Task.detached { await reporter.handle(event) }
        }
    }

    /// Sends what is due; returns how long to sleep until the next waiting listen is due (at
    /// least 5 s, at most `ListenSender.idleRecheck`: listens queued by another process are seen too).
    private func sendDueListens() async -> TimeInterval {
        guard let reporter = currentListenReporter() else { return ListenSender.idleRecheck }
        let sender = reporter.sender
        let database = environment.database
        let services = reporter.submitters.filter(\.isConfigured).map(\.service)
        let next = await Task.detached { () -> Date? in
            _ = await sender.run()
            return try? database.nextListenDue(services: services)
        }.value
        return next.map { ListenSender.delay(until: $0, now: Date()) } ?? ListenSender.idleRecheck
    }

    /// A reporter for the services turned on now; nil when none is (nothing is kept either).
    func currentListenReporter() -> ListenReporter? {
        let submitters = ListenSubmitters.live(environment: environment, settings: services.settings)
        guard !submitters.isEmpty, !environment.database.isReadOnly else { return nil }
        return ListenReporter(database: environment.database, submitters: submitters)
    }
}
