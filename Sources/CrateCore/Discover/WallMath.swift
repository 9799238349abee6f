import Foundation

/// The wall's arithmetic: tiles per signal from the dial's weights (largest remainder), and the
/// weighted interleave that spreads each signal over the wall.
public enum WallMath {
    /// Splits `total` tiles by `weights` with the largest-remainder method: each signal gets the
    /// whole part of its exact share, and the tiles left go to the largest fractional parts
    /// (ties: the heavier weight, then signal order). Signals of weight 0 get nothing.
    public static func counts(_ weights: [(WallSignal, Double)], total: Int) -> [WallSignal: Int] {
        counts(of: weights, total: total)
    }

    /// `counts` for any kind of signal (the wall's five, a genre feed's six).
    public static func counts<Signal: Hashable & Comparable>(of weights: [(Signal, Double)], total: Int) -> [Signal: Int] {
        let positive = weights.filter { $0.1 > 0 && $0.1.isFinite }
        let sum = positive.reduce(0) { $0 + $1.1 }
        var result: [Signal: Int] = [:]
        guard total > 0, sum > 0 else { return result }
        var remainders: [(signal: Signal, fraction: Double, weight: Double)] = []
        var given = 0
        for (signal, weight) in positive {
            let exact = Double(total) * weight / sum
            let whole = Int(exact.rounded(.down))
            result[signal] = whole
            given += whole
            remainders.append((signal, exact - Double(whole), weight))
        }
        remainders.sort { a, b in
            if abs(a.fraction - b.fraction) > 1e-9 { return a.fraction > b.fraction }
            if a.weight != b.weight { return a.weight > b.weight }
            return a.signal < b.signal
        }
        for index in 0..<(total - given) {
            result[remainders[index % remainders.count].signal, default: 0] += 1
        }
        return result
    }

    /// The longest run of one signal that no order can avoid: a signal with `c` of `n` tiles
    /// needs runs of at least ⌈c / (n − c + 1)⌉.
    public static func forcedRun<Key: Hashable>(_ counts: [Key: Int]) -> Int {
        let n = counts.values.reduce(0, +)
        return counts.values.map { c in c == 0 ? 0 : Int((Double(c) / Double(n - c + 1)).rounded(.up)) }.max() ?? 0
    }

    /// Interleaves the buckets so each signal is spread evenly in proportion to its size
    /// (smooth weighted round robin), never in a run longer than `forcedRun` allows: a pick that
    /// would leave the rest impossible to place within that bound is passed over for the next
    /// best. Each bucket's own order is kept.
    public static func interleave<Item>(_ buckets: [(WallSignal, [Item])]) -> [Item] {
        interleave(buckets: buckets)
    }

    /// `interleave` for any kind of signal.
    public static func interleave<Signal, Item>(buckets: [(Signal, [Item])]) -> [Item] {
        let queues = buckets.filter { !$0.1.isEmpty }.map(\.1)
        let weights = queues.map(\.count)
        var remaining = weights
        let bound = max(1, forcedRun(Dictionary(uniqueKeysWithValues: weights.enumerated().map { ($0.offset, $0.element) })))
        var current = Array(repeating: 0, count: queues.count)
        var result: [Item] = []
        var last = -1
        var run = 0
        let total = weights.reduce(0, +)
        while result.count < total {
            let open = queues.indices.filter { remaining[$0] > 0 }
            var sum = 0
            for i in open {
                current[i] += weights[i]
                sum += weights[i]
            }
            let ranked = open.sorted { a, b in current[a] != current[b] ? current[a] > current[b] : a < b }
            let pick = ranked.first { candidate in
                let nextRun = candidate == last ? run + 1 : 1
                guard nextRun <= bound else { return false }
                remaining[candidate] -= 1
                defer { remaining[candidate] += 1 }
                return feasible(remaining, last: candidate, run: nextRun, bound: bound)
            } ?? ranked[0]
            current[pick] -= sum
            result.append(queues[pick][weights[pick] - remaining[pick]])
            remaining[pick] -= 1
            run = pick == last ? run + 1 : 1
            last = pick
        }
        return result
    }

    /// Whether `remaining` can still be placed with no run above `bound`, after a run of `run`
    /// of `last`: each signal needs enough others to separate its blocks of `bound`.
    static func feasible(_ remaining: [Int], last: Int, run: Int, bound: Int) -> Bool {
        let total = remaining.reduce(0, +)
        for (i, count) in remaining.enumerated() where count > 0 {
            let others = total - count
            let capacity = i == last ? (bound - run) + bound * others : bound * (others + 1)
            if count > capacity { return false }
        }
        return true
    }
}
