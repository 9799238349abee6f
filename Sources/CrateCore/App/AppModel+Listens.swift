import Foundation

/// Listens from the window's playback (docs/decisions/0042-listens-and-the-turntable.md): the
/// playback bar's tracks go to the services turned on in the settings of the moment, so a switch
/// in Preferences counts from the next track on.
extension AppModel {
    func makeListenRecorder() -> PlaybackListenRecorder {
        // Listens queued while offline or before a quit go out at launch.
        if let reporter = currentListenReporter() {
            Task.detached { _ = await reporter.sender.run() }
        }
        return PlaybackListenRecorder(state: playback.state, clock: LivePlaybackClock()) { [weak self] event in
            guard let reporter = self?.currentListenReporter() else { return }
            Task.detached { await reporter.handle(event) }
        }
    }

    /// A reporter for the services turned on now; nil when none is (nothing is kept either).
    private func currentListenReporter() -> ListenReporter? {
        let submitters = ListenSubmitters.live(environment: environment, settings: services.settings)
        guard !submitters.isEmpty, !environment.database.isReadOnly else { return nil }
        return ListenReporter(database: environment.database, submitters: submitters)
    }
}
