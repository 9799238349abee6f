import Synchronization
import Foundation

/// A wall as built: tiles in order, the counts the dial asked for, and the signals it was built without.
public struct BuiltWall: Equatable, Sendable {
    public var dial: CrateDialPosition
    public var items: [WallItem]
    /// Tiles per signal the dial's weights asked for (largest remainder).
    public var planned: [WallSignal: Int]
    public var unavailable: [WallUnavailable]
    /// Signals whose albums need a second round trip that had not answered when this wall was
    /// made: their places hold other signals' albums (each labelled with its own signal) until
    /// the answer fills them. Empty on a finished wall.
    public var pending: [WallSignal] = []

    /// Tiles per signal actually on the wall.
    public var counts: [WallSignal: Int] {
        items.reduce(into: [:]) { $0[$1.signal, default: 0] += 1 }
    }
}

/// Builds Crate Walls: asks every signal of the dial side by side (a task group, each with its
/// own time limit), drops duplicates, dislikes and what is already shown, gives the share of a
/// failed, empty or slow signal to the others, and interleaves the result by weight.
public struct WallBuilder: Sendable {
    public let sources: [WallSignal: any WallSource]
    public let table: CrateDialTable
    /// Seconds each signal has; one that takes longer is left out (it is listed as unavailable).
    public let timeout: TimeInterval
    /// Times the limits; tests pass one whose deadlines pass only when the test says so.
    public let clock: any NetworkClock

    public init(sources: [any WallSource], table: CrateDialTable, timeout: TimeInterval = 5, clock: any NetworkClock = SystemNetworkClock()) {
        var map: [WallSignal: any WallSource] = [:]
        for source in sources { map[source.signal] = source }
        self.sources = map
        self.table = table
        self.timeout = timeout
        self.clock = clock
    }

    /// - Parameters:
    ///   - excluding: release groups already shown ("more") or otherwise unwanted.
    ///   - disliked: never shown.
    ///   - page: 0 for a new wall, then 1, 2, … for each "more".
    public func build(dial: CrateDialPosition, count: Int, excluding: Set<MBID> = [], disliked: Set<MBID> = [], page: Int = 0) async -> BuiltWall {
        await start(dial: dial, count: count, excluding: excluding, disliked: disliked, page: page).complete()
    }

    /// Builds the wall as soon as every signal's first answer is in (see `WallDraft`). A signal
    /// whose albums need a second round trip keeps its places in the interleave; until its
    /// answer arrives they hold the other signals' next albums (labelled with their own signal,
    /// so the wall never says something false), and `WallDraft.complete()` puts its albums there.
    public func start(dial: CrateDialPosition, count: Int, excluding: Set<MBID> = [], disliked: Set<MBID> = [], page: Int = 0) async -> WallDraft {
        let weights = table.entry(dial).orderedWeights.filter { $0.1 > 0 }
        guard count > 0 else { return WallDraft(ready: BuiltWall(dial: dial, items: [], planned: WallMath.counts(weights, total: count), unavailable: [])) }

        // Every weighted signal is asked for enough to cover the whole wall (one request each
        // either way), with a quarter more for what filtering drops (live albums, duplicates,
        // dislikes), so a failed signal's share can be given to the others.
        let request = WallSourceRequest(count: min(100, max(count + count / 4, 10)), page: page)
        let (outcomes, rests, timings, shares) = await fetchAll(weights.map(\.0), request: request)
        let blocked = excluding.union(disliked)
        var pending: [WallSignal: Double] = [:]
        for signal in rests.keys { pending[signal] = shares[signal] ?? 0 }
        let plan = WallPlan.make(weights: weights, count: count, blocked: blocked, outcomes: outcomes, pending: pending)
        let ready = BuiltWall(dial: dial, items: plan.items(filling: [:]), planned: plan.planned, unavailable: plan.unavailable,
                              pending: plan.slotsBySignal.keys.sorted())
        // A second round trip whose places all went elsewhere still runs to its end (the
        // recommendations remember their mappings for the next wall); nothing waits for it.
        let waiting = rests.filter { plan.slotsBySignal[$0.key] != nil }
        guard !waiting.isEmpty else { return WallDraft(ready: ready, timings: timings) }
        return WallDraft(ready: ready, timings: timings) {
            var results: [WallSignal: Result<[WallItem], Error>] = [:]
            for (signal, rest) in waiting { results[signal] = await rest.value }
            return plan.finished(ready, rests: results, blocked: blocked)
        }
    }

