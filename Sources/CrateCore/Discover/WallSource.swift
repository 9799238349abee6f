import Foundation

/// What a wall asks of one signal.
public struct WallSourceRequest: Equatable, Sendable {
    /// Albums wanted (a source may return fewer, or a few more).
    public var count: Int
    /// 0 for a new wall; 1, 2, … for each "more" after it (sources look further down their lists).
    public var page: Int

    public init(count: Int, page: Int = 0) {
        self.count = count
        self.page = page
    }
}

/// One of the wall's five signals: something that names albums (release groups). Injectable:
/// the live sources talk to ListenBrainz, MusicBrainz and the library; tests pass their own.
public protocol WallSource: Sendable {
    var signal: WallSignal { get }
    /// Every album the source has for the request (after its second round trip, if it needs one).
    func albums(_ request: WallSourceRequest) async throws -> [WallItem]
    /// What the source knows after its first round trip, and the rest when finding it takes a
    /// second one (recommended recordings mapped to their albums). A wall is shown as soon as
    /// every source's first answer is in; the rest fills the source's places when it arrives.
    func answer(_ request: WallSourceRequest) async throws -> WallSourceAnswer
}

extension WallSource {
    public func answer(_ request: WallSourceRequest) async throws -> WallSourceAnswer {
        WallSourceAnswer(items: try await albums(request))
    }
}

/// A source's first answer: the albums it has now, and (when more need a second round trip)
/// how to get the rest.
public struct WallSourceAnswer: Sendable {
    public var items: [WallItem]
    /// The albums a second round trip finds (in the source's order, `items` not repeated); nil
    /// when the first answer is all there is.
    public var rest: (@Sendable () async throws -> [WallItem])?
    /// The part of the signal's places kept for the rest even when `items` could fill them all
    /// (0: the rest only fills what `items` cannot). The rest then repeats the albums of `items`
    /// it wants in those places; the wall skips the ones it already shows.
    public var restShare: Double = 0

    public init(items: [WallItem], rest: (@Sendable () async throws -> [WallItem])? = nil) {
        self.items = items
        self.rest = rest
    }
}

extension ListenBrainzReleaseGroup {
    func wallItem(_ signal: WallSignal, coverArt: URL) -> WallItem {
        WallItem(signal: signal, releaseGroupID: releaseGroupID, title: title, artist: artist, releaseID: releaseID ?? caaReleaseID,
                 artURL: CoverArtURL.thumbnail(base: coverArt, releaseGroup: releaseGroupID, caaRelease: caaReleaseID, caaID: caaID))
    }
}

/// Keeps the first of each release group, in order.
func uniqueByReleaseGroup(_ items: [WallItem]) -> [WallItem] {
    var seen = Set<MBID>()
    return items.filter { seen.insert($0.releaseGroupID).inserted }
}

// MARK: - Listening History

/// The user's top release groups and recent listens on ListenBrainz; without an account (or
/// when ListenBrainz has nothing yet) the user's own crate: favourites, most scanned, latest.
public struct ListeningHistorySource: WallSource {
    public let signal = WallSignal.listeningHistory
    let listenBrainz: ListenBrainzClient?
    let database: AppDatabase
    let coverArt: URL

    public init(listenBrainz: ListenBrainzClient?, database: AppDatabase, coverArt: URL) {
        self.listenBrainz = listenBrainz
        self.database = database
        self.coverArt = coverArt
    }

