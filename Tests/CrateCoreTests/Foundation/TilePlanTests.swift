import CrateCore
import Testing

@Suite("Tile plans: pages update only the places that change")
struct TilePlanTests {
    struct Tile: Equatable {
        var id: String
        var art: String? = nil
    }

    /// A widget: which tile it shows, and how often it was shown something new.
    final class Widget {
        var tile: Tile
        var rebinds = 0
        init(_ tile: Tile) { self.tile = tile }
    }

    static func tiles(_ ids: [String]) -> [Tile] { ids.map { Tile(id: $0) } }
    static func tiles(_ range: Range<Int>) -> [Tile] { range.map { Tile(id: "t\($0)") } }

    /// Applies the plan to widgets showing `old`; checks they now show `new`.
    static func widgets(from old: [Tile], to new: [Tile], plan: TilePlan) -> (before: [Widget], after: [Widget]) {
        let before = old.map(Widget.init)
        let after = plan.apply(to: before, make: { Widget(new[$0]) }, rebind: { widget, index in
            widget.tile = new[index]
            widget.rebinds += 1
        })
        #expect(after.map(\.tile) == new)
        return (before, after)
    }

    @Test func theSameListTouchesNothing() {
        let tiles = Self.tiles(0..<60)
        let plan = TilePlan.between(tiles, tiles, key: \.id)
        #expect(plan.isUnchanged)
        #expect(plan.changedPlaces.isEmpty)
        let (before, after) = Self.widgets(from: tiles, to: tiles, plan: plan)
        #expect(zip(before, after).allSatisfy { $0 === $1 })
        #expect(after.allSatisfy { $0.rebinds == 0 })
    }