    /// A signal's second round trip, started as soon as its first answer is in.
    typealias Rest = Task<Result<[WallItem], Error>, Never>

    /// Every signal's first answer side by side, each cut off after `timeout`, with the time
    /// each took (milliseconds). A signal that needs a second round trip starts it at once, with
    /// a time limit of its own (the wall is shown meanwhile, so it holds nothing back).
    private func fetchAll(_ signals: [WallSignal], request: WallSourceRequest)
        async -> ([WallSignal: Result<[WallItem], Error>], [WallSignal: Rest], [WallSignal: Double], [WallSignal: Double]) {
        let sources = self.sources, timeout = self.timeout, clock = self.clock
        return await withTaskGroup(of: (WallSignal, Result<[WallItem], Error>, Rest?, Double, Double).self) { group in
            for signal in signals {
                guard let source = sources[signal] else { continue }
                group.addTask {
                    let start = ContinuousClock.now
                    let result = await WallBuilder.withTimeout(timeout, clock: clock) { try await source.answer(request) }
                    let elapsed = (ContinuousClock.now - start).seconds
                    switch result {
                    case .failure(let error):
                        return (signal, .failure(error), nil, elapsed * 1000, 0)
                    case .success(let answer):
                        let rest = answer.rest.map { rest in
                            Task { await WallBuilder.withTimeout(timeout, clock: clock) { try await rest() } }
                        }
                        return (signal, .success(answer.items), rest, elapsed * 1000, answer.restShare)
                    }
                }
            }
            var results: [WallSignal: Result<[WallItem], Error>] = [:]
            var rests: [WallSignal: Rest] = [:]
            var timings: [WallSignal: Double] = [:]
            var shares: [WallSignal: Double] = [:]
            for await (signal, result, rest, ms, share) in group {
                results[signal] = result
                rests[signal] = rest
                timings[signal] = ms
                shares[signal] = share
            }
            for signal in signals where results[signal] == nil {
                results[signal] = .failure(WallError.notConfigured(signal == .wildCard ? "MusicBrainz" : "ListenBrainz"))
            }
            return (results, rests, timings, shares)
        }
    }

    /// The body's result, or `WallError.timedOut` when it takes longer than `seconds`. The body
    /// is then cancelled (a libcurl transfer notices within its progress interval) but not
    /// waited for: a source that ignores cancellation cannot hold the wall back.
    static func withTimeout<T: Sendable>(_ seconds: TimeInterval, clock: any NetworkClock,
                                         _ body: @escaping @Sendable () async throws -> T) async -> Result<T, Error> {
        let once = ResumeOnce<Result<T, Error>>()
        return await withCheckedContinuation { continuation in
            once.arm(continuation)
            let work = TaskSlot()
            let timer = Task {
                try? await clock.sleep(seconds: max(0, seconds))
                if once.resume(with: .failure(WallError.timedOut(seconds: seconds))) { work.cancel() }
            }
            work.start {
                once.resume(with: await attempt(body))
                // The limit is moot once the body is in: end its wait instead of leaving it asleep.
                timer.cancel()
            }
        }
    }
}

/// A task that may be cancelled before it is started (it then starts cancelled).
final class TaskSlot: Sendable {
    private let state = Mutex<(task: Task<Void, Never>?, cancelled: Bool)>((nil, false))

    func start(_ operation: @escaping @Sendable () async -> Void) {
        state.withLock { state in
            let task = Task(operation: operation)
            if state.cancelled { task.cancel() }
            state.task = task
        }
    }

