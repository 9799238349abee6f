import Foundation

/// The Crate Wall's work, shared by the window's `WallStore` and `crate wall`: build a wall for a
/// dial, store it (tiles, dial, unavailable signals) in the library, fetch more excluding what
/// is shown, cache its art, and rate albums (favourite / dislike / unrate) with their feedback
/// queued for ListenBrainz when a token is set.
public struct WallService: Sendable {
    public let database: AppDatabase
    public let builder: WallBuilder
    public let artwork: WallArtwork?
    public let feedback: FeedbackSender
    /// Whether ratings are queued for ListenBrainz (a token is set).
    public let sendsFeedback: Bool
    /// The ListenBrainz user the wall is personal for (nil: the user's own crate stands in).
    public let listenBrainzUser: String?

    public init(database: AppDatabase, builder: WallBuilder, artwork: WallArtwork?, feedback: FeedbackSender, sendsFeedback: Bool, listenBrainzUser: String?) {
        self.database = database
        self.builder = builder
        self.artwork = artwork
        self.feedback = feedback
        self.sendsFeedback = sendsFeedback
        self.listenBrainzUser = listenBrainzUser
    }

    /// The standard number of tiles of a wall (and of each "more").
    public static let pageSize = 60

    /// Builds a new wall for `dial` and stores it in place of the last one. When no signal
    /// gave anything (offline, every service down), or only the crate answered and gave less
    /// than half a wall, the stored wall is kept and the built (empty) one is returned with its
    /// reasons.
    ///
    /// The wall is stored as soon as every source's first answer is in (`ready` is then called
    /// with it): the window shows it from there. A source that needs a second round trip
    /// (recommendations mapped to their albums) then fills its places, and the stored wall is
    /// updated in place, unless another refresh or "more" changed it meanwhile. Returns the
    /// finished wall.
    public func refresh(dial: CrateDialPosition, count: Int = pageSize,
                        ready: (@Sendable (BuiltWall) -> Void)? = nil) async throws -> BuiltWall {
        let disliked = try dislikes()
        let draft = await builder.start(dial: dial, count: count, disliked: disliked)
        var wall = draft.ready
        var waiting = draft.isPending
        if wall.items.isEmpty, waiting {
            // Nothing to show before the second round trip: wait for it.
            wall = await draft.complete()
            waiting = false
        }
        if Self.keepsStoredWall(built: wall, wanted: count, stored: try database.read(StoredWallRequest())) {
            // Offline (the crate alone answered): a thin wall would replace a full one.
            wall.items = []
        }
        guard !wall.items.isEmpty else {
            try database.setWallDial(dial)
            ready?(wall)
            return wall
        }
        try database.saveWall(dial: dial, items: wall.items, unavailable: wall.unavailable)
        ready?(wall)
        guard waiting else { return wall }
        let finished = await draft.complete()
        if finished.items != wall.items || finished.unavailable != wall.unavailable {
            try database.replaceWall(expecting: wall.items.map(\.releaseGroupID), with: finished.items, unavailable: finished.unavailable)
        }
        return finished
    }

    /// True when a refresh that reached only part of its sources gave less than half a wall
    /// while the stored wall has more: the network is down or nearly so, and the stored wall
    /// stays (the refresh then reports its unavailable sources, as when nothing answered).
    static func keepsStoredWall(built: BuiltWall, wanted: Int, stored: StoredWall?) -> Bool {
        guard !built.unavailable.isEmpty, built.items.count * 2 < wanted, let stored else { return false }
        return stored.tiles.count > built.items.count
    }

    /// `count` more tiles for the stored wall's dial, none of them already shown; appended.
    public func more(count: Int = pageSize) async throws -> BuiltWall {
        let stored = try database.read(StoredWallRequest()) ?? StoredWall(dial: try database.read(WallDialRequest()))
        let shown = Set(stored.tiles.map(\.item.releaseGroupID))
        let page = max(1, stored.tiles.count / max(1, count))
        // "More" is asked for by scrolling: it waits for every source's whole answer.
        let wall = await builder.build(dial: stored.dial, count: count, excluding: shown, disliked: try dislikes(), page: page)
        if !wall.items.isEmpty {
            try database.saveWall(dial: stored.dial, items: wall.items, unavailable: wall.unavailable, append: true)
        }
        return wall
    }

    /// Caches the stored wall's missing art.
    @discardableResult
    public func fetchArtwork() async -> Int {
        await artwork?.fetchMissing() ?? 0
    }

    /// Hearts, ✕s or clears an album; the change is queued for ListenBrainz when a token is set.
    @discardableResult
    public func rate(_ album: RatedAlbum, _ rating: AlbumRating?) throws -> Bool {
        try database.rate(album, rating, feedback: sendsFeedback)
    }

    /// A wall album's release with its tracks, year and label: the wall's release when it named
    /// one (one MusicBrainz lookup), else an official release of the group (one browse). Nil
    /// offline or when the group lists no release.
    public func details(of item: WallItem) async throws -> ReleaseDetails? {
        guard let musicBrainz = feedback.musicBrainz else { return nil }
        if let release = item.releaseID {
            return try await musicBrainz.release(release)
        }
        return try await musicBrainz.releaseDetails(ofReleaseGroup: item.releaseGroupID)
    }