    @Test func aLateAnswerRebindsOnlyTheStandInsPlaces() {
        let old = Self.tiles(0..<60)
        var new = old
        let standIns = [3, 7, 11, 22, 40, 59]
        for place in standIns { new[place] = Tile(id: "rec\(place)") }
        let plan = TilePlan.between(old, new, key: \.id)
        #expect(plan.changedPlaces == standIns)
        #expect(plan.removed.isEmpty)
        #expect(plan.counts.kept == 54 && plan.counts.rebound == 6 && plan.counts.inserted == 0)
        for place in standIns { #expect(plan.places[place] == .rebind(from: place)) }
        let (before, after) = Self.widgets(from: old, to: new, plan: plan)
        // Every place keeps its widget: the unchanged ones untouched, the others shown anew.
        #expect(zip(before, after).allSatisfy { $0 === $1 })
        #expect(after.indices.filter { after[$0].rebinds > 0 } == standIns)
    }

    @Test func moreAppendsOnly() {
        let old = Self.tiles(0..<60)
        let new = Self.tiles(0..<80)
        let plan = TilePlan.between(old, new, key: \.id)
        #expect(plan.removed.isEmpty)
        #expect(plan.changedPlaces == Array(60..<80))
        #expect(plan.places[60...].allSatisfy { $0 == .insert })
        let (before, after) = Self.widgets(from: old, to: new, plan: plan)
        #expect(zip(before, after).allSatisfy { $0 === $1 })
        #expect(after.allSatisfy { $0.rebinds == 0 })
    }

    @Test func aDislikeRemovesOnlyThatTile() {
        let old = Self.tiles(0..<12)
        var new = old
        new.remove(at: 5)
        let plan = TilePlan.between(old, new, key: \.id)
        #expect(plan.removed == [5])
        #expect(plan.counts.kept == 11 && plan.changedPlaces.isEmpty)
        let (before, after) = Self.widgets(from: old, to: new, plan: plan)
        var survivors = before
        survivors.remove(at: 5)
        #expect(zip(survivors, after).allSatisfy { $0 === $1 })
        #expect(after.allSatisfy { $0.rebinds == 0 })
    }

    @Test func artArrivingUpdatesThatTileInPlace() {
        let old = Self.tiles(0..<10)
        var new = old
        new[4].art = "covers/4.jpg"
        let plan = TilePlan.between(old, new, key: \.id)
        #expect(plan.places[4] == .update(from: 4))
        #expect(plan.changedPlaces == [4])
        let (before, after) = Self.widgets(from: old, to: new, plan: plan)
        #expect(zip(before, after).allSatisfy { $0 === $1 })
        #expect(after[4].rebinds == 1 && after[4].tile.art == "covers/4.jpg")
    }

    @Test func aWholeNewWallReusesEveryPlace() {
        let old = Self.tiles(0..<60)
        let new = Self.tiles(100..<160)
        let plan = TilePlan.between(old, new, key: \.id)
        #expect(plan.removed.isEmpty)
        #expect(plan.places == (0..<60).map { .rebind(from: $0) })
        let (before, after) = Self.widgets(from: old, to: new, plan: plan)
        #expect(zip(before, after).allSatisfy { $0 === $1 })
    }

    @Test func aShorterNewWallRemovesTheExtraPlaces() {
        let old = Self.tiles(0..<10)
        let new = Self.tiles(["a", "b", "c"])
        let plan = TilePlan.between(old, new, key: \.id)
        #expect(plan.places == [.rebind(from: 0), .rebind(from: 1), .rebind(from: 2)])
        #expect(plan.removed == Array(3..<10))
        _ = Self.widgets(from: old, to: new, plan: plan)
    }

    @Test func fromAndToNothing() {
        let tiles = Self.tiles(0..<5)
        let filling = TilePlan.between([], tiles, key: \.id)
        #expect(filling.places == Array(repeating: .insert, count: 5) && filling.removed.isEmpty)
        let emptying = TilePlan.between(tiles, [], key: \.id)
        #expect(emptying.places.isEmpty && emptying.removed == Array(0..<5))
        #expect(TilePlan.between([Tile](), [], key: \.id).isUnchanged)
    }

    @Test func aMovedTileLeavesTheOthersWhereTheyAre() {
        let old = Self.tiles(["a", "b", "c", "d"])
        let new = Self.tiles(["d", "a", "b", "c"])
        let plan = TilePlan.between(old, new, key: \.id)
        #expect(plan.places == [.insert, .keep(from: 0), .keep(from: 1), .keep(from: 2)])
        #expect(plan.removed == [3])
        let (before, after) = Self.widgets(from: old, to: new, plan: plan)
        #expect(after[1] === before[0] && after[2] === before[1] && after[3] === before[2])
    }

    @Test func aTileTwiceInAListIsShownTwice() {
        let old = Self.tiles(["a", "b", "a"])
        let new = Self.tiles(["a", "a", "c", "b"])
        let plan = TilePlan.between(old, new, key: \.id)
        _ = Self.widgets(from: old, to: new, plan: plan)
        #expect(plan.places[0] == .keep(from: 0))
    }

    /// Random edits (seeded, so every run is the same): the plan always gives the new list, never
    /// moves or rebuilds a tile that is in both lists in the same order, and keeps as many as can be.
    @Test func randomEditsGiveTheNewListAndKeepTheLongestRun() {
        var generator = SplitMix(seed: 13)
        for _ in 0..<300 {
            let old = Self.tiles((0..<Int(generator.next() % 40)).map { _ in "t\(generator.next() % 30)" })
            var new = old
            for _ in 0..<Int(generator.next() % 6) {
                switch generator.next() % 4 {
                case 0 where !new.isEmpty: new.remove(at: Int(generator.next() % UInt64(new.count)))
                case 1: new.insert(Tile(id: "n\(generator.next() % 50)"), at: Int(generator.next() % UInt64(new.count + 1)))
                case 2 where !new.isEmpty: new[Int(generator.next() % UInt64(new.count))] = Tile(id: "r\(generator.next() % 50)")
                default: new.append(Tile(id: "a\(generator.next() % 50)"))
                }
            }
            let plan = TilePlan.between(old, new, key: \.id)
            let (before, after) = Self.widgets(from: old, to: new, plan: plan)
            // Kept widgets are the very ones that showed the tile, in the same order.
            var lastOld = -1
            for (index, place) in plan.places.enumerated() {
                guard case .keep(let from) = place else { continue }
                #expect(after[index] === before[from] && after[index].rebinds == 0 && old[from] == new[index])
                #expect(from > lastOld)
                lastOld = from
            }
            #expect(Set(plan.removed).count == plan.removed.count && plan.removed == plan.removed.sorted())
            #expect(plan.removed.count + plan.places.count(where: { $0.oldIndex != nil }) == old.count)
        }
    }

    /// With every key once in each list, the tiles left alone are as many as can be: the longest
    /// common subsequence of the two lists of keys.
    @Test func asManyTilesAsPossibleStay() {
        var generator = SplitMix(seed: 21)
        for _ in 0..<200 {
            var pool = (0..<40).map { "t\($0)" }
            pool.shuffle(using: &generator)
            let old = Self.tiles(Array(pool.prefix(Int(generator.next() % 25))))
            pool.shuffle(using: &generator)
            let new = Self.tiles(Array(pool.prefix(Int(generator.next() % 25))))
            let plan = TilePlan.between(old, new, key: \.id)
            let stayed = plan.places.count { if case .keep = $0 { return true } else { return false } }
            #expect(stayed == Self.longestCommonRun(old.map(\.id), new.map(\.id)))
            _ = Self.widgets(from: old, to: new, plan: plan)
        }
    }

    static func longestCommonRun(_ a: [String], _ b: [String]) -> Int {
        guard !a.isEmpty, !b.isEmpty else { return 0 }
        var table = [[Int]](repeating: [Int](repeating: 0, count: b.count + 1), count: a.count + 1)
        for i in 1...a.count {
            for j in 1...b.count {
                table[i][j] = a[i - 1] == b[j - 1] ? table[i - 1][j - 1] + 1 : max(table[i - 1][j], table[i][j - 1])
            }
        }
        return table[a.count][b.count]
    }

    struct SplitMix: RandomNumberGenerator {
        var state: UInt64
        init(seed: UInt64) { state = seed }
        mutating func next() -> UInt64 {
            state &+= 0x9E37_79B9_7F4A_7C15
            var z = state
            z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
            z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
            return z ^ (z >> 31)
        }
    }
}
