import Foundation

/// One tile of a genre feed: the album (shown as the wall's tile of `signal.wallSignal`) and
/// the genre signal that gave it.
public struct GenreFeedItem: Equatable, Sendable {
    public var signal: GenreSignal
    public var item: WallItem
}

/// A genre feed as built.
public struct GenreFeed: Equatable, Sendable {
    public var scope: GenreScope
    public var dial: CrateDialPosition
    public var items: [GenreFeedItem]
    /// Tiles per signal the weights asked for (largest remainder).
    public var planned: [GenreSignal: Int]
    /// Signals the feed was built without, with a sentence for the user.
    public var unavailable: [GenreSignal: String]

    public var counts: [GenreSignal: Int] {
        items.reduce(into: [:]) { $0[$1.signal, default: 0] += 1 }
    }
}

/// Builds genre feeds with the Crate Wall's rules (`FeedBlender`): the six signals side by
/// side, each with a time limit; duplicates, dislikes and shown albums dropped; a failed or
/// empty signal's share given to the others; the weighted interleave.
public struct GenreFeedBuilder: Sendable {
    public let sources: [GenreSignal: any GenreFeedSource]
    public let table: GenreDialTable
    public let timeout: TimeInterval
    /// Times the limits; tests pass one whose deadlines pass only when the test says so.
    public let clock: any NetworkClock

    public init(sources: [any GenreFeedSource], table: GenreDialTable, timeout: TimeInterval = 20, clock: any NetworkClock = SystemNetworkClock()) {
        var map: [GenreSignal: any GenreFeedSource] = [:]
        for source in sources { map[source.signal] = source }
        self.sources = map
        self.table = table
        self.timeout = timeout
        self.clock = clock
    }

    public func build(_ scope: GenreScope, dial: CrateDialPosition, count: Int, excluding: Set<MBID> = [], disliked: Set<MBID> = [], page: Int = 0) async -> GenreFeed {
        let weights = table.orderedWeights(dial)
        var fetchers: [GenreSignal: FeedBlender.Fetch] = [:]
        for (signal, source) in sources { fetchers[signal] = { try await source.albums(scope, $0) } }
        let request = WallSourceRequest(count: min(100, max(count + count / 4, 10)), page: page)
        let outcomes = count > 0 ? await FeedBlender.fetchAll(weights.map(\.0), fetchers: fetchers, request: request, timeout: timeout, clock: clock) { signal in
            WallError.notConfigured(signal == .personalHistory || signal == .seedExpansion ? L10n.tr("your library") : L10n.tr("MusicBrainz or ListenBrainz"))
        } : [:]
        let blend = FeedBlender.blend(weights: weights, count: count, blocked: excluding.union(disliked), outcomes: outcomes) { signal, item in
            var item = item
            item.signal = signal.wallSignal
            return item
        }
        return GenreFeed(scope: scope, dial: dial, items: blend.items.map { GenreFeedItem(signal: $0.signal, item: $0.item) }, planned: blend.planned,
                         unavailable: Dictionary(blend.unavailable.map { ($0.signal, $0.reason) }, uniquingKeysWith: { a, _ in a }))
    }
}

extension AppServices {
    /// The six live genre signals (those whose service is configured).
    public func genreFeedSources(listenBrainz: ListenBrainzClient?) -> [any GenreFeedSource] {
        guard let musicBrainz else { return [] }
        let art = settings.endpoints.coverArtArchive
        let searcher = GenreSearcher(musicBrainz: musicBrainz, coverArt: art)
        var sources: [any GenreFeedSource] = [
            GenreFilteredSource(signal: .personalHistory, base: ListeningHistorySource(listenBrainz: listenBrainz, database: environment.database, coverArt: art), searcher: searcher),
            GenreFilteredSource(signal: .recommendations, base: RecommendationsSource(listenBrainz: listenBrainz, database: environment.database, coverArt: art), searcher: searcher),
            GenreNewReleasesSource(searcher: searcher),
            SubcategoryRotationSource(searcher: searcher),
            SeedExpansionSource(searcher: searcher, database: environment.database),
        ]
        if let listenBrainz {
            // A random chart range (this week … all time) or a random page past them.
            sources.append(GenreFilteredSource(signal: .trending, base: PopularChartsSource(listenBrainz: listenBrainz, coverArt: art), searcher: searcher,
                                               page: { $0.page + Int.random(in: 0..<6) }))
        }
        return sources
    }

    /// The genre feeds' builder: the weights from `data/genre-dial.json`.
    public func genreFeedBuilder(timeout: TimeInterval = 20) throws -> GenreFeedBuilder {
        GenreFeedBuilder(sources: genreFeedSources(listenBrainz: listenBrainz), table: try GenreDialTable.standard(environment: environment.variables), timeout: timeout)
    }

    /// A genre feed for the scope, without the user's dislikes.
    public func genreFeed(_ scope: GenreScope, dial: CrateDialPosition, count: Int = WallService.pageSize, builder: GenreFeedBuilder? = nil) async throws -> GenreFeed {
        let disliked = Set(try environment.database.read(AlbumRatingsRequest()).filter { $0.value == .dislike }.map(\.key))
        return await (try builder ?? genreFeedBuilder()).build(scope, dial: dial, count: count, disliked: disliked)
    }
}