    func cancel() {
        state.withLock { state in
            state.cancelled = true
            state.task?.cancel()
        }
    }
}

/// A wall ready to show after every signal's first answer, and how to finish it.
public struct WallDraft: Sendable {
    /// The wall as soon as every first answer is in (`pending` names the signals still coming).
    public var ready: BuiltWall
    /// Milliseconds each signal's first answer took.
    public var timings: [WallSignal: Double]
    private let finish: (@Sendable () async -> BuiltWall)?

    init(ready: BuiltWall, timings: [WallSignal: Double] = [:], finish: (@Sendable () async -> BuiltWall)? = nil) {
        self.ready = ready
        self.timings = timings
        self.finish = finish
    }

    /// Whether a second round trip is still to fill some places.
    public var isPending: Bool { finish != nil }

    /// The finished wall: the pending signals' albums in their places; where a signal's answer
    /// failed, timed out or ran short, the other signals' albums keep the places (its share is
    /// handed to them) and the signal is listed as unavailable when it has no tile at all.
    public func complete() async -> BuiltWall {
        await finish?() ?? ready
    }
}

/// Where each tile of a wall goes when some signals answer in two round trips: the interleave
/// is made with every signal's share, the places of the albums still to come marked, and the
/// other signals' next albums lined up to stand in for them.
struct WallPlan: Sendable {
    enum Slot: Sendable {
        case item(WallItem)
        /// The n-th place of a pending signal.
        case pending(WallSignal, Int)
    }

    var slots: [Slot]
    var planned: [WallSignal: Int]
    var unavailable: [WallUnavailable]
    /// The other signals' albums for the pending places, in the order they fill them.
    var standIns: [WallItem]
    /// Places per pending signal (only signals that got any).
    var slotsBySignal: [WallSignal: Int]

    static func make(weights: [(WallSignal, Double)], count: Int, blocked: Set<MBID>,
                     outcomes: [WallSignal: Result<[WallItem], Error>], pending: [WallSignal: Double]) -> WallPlan {
        let retag = { (signal: WallSignal, item: WallItem) -> WallItem in
            var item = item
            item.signal = signal
            return item
        }
        // A pending signal's missing albums are marked places: as many as its whole share, so
        // the blend gives it its share whatever the first answer had.
        let planned = WallMath.counts(weights, total: count)
        var marked: [MBID: Int] = [:]
        var withMarks = outcomes
        for (signal, share) in pending {
            // `share` of its places wait for the rest whatever the first answer had.
            let kept = (planned[signal] ?? 0) - Int((Double(planned[signal] ?? 0) * min(max(share, 0), 1)).rounded(.up))
            let known = Array(((try? outcomes[signal]?.get()) ?? []).prefix(max(0, kept)))
            var marks: [WallItem] = []
            for n in 0..<(planned[signal] ?? 0) {
                guard let id = MBID(validating: UUID().uuidString) else { continue }
                marked[id] = n
                marks.append(WallItem(signal: signal, releaseGroupID: id, title: "", artist: ""))
            }
            withMarks[signal] = .success(known + marks)
        }
        let blend = FeedBlender.blend(weights: weights, count: count, blocked: blocked, outcomes: withMarks, retag: retag)
        var slots: [Slot] = []
        var next: [WallSignal: Int] = [:]
        var taken = Set<MBID>()
        for (signal, item) in blend.items {
            if marked[item.releaseGroupID] != nil {
                slots.append(.pending(signal, next[signal, default: 0]))
                next[signal, default: 0] += 1
            } else {
                slots.append(.item(item))
                taken.insert(item.releaseGroupID)
            }
        }
        // Stand-ins: the other signals' next albums, by weight, interleaved among themselves.
        let waiting = next.values.reduce(0, +)
        let others = weights.filter { pending[$0.0] == nil }
        var supply: [WallSignal: [WallItem]] = [:]
        for (signal, _) in others {
            let items = (try? outcomes[signal]?.get()) ?? []
            let usable = uniqueByReleaseGroup(items.filter { !blocked.contains($0.releaseGroupID) && !taken.contains($0.releaseGroupID) }).map { retag(signal, $0) }
            if !usable.isEmpty { supply[signal] = usable }
        }
        var standIns: [WallItem] = []
        if waiting > 0, !others.isEmpty {
            let chosen = FeedBlender.allocate(planned: WallMath.counts(others, total: waiting), weights: others, supply: supply)
            standIns = WallMath.interleave(buckets: others.map { ($0.0, chosen[$0.0] ?? []) })
        }
        return WallPlan(slots: slots, planned: blend.planned,
                        unavailable: blend.unavailable.map { WallUnavailable(signal: $0.signal, reason: $0.reason) },
                        standIns: standIns, slotsBySignal: next)
    }

