@testable import CrateCore

/// A player whose `play()` does not return until the test opens the gate, so a test can look at
/// the store in the gap between "the player started" and "play() returned".
@MainActor
final class GatedPlayer: Player {
    let state = ObservableValue(PlayerState())
    private(set) var playCalls = 0
    private var gate: CheckedContinuation<Void, Never>?

    func load(_ entries: [QueueEntry], startingAt index: Int) async throws {
        state.update {
            $0.currentIndex = index
            $0.currentEntry = entries[index]
            $0.queueCount = entries.count
        }
    }

    func play() async throws {
        playCalls += 1
        state.update { $0.status = .playing }
        await withCheckedContinuation { gate = $0 }
    }

    func open() {
        gate?.resume()
        gate = nil
    }

    var isWaiting: Bool { gate != nil }

    func pause() async { state.update { $0.status = .paused } }
    func stop() async { state.update { $0.status = .stopped } }
    func seek(toMs positionMs: Int) async {}
    func next() async {}
    func previous() async {}
}
