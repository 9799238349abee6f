import Foundation

/// A weighted feed as blended: tiles tagged with the signal that gave them, the tiles per signal
/// the weights asked for, and the signals it was built without (with a sentence for the user).
public struct FeedBlend<Signal: Hashable & Comparable & Sendable>: Sendable {
    public var items: [(signal: Signal, item: WallItem)]
    public var planned: [Signal: Int]
    public var unavailable: [(signal: Signal, reason: String)]
}

/// The rules every weighted feed follows (the Crate Wall's five signals, a genre feed's six):
/// ask every signal side by side, each with its own time limit; drop duplicates, dislikes and
/// what is already shown; give the share of a failed, empty or slow signal to the others; and
/// interleave the result by weight. Generic over the kind of signal so the wall and the genre
/// feeds share one implementation.
public enum FeedBlender {
    public typealias Fetch = @Sendable (WallSourceRequest) async throws -> [WallItem]

    /// Every signal side by side, each cut off after `timeout`; a signal without a fetcher fails
    /// with `missing(signal)`.
    public static func fetchAll<Signal: Hashable & Sendable>(
        _ signals: [Signal], fetchers: [Signal: Fetch], request: WallSourceRequest, timeout: TimeInterval,
        clock: any NetworkClock = SystemNetworkClock(), missing: @Sendable (Signal) -> Error
    ) async -> [Signal: Result<[WallItem], Error>] {
        await withTaskGroup(of: (Signal, Result<[WallItem], Error>).self) { group in
            for signal in signals {
                guard let fetch = fetchers[signal] else { continue }
                group.addTask {
                    (signal, await WallBuilder.withTimeout(timeout, clock: clock) { try await fetch(request) })
                }
            }
            var results: [Signal: Result<[WallItem], Error>] = [:]
            for await (signal, result) in group { results[signal] = result }
            for signal in signals where results[signal] == nil { results[signal] = .failure(missing(signal)) }
            return results
        }
    }

    /// Blends what the signals gave into `count` tiles.
    /// - Parameters:
    ///   - blocked: release groups never shown (dislikes, tiles already on screen).
    ///   - retag: the tile as the feed shows it for the signal that supplied it.
    public static func blend<Signal: Hashable & Comparable & Sendable>(
        weights: [(Signal, Double)], count: Int, blocked: Set<MBID>,
        outcomes: [Signal: Result<[WallItem], Error>], retag: (Signal, WallItem) -> WallItem
    ) -> FeedBlend<Signal> {
        let planned = WallMath.counts(of: weights, total: count)
        var unavailable: [(signal: Signal, reason: String)] = []
        var supply: [Signal: [WallItem]] = [:]
        for (signal, _) in weights {
            switch outcomes[signal] ?? .failure(WallError.empty) {
            case .failure(let error):
                unavailable.append((signal, UserMessage.text(for: error)))
            case .success(let items):
                let usable = uniqueByReleaseGroup(items.filter { !blocked.contains($0.releaseGroupID) }).map { retag(signal, $0) }
                if usable.isEmpty {
                    unavailable.append((signal, WallError.empty.message))
                } else {
                    supply[signal] = usable
                }
            }
        }
        guard count > 0 else { return FeedBlend(items: [], planned: planned, unavailable: unavailable) }
        let chosen = allocate(planned: planned, weights: weights, supply: supply)
        let buckets = weights.map { signal, _ in (signal, (chosen[signal] ?? []).map { (signal: signal, item: $0) }) }
        return FeedBlend(items: WallMath.interleave(buckets: buckets), planned: planned, unavailable: unavailable)
    }

    /// Takes each signal's planned share (a release group goes to the first signal, in weight
    /// order, that has it), then hands what is missing to the signals with albums left, in
    /// proportion to their weights, until the feed is full or nothing is left.
    static func allocate<Signal: Hashable & Comparable>(planned: [Signal: Int], weights: [(Signal, Double)], supply: [Signal: [WallItem]]) -> [Signal: [WallItem]] {
        var taken = Set<MBID>()
        var chosen: [Signal: [WallItem]] = [:]
        var cursor: [Signal: Int] = [:]
        let order = weights.sorted { $0.1 != $1.1 ? $0.1 > $1.1 : $0.0 < $1.0 }.map(\.0)

        func take(_ signal: Signal, _ n: Int) -> Int {
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
            let shares = WallMath.counts(of: open, total: missing)
            var got = 0
            for signal in order { got += take(signal, shares[signal] ?? 0) }
            if got == 0 {
                // Shares too small to reach the signals with albums left: one each, heaviest first.
                for (signal, _) in open where missing - got > 0 { got += take(signal, 1) }
                if got == 0 { break }
            }
            missing -= got
        }
        return chosen
    }
}
