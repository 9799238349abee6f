import CrateCore
import CrateTestSupport
import Foundation
import Synchronization
import Testing

/// The genre bar's store over injected signals: what the window's genre bar and feed show.
@MainActor
@Suite("GenreFeedStore")
struct GenreFeedStoreTests {
    /// A signal that answers each scope with albums named after the scope's tags (so two
    /// subcategories give different albums, and one album is shared by both), or fails.
    final class TaggedSource: GenreFeedSource {
        let signal: GenreSignal
        let fails: Bool
        let scopes = Mutex<[String]>([])

        init(signal: GenreSignal, fails: Bool) {
            self.signal = signal
            self.fails = fails
        }

        func albums(_ scope: GenreScope, _ request: WallSourceRequest) async throws -> [WallItem] {
            scopes.withLock { $0.append(scope.title) }
            if fails { throw WallError.timedOut(seconds: 5) }
            let keys = scope.selected.isEmpty ? [scope.genre.id] : scope.selected.map(\.id)
            // Every subcategory also names the same album (first): it must be shown once.
            var items = [Self.item(signal: nil, key: "shared", n: 0)]
            // Round robin over the picked subcategories, as the live searches merge.
            for n in 0..<40 {
                for key in keys { items.append(Self.item(signal: signal, key: key, n: n)) }
            }
            return items
        }

        /// Distinct per signal, key and n; `signal` nil: the album every signal names.
        static func item(signal: GenreSignal?, key: String, n: Int) -> WallItem {
            // FNV-1a: the same key gives the same id in every run.
            let digest = key.utf8.reduce(UInt32(2_166_136_261)) { ($0 ^ UInt32($1)) &* 16_777_619 }
            let id = try! MBID(String(format: "%08x-0000-4000-8000-%012x", digest, n + ((signal.flatMap { GenreSignal.allCases.firstIndex(of: $0) } ?? 9) + 1) * 1000))
            return WallItem(signal: signal?.wallSignal ?? .wildCard, releaseGroupID: id, title: "\(key) \(n)", artist: "Artist \(n)")
        }
    }

    static func store(failing: Set<GenreSignal> = []) throws -> (GenreFeedStore, [GenreSignal: TaggedSource], AppDatabase) {
        let database = try AppDatabase.inMemory()
        let sources = Dictionary(uniqueKeysWithValues: GenreSignal.allCases.map { ($0, TaggedSource(signal: $0, fails: failing.contains($0))) })
        let builder = GenreFeedBuilder(sources: Array(sources.values), table: try GenreDialTable.standard(), timeout: 30, clock: ManualClock())
        let store = GenreFeedStore(database: database, taxonomy: try GenreTaxonomy.load(), builder: builder, thumbnails: nil)
        return (store, sources, database)
    }

    @Test func aGenreThenTwoSubcategoriesMergeWithoutDuplicatesAndDismissGoesBackToTheWall() async throws {
        let (store, sources, _) = try Self.store()
        #expect(store.state.value.genres.count >= 12)
        #expect(store.state.value.genre == nil && store.state.value.phase == .idle)

        await store.select(genreID: "rock", dial: .mixed)
        var state = store.state.value
        #expect(state.genre?.id == "rock" && state.selected.isEmpty && state.phase == .loaded)
        #expect(!state.tiles.isEmpty && state.unavailable.isEmpty)

        await store.toggle(subcategoryID: "shoegaze", dial: .mixed)
        await store.toggle(subcategoryID: "post-rock", dial: .mixed)
        state = store.state.value
        // Kept in the genre's order, whatever order they were toggled in.
        #expect(state.selected == ["post-rock", "shoegaze"])
        #expect(state.scope?.title == "Rock: Post-Rock + Shoegaze")
        let ids = state.tiles.map(\.item.releaseGroupID)
        #expect(Set(ids).count == ids.count, "an album is shown twice")
        #expect(state.tiles.contains { $0.item.title.hasPrefix("post-rock") })
        #expect(state.tiles.contains { $0.item.title.hasPrefix("shoegaze") })
        #expect(state.tiles.filter { $0.item.title == "shared 0" }.count == 1)
        #expect(Set(state.signals.values) == Set(GenreSignal.allCases))
        #expect(sources[.trending]?.scopes.withLock { $0.last } == "Rock: Post-Rock + Shoegaze")

        // Toggling one off builds the feed for the other alone.
        await store.toggle(subcategoryID: "shoegaze", dial: .mixed)
        #expect(store.state.value.selected == ["post-rock"])
        #expect(!store.state.value.tiles.contains { $0.item.title.hasPrefix("shoegaze") })

        store.dismiss()
        state = store.state.value
        #expect(state.genre == nil && state.selected.isEmpty && state.tiles.isEmpty && state.phase == .idle)
    }