    public func albums(_ request: WallSourceRequest) async throws -> [WallItem] {
        let wanted = request.count * (request.page + 1)
        var failure: Error?
        if let listenBrainz, listenBrainz.user != nil {
            async let top = attempt { try await listenBrainz.topReleaseGroups(range: "this_month", count: min(1000, wanted + 25)) }
            async let recent = attempt { try await listenBrainz.recentReleaseGroups(count: min(1000, wanted * 2 + 25)) }
            let (topResult, recentResult) = await (top, recent)
            var merged: [WallItem] = []
            let a = (try? topResult.get()) ?? []
            let b = (try? recentResult.get()) ?? []
            for index in 0..<max(a.count, b.count) {
                if index < a.count { merged.append(a[index].wallItem(signal, coverArt: coverArt)) }
                if index < b.count { merged.append(b[index].wallItem(signal, coverArt: coverArt)) }
            }
            let items = uniqueByReleaseGroup(merged)
            if !items.isEmpty { return Array(items.dropFirst(request.count * request.page)) }
            if case .failure(let error) = topResult, !(error is CancellationError) { failure = error }
            if failure == nil, case .failure(let error) = recentResult { failure = error }
        }
        let database = self.database
        let local = try await Task.detached { try database.read(CrateAlbumsForWallRequest(limit: wanted + 50)) }.value
            .map { item -> WallItem in
                var item = item
                item.artURL = CoverArtURL.thumbnail(base: coverArt, releaseGroup: item.releaseGroupID, caaRelease: nil, caaID: nil)
                return item
            }
        if local.isEmpty, let failure, !(failure as? ListenBrainzError == .statsNotReady) { throw failure }
        return Array(local.dropFirst(request.count * request.page))
    }
}

/// The outcome of an async call as a value, so two calls side by side can each fail on their own.
func attempt<T: Sendable>(_ body: @Sendable () async throws -> T) async -> Result<T, Error> {
    do { return .success(try await body()) } catch { return .failure(error) }
}

// MARK: - Recommendations

/// ListenBrainz's collaborative-filtering recording recommendations, mapped to their albums with
/// batched lookups (50 recordings a request, and mappings seen before come from the library):
/// never one request per recording.
public struct RecommendationsSource: WallSource {
    public let signal = WallSignal.recommendations
    let listenBrainz: ListenBrainzClient?
    let database: AppDatabase?
    let coverArt: URL
    /// Albums by artists similar to the favourites' artists (nil: not used).
    let similarArtists: FavouriteArtistAlbums?

    public init(listenBrainz: ListenBrainzClient?, database: AppDatabase?, coverArt: URL, similarArtists: FavouriteArtistAlbums? = nil) {
        self.listenBrainz = listenBrainz
        self.database = database
        self.coverArt = coverArt
        self.similarArtists = similarArtists
    }

    public func albums(_ request: WallSourceRequest) async throws -> [WallItem] {
        let answer = try await self.answer(request)
        guard let rest = answer.rest else { return answer.items }
        return uniqueByReleaseGroup(answer.items + (try await rest()))
    }

    /// The recommended recordings (one round trip), the albums of those already mapped in the
    /// library, and, when those do not fill the request, the batched lookup of the others as
    /// the rest (the second round trip, which the wall does not wait for).
    public func answer(_ request: WallSourceRequest) async throws -> WallSourceAnswer {
        guard let similarArtists, await similarArtists.hasFavourites() else { return try await collaborative(request) }
        // A third of the share goes to albums by artists similar to the favourites' artists:
        // they take three round trips (similar artists, then their albums), so they always come
        // as the rest, alternating with the collaborative albums not shown first.
        let wanted = request.count * (request.page + 1)
        let first: WallSourceAnswer
        do {
            first = try await collaborative(request)
        } catch WallError.notConfigured {
            first = WallSourceAnswer(items: [])
        }
        let collaborativeRest = first.rest
        let skip = request.count * request.page
        var answer = WallSourceAnswer(items: first.items) {
            async let similar = attempt { try await similarArtists.albums(count: wanted) }
            async let more = attempt { try await collaborativeRest?() ?? [] }
            let (similarResult, moreResult) = await (similar, more)
            if case .failure(let error) = similarResult { Log.debug("Similar artists of favourites: \(UserMessage.text(for: error))") }
            // The wall puts the albums it already shows aside; the ones it held back come again here.
            let others = first.items + ((try? moreResult.get()) ?? [])
            let liked = Array(((try? similarResult.get()) ?? []).dropFirst(skip))
            var merged: [WallItem] = []
            for index in 0..<max(liked.count, others.count) {
                if index < liked.count { merged.append(liked[index]) }
                if index < others.count { merged.append(others[index]) }
            }
            if merged.isEmpty, case .failure(let error) = similarResult { throw error }
            return uniqueByReleaseGroup(merged)
        }
        answer.restShare = 1.0 / 3
        return answer
    }

