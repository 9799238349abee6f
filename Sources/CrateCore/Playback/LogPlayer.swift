import Foundation

/// The default `Player`: plays no audio, walks simulated time through each track's duration and
/// writes every command and state change to a `PlaybackLog`. The log is the record of what played.
@MainActor
public final class LogPlayer: Player {
    /// Used for tracks whose length the metadata does not know, so they still take time to "play".
    public static let fallbackDurationMs = 180_000
    /// Within this much of a track's start, "previous" goes to the previous track; later, it restarts.
    public static let restartThresholdMs = 3_000

    public let state = ObservableValue(PlayerState())
    private let clock: any PlaybackClock
    private let log: PlaybackLog
    private let progressIntervalMs: Int
    private var queue: [QueueEntry] = []
    private var timer: ClockTimer?
    /// Clock time at which the current entry was (or would have been) at position 0.
    private var playbackOriginMs = 0

    /// - Parameter progressIntervalMs: how often `positionMs` is published while playing.
    public init(clock: any PlaybackClock, log: PlaybackLog, progressIntervalMs: Int = 1_000) {
        self.clock = clock
        self.log = log
        self.progressIntervalMs = max(1, progressIntervalMs)
    }

    public func load(_ entries: [QueueEntry], startingAt index: Int) async throws {
        guard entries.indices.contains(index) else {
            record(command: "load", entryIndex: nil)
            throw entries.isEmpty ? PlaybackError.nothingToPlay : PlaybackError.entryOutOfRange(index)
        }
        stopTimer()
        queue = entries
        record(command: "load", entryIndex: index)
        transition(status: .stopped, index: index, positionMs: 0)
    }

    public func play() async throws {
        record(command: "play", entryIndex: state.value.currentIndex)
        guard let index = state.value.currentIndex else { throw PlaybackError.nothingToPlay }
        guard state.value.status != .playing else { return }
        playbackOriginMs = clock.nowMs - state.value.positionMs
        transition(status: .playing, index: index, positionMs: state.value.positionMs)
        scheduleTick()
    }

    public func pause() async {
        record(command: "pause", entryIndex: state.value.currentIndex)
        guard state.value.status == .playing, let index = state.value.currentIndex else { return }
        let position = currentPositionMs()
        stopTimer()
        transition(status: .paused, index: index, positionMs: position)
    }

    public func stop() async {
        record(command: "stop", entryIndex: state.value.currentIndex)
        stopTimer()
        transition(status: .stopped, index: state.value.currentIndex, positionMs: 0)
    }

    public func seek(toMs positionMs: Int) async {
        record(command: "seek", entryIndex: state.value.currentIndex, positionMs: positionMs)
        guard let index = state.value.currentIndex else { return }
        let clamped = min(max(0, positionMs), duration(of: queue[index]))
        playbackOriginMs = clock.nowMs - clamped
        state.update { $0.positionMs = clamped }
        if state.value.status == .playing {
            stopTimer()
            scheduleTick()
        }
    }

    public func next() async {
        record(command: "next", entryIndex: state.value.currentIndex)
        guard let index = state.value.currentIndex else { return }
        move(to: index + 1)
    }

    public func previous() async {
        record(command: "previous", entryIndex: state.value.currentIndex)
        guard let index = state.value.currentIndex else { return }
        let target = currentPositionMs() > Self.restartThresholdMs || index == 0 ? index : index - 1
        move(to: target)
    }

    // MARK: - Private

    /// Makes `index` current from its start, keeping playing/paused/stopped; past the end, finishes.
    private func move(to index: Int) {
        stopTimer()
        guard queue.indices.contains(index) else {
            finishQueue()
            return
        }
        playbackOriginMs = clock.nowMs
        transition(status: state.value.status, index: index, positionMs: 0, force: true)
        if state.value.status == .playing { scheduleTick() }
    }

    private func finishQueue() {
        stopTimer()
        let last = state.value.currentIndex
        state.set(PlayerState.finished(queueCount: queue.count))
        record(state: .stopped, entryIndex: last, positionMs: 0, reason: "end_of_queue")
    }

    private func scheduleTick() {
        guard let index = state.value.currentIndex else { return }
        let remaining = duration(of: queue[index]) - currentPositionMs()
        timer = clock.schedule(afterMs: max(0, min(remaining, progressIntervalMs))) { [weak self] in
            self?.tick()
        }
    }

    private func tick() {
        timer = nil
        guard state.value.status == .playing, let index = state.value.currentIndex else { return }
        let position = currentPositionMs()
        if position >= duration(of: queue[index]) {
            move(to: index + 1)
        } else {
            state.update { $0.positionMs = position }
            scheduleTick()
        }
    }

    private func stopTimer() {
        timer?.cancel()
        timer = nil
    }

    private func currentPositionMs() -> Int {
        guard state.value.status == .playing else { return state.value.positionMs }
        return clock.nowMs - playbackOriginMs
    }

    private func duration(of entry: QueueEntry) -> Int {
        entry.durationMs.flatMap { $0 > 0 ? $0 : nil } ?? Self.fallbackDurationMs
    }

    /// Publishes a new state; logs a state line when the status or the entry changed (or `force`).
    private func transition(status: PlayerState.Status, index: Int?, positionMs: Int, force: Bool = false) {
        let old = state.value
        var new = PlayerState()
        new.status = status
        new.currentIndex = index
        new.currentEntry = index.map { queue[$0] }
        new.positionMs = positionMs
        new.durationMs = new.currentEntry.map(duration(of:)) ?? 0
        new.queueCount = queue.count
        state.set(new)
        if force || old.status != status || old.currentIndex != index || old.finishedQueue {
            record(state: status, entryIndex: index, positionMs: positionMs)
        }
    }

    private func record(command: String, entryIndex: Int?, positionMs: Int? = nil) {
        log.append(line(entryIndex: entryIndex, command: command, positionMs: positionMs ?? currentPositionMs()))
    }

    private func record(state: PlayerState.Status, entryIndex: Int?, positionMs: Int, reason: String? = nil) {
        var line = line(entryIndex: entryIndex, state: state.rawValue, positionMs: positionMs)
        line.reason = reason
        log.append(line)
    }

    private func line(entryIndex: Int?, command: String? = nil, state: String? = nil, positionMs: Int) -> PlaybackLogLine {
        let entry = entryIndex.flatMap { queue.indices.contains($0) ? queue[$0] : nil }
        return PlaybackLogLine(
            time: PlaybackLogLine.timestamp(clock.date),
            elapsed_ms: clock.nowMs,
            command: command,
            state: state,
            reason: nil,
            album_id: entry?.albumID,
            entry: entry == nil ? nil : entryIndex,
            track: entry.map { .init(disc: $0.track.disc, position: $0.track.position, title: $0.track.title, duration_ms: $0.track.durationMs) },
            position_ms: positionMs
        )
    }
}
