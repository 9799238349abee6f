/// How a page of tiles turns into the next list of tiles touching only the places that change.
///
/// The wall, a genre feed and an artist page keep one widget per place. When a new list comes
/// (a late answer fills some places, "more" appends, a ✕ takes one tile out), rebuilding every
/// widget would drop a click that lands on a tile mid-way and lose focus and scroll position.
/// A plan says, for each tile of the new list, which old widget shows it:
///
/// - `keep`: the same tile (same key, same content) — the widget is left alone;
/// - `update`: the same tile (same key) whose content changed (its art arrived, a title was
///   corrected) — the widget shows the new content;
/// - `rebind`: a different tile in a place whose old tile left — the widget stays where it is
///   and shows the new tile (a late answer filling a stand-in's place);
/// - `insert`: a new widget.
///
/// and which old widgets go (`removed`). The tiles kept or updated are the longest run of old
/// tiles that are still there in the same order, so nothing that stayed is moved or rebuilt; in
/// each gap between them, old places are reused in order for the new tiles, the extra old ones
/// are removed and the extra new ones inserted.
///
/// Applying it: remove the `removed` widgets, then walk the new list in order and insert a new
/// widget at each `insert` place; every other place already holds its widget (see `apply`).
public struct TilePlan: Equatable, Sendable {
    public enum Place: Equatable, Sendable {
        case keep(from: Int)
        case update(from: Int)
        case rebind(from: Int)
        case insert

        /// The old place whose widget shows this tile (nil: a new widget).
        public var oldIndex: Int? {
            switch self {
            case .keep(let index), .update(let index), .rebind(let index): return index
            case .insert: return nil
            }
        }
    }

    /// One per tile of the new list, in order.
    public var places: [Place]
    /// Old places whose widgets go, ascending.
    public var removed: [Int]

    public init(places: [Place], removed: [Int]) {
        self.places = places
        self.removed = removed
    }

    /// Nothing to do: every tile kept as it was.
    public var isUnchanged: Bool {
        removed.isEmpty && places.allSatisfy { if case .keep = $0 { return true } else { return false } }
    }

    /// New places whose widget must show something new (updated, rebound or inserted).
    public var changedPlaces: [Int] {
        places.indices.filter { if case .keep = places[$0] { return false } else { return true } }
    }

    /// How many places of each kind (test events and timing lines).
    public var counts: (kept: Int, updated: Int, rebound: Int, inserted: Int, removed: Int) {
        var counts = (kept: 0, updated: 0, rebound: 0, inserted: 0, removed: removed.count)
        for place in places {
            switch place {
            case .keep: counts.kept += 1
            case .update: counts.updated += 1
            case .rebind: counts.rebound += 1
            case .insert: counts.inserted += 1
            }
        }
        return counts
    }

    /// "kept=57 updated=0 rebound=3 inserted=0 removed=0".
    public var summary: String {
        let c = counts
        return "kept=\(c.kept) updated=\(c.updated) rebound=\(c.rebound) inserted=\(c.inserted) removed=\(c.removed)"
    }

    /// The plan from `old` to `new`. Tiles are the same when their keys are; a key seen twice in
    /// a list counts once (its later copies are new tiles).
    public static func between<Tile: Equatable, Key: Hashable>(_ old: [Tile], _ new: [Tile], key: (Tile) -> Key) -> TilePlan {
        let oldKeys = old.map(key), newKeys = new.map(key)
        var oldIndexByKey: [Key: Int] = [:]
        for (index, key) in oldKeys.enumerated() where oldIndexByKey[key] == nil { oldIndexByKey[key] = index }
        // For each new tile, where its key stood in the old list (first copies only).
        var seen = Set<Key>()
        let matches: [Int?] = newKeys.map { key in
            guard seen.insert(key).inserted else { return nil }
            return oldIndexByKey[key]
        }
        let anchors = longestIncreasingRun(matches)

        var places = [Place](repeating: .insert, count: new.count)
        var removed: [Int] = []
        var oldStart = 0, newStart = 0
        // Each anchor closes a gap (the last gap runs to the ends of both lists).
        for anchor in anchors + [nil] {
            let oldEnd = anchor.map { matches[$0]! } ?? old.count
            let newEnd = anchor ?? new.count
            let reused = min(oldEnd - oldStart, newEnd - newStart)
            for offset in 0..<reused { places[newStart + offset] = .rebind(from: oldStart + offset) }
            removed.append(contentsOf: (oldStart + reused)..<oldEnd)
            if let anchor {
                let from = matches[anchor]!
                places[anchor] = old[from] == new[anchor] ? .keep(from: from) : .update(from: from)
                oldStart = from + 1
                newStart = anchor + 1
            }
        }
        return TilePlan(places: places, removed: removed)
    }

    /// The new list's widgets from the old ones: `make` builds one for an inserted place (its
    /// index in the new list), `rebind`/`update` show a new tile in a reused widget. The pages
    /// do the same with their flow boxes (removals first, then insertions in order); tests use
    /// this to check which widgets survive.
    public func apply<Widget>(to widgets: [Widget], make: (Int) -> Widget, rebind: (Widget, Int) -> Void = { _, _ in }) -> [Widget] {
        var current = widgets
        for index in removed.reversed() { current.remove(at: index) }
        for (index, place) in places.enumerated() {
            switch place {
            case .insert: current.insert(make(index), at: index)
            case .rebind, .update: rebind(current[index], index)
            case .keep: break
            }
        }
        return current
    }

    /// Indices (into `matches`) of a longest strictly increasing run of the non-nil values
    /// (patience sorting, O(n log n)).
    static func longestIncreasingRun(_ matches: [Int?]) -> [Int] {
        var tails: [Int] = []  // tails[k]: index into matches ending a run of length k + 1
        var previous = [Int?](repeating: nil, count: matches.count)
        for (index, match) in matches.enumerated() {
            guard let value = match else { continue }
            var low = 0, high = tails.count
            while low < high {
                let middle = (low + high) / 2
                if matches[tails[middle]]! < value { low = middle + 1 } else { high = middle }
            }
            if low > 0 { previous[index] = tails[low - 1] }
            if low == tails.count { tails.append(index) } else { tails[low] = index }
        }
        var run: [Int] = []
        var cursor = tails.last
        while let index = cursor {
            run.append(index)
            cursor = previous[index]
        }
        return run.reversed()
    }
}
