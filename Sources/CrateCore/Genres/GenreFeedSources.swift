import Foundation

/// One of a genre feed's six signals: names albums (release groups) of the scope. Injectable:
/// the live sources talk to ListenBrainz, MusicBrainz and the library; tests pass their own.
public protocol GenreFeedSource: Sendable {
    var signal: GenreSignal { get }
    func albums(_ scope: GenreScope, _ request: WallSourceRequest) async throws -> [WallItem]
}

/// Personal History, Recommendations and Trending: a Crate Wall signal's albums, kept when
/// MusicBrainz tags them with the scope's genres (one filter search for up to
/// `GenreSearcher.filterBatch` albums).
public struct GenreFilteredSource: GenreFeedSource {
    public let signal: GenreSignal
    let base: any WallSource
    let searcher: GenreSearcher
    /// The wall request's page for a feed request (Trending picks a random chart range or offset).
    let page: @Sendable (WallSourceRequest) -> Int

    public init(signal: GenreSignal, base: any WallSource, searcher: GenreSearcher,
                page: @escaping @Sendable (WallSourceRequest) -> Int = { $0.page }) {
        self.signal = signal
        self.base = base
        self.searcher = searcher
        self.page = page
    }

    public func albums(_ scope: GenreScope, _ request: WallSourceRequest) async throws -> [WallItem] {
        let candidates = try await base.albums(WallSourceRequest(count: GenreSearcher.filterBatch, page: page(request)))
        return try await searcher.filter(Array(uniqueByReleaseGroup(candidates).prefix(GenreSearcher.filterBatch)), tags: scope.filterTags)
    }
}

/// New Releases: albums with the scope's tags first released in the last `days` days, one
/// search per picked subcategory, side by side, merged.
public struct GenreNewReleasesSource: GenreFeedSource {
    public let signal = GenreSignal.newReleases
    let searcher: GenreSearcher
    let days: Int
    let now: @Sendable () -> Date

    public init(searcher: GenreSearcher, days: Int = 90, now: @escaping @Sendable () -> Date = { Date() }) {
        self.searcher = searcher
        self.days = days
        self.now = now
    }

    public func albums(_ scope: GenreScope, _ request: WallSourceRequest) async throws -> [WallItem] {
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = TimeZone(identifier: "UTC")
        formatter.dateFormat = "yyyy-MM-dd"
        let from = formatter.string(from: now().addingTimeInterval(-Double(days) * 86_400))
        let queries = scope.searchGroups.map { GenreQuery.newReleases(tags: $0, from: from) }
        let limit = min(100, max(10, request.count))
        return try await searcher.merged(queries, limit: limit, offset: { _ in request.page * limit }, signal: signal.wallSignal)
    }
}

/// Subcategory Rotation: up to `pick` random subcategories (of those picked on the bar, or of
/// the whole genre), searched side by side at random offsets and merged.
public struct SubcategoryRotationSource: GenreFeedSource {
    public let signal = GenreSignal.subcategoryRotation
    let searcher: GenreSearcher
    let pick: Int
    let random: @Sendable (Int) -> Int

    /// - Parameter random: a number in `0..<n` (injectable for tests).
    public init(searcher: GenreSearcher, pick: Int = 3, random: @escaping @Sendable (Int) -> Int = { Int.random(in: 0..<max(1, $0)) }) {
        self.searcher = searcher
        self.pick = pick
        self.random = random
    }

    public func albums(_ scope: GenreScope, _ request: WallSourceRequest) async throws -> [WallItem] {
        var pool = scope.selected.isEmpty ? scope.genre.subcategories : scope.selected
        var chosen: [GenreEntry] = []
        while chosen.count < pick, !pool.isEmpty {
            chosen.append(pool.remove(at: random(pool.count)))
        }
        let queries = chosen.map { GenreQuery.albums(tags: $0.searchTags) }
        let limit = min(100, max(10, request.count))
        let random = self.random
        let items = try await searcher.merged(queries, limit: limit, offset: { _ in random(100) }, signal: signal.wallSignal)
        if !items.isEmpty { return items }
        // The offsets may have been past the end of small tags: once more from the start.
        return try await searcher.merged(queries, limit: limit, signal: signal.wallSignal)
    }
}

/// Seed Expansion: the favourited albums that belong to the scope, then other albums by their
/// artists (one filter search, one artist search).
public struct SeedExpansionSource: GenreFeedSource {
    public let signal = GenreSignal.seedExpansion
    let searcher: GenreSearcher
    let database: AppDatabase
    /// Artists followed at most.
    let artists: Int

    public init(searcher: GenreSearcher, database: AppDatabase, artists: Int = 25) {
        self.searcher = searcher
        self.database = database
        self.artists = artists
    }

    public func albums(_ scope: GenreScope, _ request: WallSourceRequest) async throws -> [WallItem] {
        let database = self.database
        let favourites = try await Task.detached { try database.read(FavouriteAlbumsRequest(limit: GenreSearcher.filterBatch)) }.value
        guard !favourites.isEmpty else { return [] }
        let seeds = try await searcher.musicBrainz.searchReleaseGroups(
            lucene: GenreQuery.filter(groups: favourites.map(\.releaseGroupID), tags: scope.filterTags), limit: 100).groups
        var seen = Set<MBID>()
        let artistIDs = seeds.flatMap(\.artistIDs).filter { seen.insert($0).inserted }.prefix(artists)
        guard !artistIDs.isEmpty else { return [] }
        let favouriteIDs = Set(favourites.map(\.releaseGroupID))
        let items = try await searcher.merged([GenreQuery.albums(byArtists: Array(artistIDs))], limit: 100,
                                              offset: { _ in request.page * 100 }, signal: signal.wallSignal)
        return items.filter { !favouriteIDs.contains($0.releaseGroupID) }
    }
}