    @Test func unknownGenresAndSubcategoriesChangeNothing() async throws {
        let (store, _, _) = try Self.store()
        await store.select(genreID: "no-such-genre", dial: .mixed)
        #expect(store.state.value.genre == nil)
        await store.select(genreID: "jazz", dial: .mixed)
        let before = store.state.value
        await store.toggle(subcategoryID: "shoegaze", dial: .mixed)
        #expect(store.state.value.selected.isEmpty)
        #expect(store.state.value.tiles == before.tiles)
    }

    @Test(arguments: GenreSignal.allCases)
    func aFailingSignalIsNamedAndTheFeedStillFills(_ failing: GenreSignal) async throws {
        let (store, _, _) = try Self.store(failing: [failing])
        await store.select(genreID: "electronic", dial: .mixed)
        let state = store.state.value
        #expect(state.unavailable.map(\.signal) == [failing])
        #expect(state.tiles.count == GenreFeedStore.feedSize)
        #expect(!state.signals.values.contains(failing))
        #expect(state.message == nil)
    }

    @Test func everySignalFailingSaysSoInPlainWords() async throws {
        let (store, _, _) = try Self.store(failing: Set(GenreSignal.allCases))
        await store.select(genreID: "jazz", dial: .mixed)
        let state = store.state.value
        #expect(state.tiles.isEmpty && state.phase == .loaded)
        #expect(state.unavailable.count == GenreSignal.allCases.count)
        // The notes name each source's reason; the sentence does not claim it was the network.
        #expect(state.message == "No source gave albums for Jazz.")
        for missing in state.unavailable { #expect(!missing.reason.contains("127.0.0.1") && !missing.reason.lowercased().contains("curl")) }
    }

    /// The feed downloaded again every time it was opened: a feed built this session shows
    /// at once, without asking its sources, until the user refreshes it.
    @Test func aFeedOpenedAgainComesFromTheSessionAndRefreshBuildsItAgain() async throws {
        let (store, sources, _) = try Self.store()
        await store.select(genreID: "rock", dial: .mixed)
        let first = store.state.value.tiles
        let asked = sources.values.map { $0.scopes.withLock { $0.count } }.reduce(0, +)
        store.dismiss()
        await store.select(genreID: "rock", dial: .mixed)
        #expect(store.state.value.tiles == first)
        #expect(store.state.value.phase == .loaded)
        #expect(sources.values.map { $0.scopes.withLock { $0.count } }.reduce(0, +) == asked, "no source was asked again")
        await store.refresh()
        #expect(sources.values.map { $0.scopes.withLock { $0.count } }.reduce(0, +) > asked)
    }

    /// The last feed's error stayed on screen while the next one loaded.
    @Test func theLastFeedsProblemsGoWhileTheNextLoads() async throws {
        let (store, _, _) = try Self.store(failing: Set(GenreSignal.allCases))
        await store.select(genreID: "jazz", dial: .mixed)
        #expect(store.state.value.message != nil)
        var loading: [GenreFeedState] = []
        let token = store.state.subscribe { if $0.phase == .loading { loading.append($0) } }
        await store.select(genreID: "rock", dial: .mixed)
        token.cancel()
        #expect(!loading.isEmpty)
        #expect(loading.allSatisfy { $0.message == nil && $0.unavailable.isEmpty })
    }

    @Test func dislikedAlbumsAreLeftOut() async throws {
        let (store, _, database) = try Self.store()
        await store.select(genreID: "rock", dial: .mixed)
        let first = try #require(store.state.value.tiles.first)
        try database.rate(WallStore.album(of: first), .dislike, feedback: false)
        await store.build(dial: .mixed)
        #expect(!store.state.value.tiles.contains { $0.item.releaseGroupID == first.item.releaseGroupID })
    }

    @Test func withoutABuilderChoosingAGenreSaysWhy() async throws {
        let store = GenreFeedStore(database: try AppDatabase.inMemory(), taxonomy: try GenreTaxonomy.load(), builder: nil, thumbnails: nil)
        await store.select(genreID: "rock", dial: .mixed)
        #expect(store.state.value.tiles.isEmpty)
        #expect(store.state.value.message?.contains("MusicBrainz") == true)
    }
}
