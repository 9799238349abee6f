import Foundation

/// A signal a genre feed was built without, with the reason in plain words.
public struct GenreUnavailable: Equatable, Sendable {
    public var signal: GenreSignal
    public var reason: String

    public init(signal: GenreSignal, reason: String) {
        self.signal = signal
        self.reason = reason
    }
}

/// What the genre bar and the genre feed below it show.
public struct GenreFeedState: Equatable, Sendable {
    public enum Phase: Equatable, Sendable {
        /// No genre chosen: the page shows the wall.
        case idle
        /// The feed is being built (the last one stays shown meanwhile).
        case loading
        case loaded
    }

    /// The super-genres, in the data file's order (empty when the file could not be read).
    public var genres: [Genre] = []
    /// The genre whose feed is shown; nil: the wall.
    public var genre: Genre?
    /// The subcategories toggled on, in the genre's order (none: the whole genre).
    public var selected: [String] = []
    public var phase: Phase = .idle
    public var tiles: [WallTile] = []
    /// Which genre signal gave each tile.
    public var signals: [MBID: GenreSignal] = [:]
    public var unavailable: [GenreUnavailable] = []
    /// A sentence for the user (no results, the taxonomy missing).
    public var message: String?

    public init() {}

    /// The scope the feed is built for.
    public var scope: GenreScope? {
        guard let genre else { return nil }
        return GenreScope(genre: genre, selected: genre.subcategories.filter { selected.contains($0.id) })
    }
}

/// The genre bar's store: choose a genre, toggle its subcategories (their searches run side by
/// side and merge, deduplicated, in the core's `GenreFeedBuilder`), dismiss back to the wall.
/// A feed is built with the dial the caller passes (the wall's), and its covers arrive after it.
@MainActor
public final class GenreFeedStore {
    public static let feedSize = WallService.pageSize

    public let state = ObservableValue(GenreFeedState())
    private let database: AppDatabase
    private var builder: GenreFeedBuilder?
    private var thumbnails: ThumbnailFiles?
    private var generation = 0
    private var dial: CrateDialPosition = .standard
    /// Feeds built in this session, by scope and dial: a genre opened again shows at once, as the
    /// stored wall does, until it is older than `cacheLifetime` or the user refreshes it.
    private var cache: [String: (builtAt: Date, state: GenreFeedState)] = [:]
    public static let cacheLifetime: TimeInterval = 6 * 3600
    private let now: @Sendable () -> Date
    /// The build under way: cancelled by the next choice, so MusicBrainz's one request a second
    /// goes to the feed the user now wants.
    private var building: Task<(GenreFeed, [WallTile]), Never>?

    /// - Parameters:
    ///   - taxonomy: nil when `genres.json` could not be read (the bar shows only "Wall").
    ///   - builder: nil when the feeds cannot be built here; choosing a genre says so.
    public init(database: AppDatabase, taxonomy: GenreTaxonomy?, builder: GenreFeedBuilder?, thumbnails: ThumbnailFiles?,
                now: @escaping @Sendable () -> Date = Date.init) {
        self.database = database
        self.now = now
        self.builder = builder
        self.thumbnails = thumbnails
        state.update { $0.genres = taxonomy?.genres ?? [] }
    }

    /// New services after Preferences saved.
    public func replaceServices(builder: GenreFeedBuilder?, thumbnails: ThumbnailFiles?) {
        self.builder = builder
        self.thumbnails = thumbnails
    }

    /// Shows the genre's feed (every subcategory toggled off).
    public func select(genreID: String, dial: CrateDialPosition) async {
        guard let genre = state.value.genres.first(where: { $0.id == genreID }) else { return }
        state.update {
            $0.genre = genre
            $0.selected = []
            $0.tiles = []
            $0.unavailable = []
            $0.message = nil
        }
        await build(dial: dial)
    }

    /// Toggles a subcategory of the shown genre and builds the feed again for the new choice.
    public func toggle(subcategoryID: String, dial: CrateDialPosition) async {
        guard let genre = state.value.genre, genre.subcategories.contains(where: { $0.id == subcategoryID }) else { return }
        state.update {
            var picked = Set($0.selected)
            if !picked.insert(subcategoryID).inserted { picked.remove(subcategoryID) }
            $0.selected = genre.subcategories.map(\.id).filter(picked.contains)
        }
        await build(dial: dial)
    }

    /// The dial turned: the shown feed is built again for it.
    public func setDial(_ dial: CrateDialPosition) async {
        guard state.value.genre != nil, dial != self.dial else { return }
        await build(dial: dial)
    }

    /// Back to the wall.
    public func dismiss() {
        generation += 1
        building?.cancel()
        building = nil
        state.update {
            $0.genre = nil
            $0.selected = []
            $0.phase = .idle
            $0.tiles = []
            $0.unavailable = []
            $0.message = nil
        }
    }