    /// The tiles with each pending place filled by `filling[signal]` in order, then by the
    /// stand-ins in order; a place left with neither is dropped.
    func items(filling: [WallSignal: [WallItem]]) -> [WallItem] {
        var standIn = standIns.makeIterator()
        var items: [WallItem] = []
        for slot in slots {
            switch slot {
            case .item(let item): items.append(item)
            case .pending(let signal, let n):
                if let list = filling[signal], n < list.count {
                    items.append(list[n])
                } else if let item = standIn.next() {
                    items.append(item)
                }
            }
        }
        return items
    }

    /// The wall once the second round trips have answered (or failed).
    func finished(_ ready: BuiltWall, rests: [WallSignal: Result<[WallItem], Error>], blocked: Set<MBID>) -> BuiltWall {
        var fixed = Set<MBID>()
        for slot in slots { if case .item(let item) = slot { fixed.insert(item.releaseGroupID) } }
        var filling: [WallSignal: [WallItem]] = [:]
        var wall = ready
        wall.pending = []
        for signal in slotsBySignal.keys.sorted() {
            let result = rests[signal] ?? .failure(WallError.empty)
            let items = ((try? result.get()) ?? []).filter { !blocked.contains($0.releaseGroupID) && fixed.insert($0.releaseGroupID).inserted }
                .map { item -> WallItem in
                    var item = item
                    item.signal = signal
                    return item
                }
            filling[signal] = items
        }
        // A stand-in that a pending signal now brings itself is not shown twice.
        let brought = Set(filling.values.flatMap { $0.map(\.releaseGroupID) })
        var plan = self
        plan.standIns = standIns.filter { !brought.contains($0.releaseGroupID) }
        wall.items = plan.items(filling: filling)
        let onWall = Set(wall.items.map(\.signal))
        for signal in slotsBySignal.keys.sorted() where !onWall.contains(signal) && !wall.unavailable.contains(where: { $0.signal == signal }) {
            let reason: String
            if case .failure(let error) = rests[signal] ?? .failure(WallError.empty) { reason = UserMessage.text(for: error) } else { reason = WallError.empty.message }
            wall.unavailable.append(WallUnavailable(signal: signal, reason: reason))
        }
        return wall
    }
}

extension Duration {
    var seconds: Double { Double(components.seconds) + Double(components.attoseconds) / 1e18 }
}

/// A continuation resumed by whichever side finishes first; later results are dropped.
final class ResumeOnce<T: Sendable>: Sendable {
    private let state = Mutex<(CheckedContinuation<T, Never>?, Bool)>((nil, false))

    func arm(_ continuation: CheckedContinuation<T, Never>) {
        state.withLock { $0.0 = continuation }
    }

    /// True when this call resumed the continuation.
    @discardableResult
    func resume(with value: T) -> Bool {
        let continuation = state.withLock { state -> CheckedContinuation<T, Never>? in
            guard !state.1, let continuation = state.0 else { return nil }
            state.1 = true
            state.0 = nil
            return continuation
        }
        continuation?.resume(returning: value)
        return continuation != nil
    }
}

extension WallError {
    var message: String { errorDescription ?? "" }
}
