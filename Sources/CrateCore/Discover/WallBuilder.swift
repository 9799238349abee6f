import Synchronization
import Foundation

/// A wall as built: tiles in order, the counts the dial asked for, and the signals it was built without.
public struct BuiltWall: Equatable, Sendable {
    public var dial: CrateDialPosition
    public var items: [WallItem]
    /// Tiles per signal the dial's weights asked for (largest remainder).
    public var planned: [WallSignal: Int]
    public var unavailable: [WallUnavailable]

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

    public init(sources: [any WallSource], table: CrateDialTable, timeout: TimeInterval = 5) {
        var map: [WallSignal: any WallSource] = [:]
        for source in sources { map[source.signal] = source }
        self.sources = map
        self.table = table
        self.timeout = timeout
    }

    /// - Parameters:
    ///   - excluding: release groups already shown ("more") or otherwise unwanted.
    ///   - disliked: never shown.
    ///   - page: 0 for a new wall, then 1, 2, … for each "more".
    public func build(dial: CrateDialPosition, count: Int, excluding: Set<MBID> = [], disliked: Set<MBID> = [], page: Int = 0) async -> BuiltWall {
        let weights = table.entry(dial).orderedWeights.filter { $0.1 > 0 }
        guard count > 0 else { return BuiltWall(dial: dial, items: [], planned: WallMath.counts(weights, total: count), unavailable: []) }

        // Every weighted signal is asked for enough to cover the whole wall (one request each
        // either way), with a quarter more for what filtering drops (live albums, duplicates,
        // dislikes), so a failed signal's share can be given to the others.
        let request = WallSourceRequest(count: min(100, max(count + count / 4, 10)), page: page)
        let outcomes = await fetchAll(weights.map(\.0), request: request)
        let blend = FeedBlender.blend(weights: weights, count: count, blocked: excluding.union(disliked), outcomes: outcomes) { signal, item in
            var item = item
            item.signal = signal
            return item
        }
        return BuiltWall(dial: dial, items: blend.items.map(\.item), planned: blend.planned,
                         unavailable: blend.unavailable.map { WallUnavailable(signal: $0.signal, reason: $0.reason) })
    }

    /// Every signal side by side, each cut off after `timeout`.
    private func fetchAll(_ signals: [WallSignal], request: WallSourceRequest) async -> [WallSignal: Result<[WallItem], Error>] {
        var fetchers: [WallSignal: FeedBlender.Fetch] = [:]
        for (signal, source) in sources { fetchers[signal] = { try await source.albums($0) } }
        return await FeedBlender.fetchAll(signals, fetchers: fetchers, request: request, timeout: timeout) { signal in
            WallError.notConfigured(signal == .wildCard ? "MusicBrainz" : "ListenBrainz")
        }
    }

    /// The body's result, or `WallError.timedOut` when it takes longer than `seconds`. The body
    /// is then cancelled (a libcurl transfer notices within its progress interval) but not
    /// waited for: a source that ignores cancellation cannot hold the wall back.
    static func withTimeout<T: Sendable>(_ seconds: TimeInterval, _ body: @escaping @Sendable () async throws -> T) async -> Result<T, Error> {
        let once = ResumeOnce<Result<T, Error>>()
        return await withCheckedContinuation { continuation in
            once.arm(continuation)
            let work = Task {
                once.resume(with: await attempt(body))
            }
            Task {
                try? await Task.sleep(nanoseconds: UInt64(max(0, seconds) * 1e9))
                if once.resume(with: .failure(WallError.timedOut(seconds: seconds))) { work.cancel() }
            }
        }
    }
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