    /// Builds the feed again for the current scope, whatever was cached (the feed's refresh).
    public func refresh() async {
        guard let scope = state.value.scope else { return }
        cache[Self.cacheKey(scope, dial)] = nil
        await build(dial: dial)
    }

    private static func cacheKey(_ scope: GenreScope, _ dial: CrateDialPosition) -> String {
        "\(scope.genre.id)|\(scope.selected.map(\.id).joined(separator: ","))|\(dial.rawValue)"
    }

    /// Builds the feed for the current scope (or shows the one built for it this session); a
    /// later choice drops this one's answer.
    public func build(dial: CrateDialPosition) async {
        guard let scope = state.value.scope else { return }
        self.dial = dial
        generation += 1
        let current = generation
        let key = Self.cacheKey(scope, dial)
        if let cached = cache[key], now().timeIntervalSince(cached.builtAt) < Self.cacheLifetime {
            building?.cancel()
            building = nil
            // Albums disliked since the feed was built stay off it.
            let database = self.database
            let disliked = await Task.detached { Set(((try? database.read(AlbumRatingsRequest())) ?? [:]).filter { $0.value == .dislike }.map(\.key)) }.value
            guard current == generation else { return }
            state.update {
                $0.phase = .loaded
                $0.tiles = cached.state.tiles.filter { !disliked.contains($0.item.releaseGroupID) }
                $0.signals = cached.state.signals
                $0.unavailable = cached.state.unavailable
                $0.message = cached.state.message
            }
            await fetchArtwork(generation: current)
            return
        }
        guard let builder else {
            state.update {
                $0.phase = .loaded
                $0.tiles = []
                $0.message = L10n.tr("Genre feeds need MusicBrainz, which is turned off in Preferences.")
            }
            return
        }
        // The last feed's problems belong to it: they go while the next one loads.
        state.update {
            $0.phase = .loading
            $0.unavailable = []
            $0.message = nil
        }
        let database = self.database
        let thumbnails = self.thumbnails
        building?.cancel()
        let task = Task.detached(priority: .userInitiated) { () -> (GenreFeed, [WallTile]) in
            let disliked = Set(((try? database.read(AlbumRatingsRequest())) ?? [:]).filter { $0.value == .dislike }.map(\.key))
            let feed = await builder.build(scope, dial: dial, count: Self.feedSize, disliked: disliked)
            let tiles = feed.items.map { entry -> WallTile in
                let path = thumbnails?.cached(entry.item.releaseGroupID)
                return WallTile(item: entry.item, artworkPath: path, artworkStatus: path != nil ? .available : (entry.item.artURL == nil ? .unavailable : .pending))
            }
            return (feed, tiles)
        }
        building = task
        let feed = await task.value
        guard current == generation else { return }
        building = nil
        let unavailable = feed.0.unavailable.sorted { $0.key < $1.key }.map { GenreUnavailable(signal: $0.key, reason: $0.value) }
        state.update {
            $0.phase = .loaded
            $0.tiles = feed.1
            $0.signals = Dictionary(feed.0.items.map { ($0.item.releaseGroupID, $0.signal) }, uniquingKeysWith: { a, _ in a })
            $0.unavailable = unavailable
            // The notes above the feed say why each source is missing (an error, a timeout, no
            // connection): the sentence does not guess that it was the network.
            $0.message = feed.1.isEmpty ? (unavailable.isEmpty ? L10n.tr("Nothing found for %@ yet.", scope.displayTitle) : L10n.tr("No source gave albums for %@.", scope.displayTitle)) : nil
        }
        // Only a feed with albums is kept: a failed one is tried again next time.
        if !feed.1.isEmpty { cache[key] = (now(), state.value) }
        await fetchArtwork(generation: current)
    }

    /// Downloads the missing covers, four at a time, showing each as it arrives.
    private func fetchArtwork(generation current: Int) async {
        guard let thumbnails else { return }
        let wanted = state.value.tiles.filter { $0.artworkStatus == .pending }.map(\.item)
        guard !wanted.isEmpty else { return }
        await withTaskGroup(of: (MBID, String?).self) { group in
            var index = 0
            func next() {
                guard index < wanted.count else { return }
                let item = wanted[index]
                index += 1
                group.addTask { (item.releaseGroupID, await thumbnails.fetch(item.releaseGroupID, from: item.artURL)) }
            }
            for _ in 0..<4 { next() }
            for await (id, path) in group {
                if current == generation {
                    state.update {
                        for i in $0.tiles.indices where $0.tiles[i].item.releaseGroupID == id {
                            $0.tiles[i].artworkPath = path
                            $0.tiles[i].artworkStatus = path == nil ? .failed : .available
                        }
                    }
                    if let scope = state.value.scope, let kept = cache[Self.cacheKey(scope, dial)] {
                        cache[Self.cacheKey(scope, dial)] = (kept.builtAt, state.value)
                    }
                }
                next()
            }
        }
    }
}