    /// "Add to Crate": the wall album becomes a crate album without a photo scan, with its tracks
    /// when `details` has them; its art comes from the Cover Art Archive through the repair pass.
    /// An album already in the crate is not added twice. Returns the album's id.
    @discardableResult
    public func addToCrate(_ item: WallItem, details: ReleaseDetails?) throws -> Int64 {
        var album = details?.album ?? Album(musicBrainzReleaseID: item.releaseID?.rawValue, title: item.title, artist: item.artist)
        album.musicBrainzReleaseGroupID = item.releaseGroupID.rawValue
        if album.title.isEmpty { album.title = item.title }
        if album.artist.isEmpty { album.artist = item.artist }
        return try database.addToCrate(album, tracks: details?.tracks ?? [], facts: details?.facts)
    }

    /// Sends the feedback that is due.
    public func sendFeedback() async -> FeedbackRunSummary {
        await feedback.run()
    }

    private func dislikes() throws -> Set<MBID> {
        Set(try database.read(AlbumRatingsRequest()).filter { $0.value == .dislike }.map(\.key))
    }
}

extension AppServices {
    /// The ListenBrainz client for the configured user and token (usable without either for
    /// charts and fresh releases); nil offline.
    public var listenBrainz: ListenBrainzClient? {
        guard musicBrainz != nil else { return nil }
        let token = environment.keys.listenBrainzToken().token
        return .live(settings: settings, user: settings.listenBrainzUser, token: token, transport: environment.transport, limiter: environment.limiter)
    }

    /// Albums by artists similar to the favourites' artists (ListenBrainz labs + MusicBrainz);
    /// nil offline.
    public func favouriteArtistAlbums() -> FavouriteArtistAlbums? {
        guard let musicBrainz else { return nil }
        let http = ResilientHTTPClient(base: environment.transport, policy: .listenBrainz, limiter: environment.limiter)
        let similar = SimilarArtistsClient(http: http, baseURL: settings.endpoints.listenBrainzLabs,
                                           userAgent: "Crate/\(CrateVersion.string) ( \(settings.musicBrainzContact) )")
        return FavouriteArtistAlbums(database: environment.database, similar: similar, musicBrainz: musicBrainz, coverArt: settings.endpoints.coverArtArchive)
    }

    /// The wall's five live sources.
    public func wallSources(listenBrainz: ListenBrainzClient?, genres: [String]) -> [any WallSource] {
        let art = settings.endpoints.coverArtArchive
        var sources: [any WallSource] = [
            ListeningHistorySource(listenBrainz: listenBrainz, database: environment.database, coverArt: art),
            RecommendationsSource(listenBrainz: listenBrainz, database: environment.database, coverArt: art, similarArtists: favouriteArtistAlbums()),
        ]
        if let listenBrainz {
            sources.append(PopularChartsSource(listenBrainz: listenBrainz, coverArt: art))
            sources.append(NewReleasesSource(listenBrainz: listenBrainz, coverArt: art))
        }
        if let musicBrainz {
            sources.append(WildCardSource(musicBrainz: musicBrainz, genres: genres, coverArt: art))
        }
        return sources
    }

    /// The wall's service: the dial's tables and the genre list from the data folder. Each
    /// signal's answers are cut off after `timeout` seconds: 5 unless given, or set by
    /// `CRATE_WALL_TIMEOUT` (a UI test that holds an answer on purpose needs longer).
    public func wallService(timeout: TimeInterval? = nil) throws -> WallService {
        let timeout = timeout ?? environment.variables["CRATE_WALL_TIMEOUT"].flatMap(TimeInterval.init).flatMap { $0 > 0 && $0.isFinite ? $0 : nil } ?? 5
        let table = try CrateDialTable.standard(environment: environment.variables)
        let genres = (try? WildCardSource.genres(environment: environment.variables)) ?? []
        let listenBrainz = self.listenBrainz
        let builder = WallBuilder(sources: wallSources(listenBrainz: listenBrainz, genres: genres), table: table, timeout: timeout)
        let artwork = musicBrainz == nil ? nil : WallArtwork(
            database: environment.database, directory: environment.paths.artworkDirectory,
            http: ResilientHTTPClient(base: environment.transport, policy: .coverArtArchive, limiter: environment.limiter),
            userAgent: "Crate/\(CrateVersion.string) ( \(settings.musicBrainzContact) )")
        let feedback = FeedbackSender(database: environment.database, listenBrainz: listenBrainz, musicBrainz: musicBrainz)
        return WallService(database: environment.database, builder: builder, artwork: artwork, feedback: feedback,
                           sendsFeedback: listenBrainz?.hasToken ?? (environment.keys.listenBrainzToken().token != nil),
                           listenBrainzUser: settings.listenBrainzUser)
    }
}