    /// ListenBrainz's collaborative filtering alone.
    func collaborative(_ request: WallSourceRequest) async throws -> WallSourceAnswer {
        guard let listenBrainz, listenBrainz.user != nil else { throw WallError.notConfigured(L10n.tr("a ListenBrainz user name")) }
        let wanted = request.count * (request.page + 1)
        let skip = request.count * request.page
        let recordings = try await listenBrainz.recommendedRecordings(count: min(1000, wanted * 2))
        guard !recordings.isEmpty else { return WallSourceAnswer(items: []) }
        let database = self.database
        let known = (try? await Task.detached { try database?.read(CachedRecordingAlbumsRequest(recordings)) ?? [:] }.value) ?? [:]
        let missing = recordings.filter { known[$0] == nil }
        let signal = self.signal, coverArt = self.coverArt
        @Sendable func items(_ map: [MBID: ListenBrainzReleaseGroup]) -> [WallItem] {
            uniqueByReleaseGroup(recordings.compactMap { map[$0]?.wallItem(signal, coverArt: coverArt) })
        }
        let now = items(known)
        guard !missing.isEmpty else { return WallSourceAnswer(items: Array(now.dropFirst(skip))) }
        let map = { @Sendable () async throws -> [MBID: ListenBrainzReleaseGroup] in
            let fetched = try await listenBrainz.releases(ofRecordings: missing)
            if database?.isReadOnly == false {
                try? await Task.detached { try database?.cacheRecordingAlbums(fetched) }.value
            }
            return fetched
        }
        if now.count >= wanted {
            // The albums already known fill this signal's share: the new recordings are mapped
            // in the background for the next wall.
            Task.detached(priority: .utility) { _ = try? await map() }
            return WallSourceAnswer(items: Array(now.dropFirst(skip)))
        }
        let first = Array(now.dropFirst(skip))
        let shown = Set(first.map(\.releaseGroupID))
        return WallSourceAnswer(items: first) {
            // In recommendation order: the known albums before the page are still skipped.
            let all = items(known.merging(try await map()) { a, _ in a })
            return Array(all.dropFirst(skip)).filter { !shown.contains($0.releaseGroupID) }
        }
    }
}

// MARK: - Popular Charts

/// Sitewide top release groups: this week, then this month, this year and all time for "more".
public struct PopularChartsSource: WallSource {
    public let signal = WallSignal.popularCharts
    let listenBrainz: ListenBrainzClient
    let coverArt: URL
    static let ranges = ["this_week", "this_month", "this_year", "all_time"]

    public init(listenBrainz: ListenBrainzClient, coverArt: URL) {
        self.listenBrainz = listenBrainz
        self.coverArt = coverArt
    }

    public func albums(_ request: WallSourceRequest) async throws -> [WallItem] {
        let range = Self.ranges[min(request.page, Self.ranges.count - 1)]
        let offset = request.page >= Self.ranges.count ? (request.page - Self.ranges.count + 1) * request.count : 0
        let groups = try await listenBrainz.sitewideTopReleaseGroups(range: range, count: min(1000, request.count + 20), offset: offset)
        return uniqueByReleaseGroup(groups.map { $0.wallItem(signal, coverArt: coverArt) })
    }
}

// MARK: - New Releases

/// Releases of the last 30 days: albums and EPs first, newest first within each.
public struct NewReleasesSource: WallSource {
    public let signal = WallSignal.newReleases
    let listenBrainz: ListenBrainzClient
    let coverArt: URL
    let days: Int

