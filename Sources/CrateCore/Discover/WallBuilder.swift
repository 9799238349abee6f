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
        let planned = WallMath.counts(weights, total: count)
        guard count > 0 else { return BuiltWall(dial: dial, items: [], planned: planned, unavailable: []) }

        // Every weighted signal is asked for enough to cover the whole wall (one request each
        // either way), with a quarter more for what filtering drops (live albums, duplicates,
        // dislikes), so a failed signal's share can be given to the others.
        let request = WallSourceRequest(count: min(100, max(count + count / 4, 10)), page: page)
        let outcomes = await fetchAll(weights.map(\.0), request: request)

        var unavailable: [WallUnavailable] = []
        var supply: [WallSignal: [WallItem]] = [:]
        let blocked = excluding.union(disliked)
        for (signal, _) in weights {
            switch outcomes[signal] ?? .failure(WallError.notConfigured("a source")) {
            case .failure(let error):
                unavailable.append(WallUnavailable(signal: signal, reason: UserMessage.text(for: error)))
            case .success(let items):
                let usable = uniqueByReleaseGroup(items.filter { !blocked.contains($0.releaseGroupID) }).map { item -> WallItem in
                    var item = item
                    item.signal = signal
                    return item
                }
                if usable.isEmpty {
                    unavailable.append(WallUnavailable(signal: signal, reason: WallError.empty.message))
                } else {
                    supply[signal] = usable
                }
            }
        }

        let chosen = Self.allocate(planned: planned, weights: weights, supply: supply, total: count)
        let buckets = weights.map { ($0.0, chosen[$0.0] ?? []) }
        return BuiltWall(dial: dial, items: WallMath.interleave(buckets), planned: planned, unavailable: unavailable)
    }

    /// Takes each signal's planned share (a release group goes to the first signal, in weight
    /// order, that has it), then hands what is missing to the signals with albums left, in
    /// proportion to their weights, until the wall is full or nothing is left.
    static func allocate(planned: [WallSignal: Int], weights: [(WallSignal, Double)], supply: [WallSignal: [WallItem]], total: Int) -> [WallSignal: [WallItem]] {
        var taken = Set<MBID>()
        var chosen: [WallSignal: [WallItem]] = [:]
        var cursor: [WallSignal: Int] = [:]
        let order = weights.sorted { $0.1 != $1.1 ? $0.1 > $1.1 : $0.0 < $1.0 }.map(\.0)

        func take(_ signal: WallSignal, _ n: Int) -> Int {
            guard n > 0, let list = supply[signal] else { return 0 }
            var got = 0
            var index = cursor[signal] ?? 0
            while got < n, index < list.count {
                let item = list[index]
                index += 1
                if taken.insert(item.releaseGroupID).inserted {
                    chosen[signal, default: []].append(item)
                    got += 1
                }
            }
            cursor[signal] = index
            return got
        }

        var missing = 0
        for signal in order { missing += (planned[signal] ?? 0) - take(signal, planned[signal] ?? 0) }
        while missing > 0 {
            let open = weights.filter { (cursor[$0.0] ?? 0) < (supply[$0.0]?.count ?? 0) }
            guard !open.isEmpty else { break }
            let shares = WallMath.counts(open, total: missing)
            var got = 0
            for signal in order { got += take(signal, shares[signal] ?? 0) }
            if got == 0 {
                // Shares too small to reach the signals with albums left: one each, heaviest first.
                for (signal, _) in open where missing - got > 0 { got += take(signal, 1) }
                if got == 0 { break }
            }
            missing -= got
        }
        _ = total
        return chosen
    }

    /// Every signal side by side, each cut off after `timeout`.
    private func fetchAll(_ signals: [WallSignal], request: WallSourceRequest) async -> [WallSignal: Result<[WallItem], Error>] {
        let timeout = self.timeout
        return await withTaskGroup(of: (WallSignal, Result<[WallItem], Error>).self) { group in
            for signal in signals {
                guard let source = sources[signal] else { continue }
                group.addTask {
                    (signal, await Self.withTimeout(timeout) { try await source.albums(request) })
                }
            }
            var results: [WallSignal: Result<[WallItem], Error>] = [:]
            for await (signal, result) in group { results[signal] = result }
            for signal in signals where results[signal] == nil {
                results[signal] = .failure(WallError.notConfigured(signal == .wildCard ? "MusicBrainz" : "ListenBrainz"))
            }
            return results
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