    public init(listenBrainz: ListenBrainzClient, coverArt: URL, days: Int = 30) {
        self.listenBrainz = listenBrainz
        self.coverArt = coverArt
        self.days = days
    }

    public func albums(_ request: WallSourceRequest) async throws -> [WallItem] {
        let releases = try await listenBrainz.freshReleases(days: days)
        let ranked = releases.enumerated().sorted { a, b in
            let ra = Self.rank(a.element.primaryType), rb = Self.rank(b.element.primaryType)
            if ra != rb { return ra < rb }
            let da = a.element.releaseDate ?? "", db = b.element.releaseDate ?? ""
            if da != db { return da > db }
            return a.offset < b.offset
        }.map(\.element)
        let items = uniqueByReleaseGroup(ranked.map { $0.wallItem(signal, coverArt: coverArt) })
        return Array(items.dropFirst(request.count * request.page))
    }

    public static func rank(_ type: String?) -> Int {
        switch type?.lowercased() {
        case "album": return 0
        case "ep": return 1
        default: return 2
        }
    }
}

// MARK: - Wild Card

/// A random genre from the genre list (`data/genres.txt`) → MusicBrainz release groups with that
/// tag, at a random offset. At most two MusicBrainz requests (a second only when the offset
/// guessed was past the end), paced like every MusicBrainz request.
public struct WildCardSource: WallSource {
    public let signal = WallSignal.wildCard
    let musicBrainz: MusicBrainzClient
    let genres: [String]
    let coverArt: URL
    let random: @Sendable (Int) -> Int

    public static let fileName = "genres.txt"

    /// - Parameter random: a number in `0..<n` (injectable for tests).
    public init(musicBrainz: MusicBrainzClient, genres: [String], coverArt: URL,
                random: @escaping @Sendable (Int) -> Int = { Int.random(in: 0..<max(1, $0)) }) {
        self.musicBrainz = musicBrainz
        self.genres = genres
        self.coverArt = coverArt
        self.random = random
    }

    /// The genre list: one per line; `#` comments and blank lines skipped.
    public static func genres(environment: [String: String] = ProcessInfo.processInfo.environment) throws -> [String] {
        guard let url = DataFiles.url(for: fileName, environment: environment), let data = FileManager.default.contents(atPath: url.path) else {
            throw WallError.dataFileMissing(fileName)
        }
        let list = String(decoding: data, as: UTF8.self).split(whereSeparator: \.isNewline)
            .map { $0.trimmingCharacters(in: .whitespaces) }
            .filter { !$0.isEmpty && !$0.hasPrefix("#") }
        guard !list.isEmpty else { throw WallError.dataFileInvalid(name: fileName, reason: "it lists no genres") }
        return list
    }

    /// `tag:"<genre>" AND primarytype:album`, the genre quoted and escaped.
    public static func query(genre: String) -> String {
        "tag:\(LuceneQuery.phrase(genre)) AND primarytype:album"
    }

    public func albums(_ request: WallSourceRequest) async throws -> [WallItem] {
        guard !genres.isEmpty else { throw WallError.empty }
        let genre = genres[random(genres.count)]
        let limit = min(100, max(request.count, 10))
        let lucene = Self.query(genre: genre)
        var page = try await musicBrainz.searchReleaseGroups(lucene: lucene, limit: limit, offset: random(200))
        if page.groups.isEmpty, page.count > 0 {
            page = try await musicBrainz.searchReleaseGroups(lucene: lucene, limit: limit, offset: random(max(1, page.count - limit)))
        }
        let items = page.groups
            .filter { $0.secondaryTypes.isEmpty }
            .map { WallItem(signal: signal, releaseGroupID: $0.id, title: $0.title, artist: $0.artist,
                            artURL: CoverArtURL.thumbnail(base: coverArt, releaseGroup: $0.id, caaRelease: nil, caaID: nil)) }
        return uniqueByReleaseGroup(items).shuffled()
    }
}
