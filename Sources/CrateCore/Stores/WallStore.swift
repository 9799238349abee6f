import Foundation

/// What the Wall page shows.
public struct WallState: Equatable, Sendable {
    public enum Phase: Equatable, Sendable {
        /// Reading the stored wall.
        case loading
        /// Showing the stored (or freshly built) wall.
        case loaded
        /// A new wall is being built; the shown one stays until it is ready.
        case refreshing
    }

    public var phase: Phase = .loading
    public var dial: CrateDialPosition = .standard
    /// The tiles in order, disliked albums left out.
    public var tiles: [WallTile] = []
    public var unavailable: [WallUnavailable] = []
    /// Hearts and ✕s, by release group.
    public var ratings: [MBID: AlbumRating] = [:]
    public var builtAt: Date?
    public var isLoadingMore = false
    /// A sentence for the user (a failed refresh, a rating that could not be saved); cleared by
    /// the next successful intent.
    public var message: String?
    /// The dial's positions with their titles and sentences, for the dial control.
    public var dialEntries: [CrateDialTable.Entry] = []

    public init() {}

    public var isEmpty: Bool { phase != .loading && tiles.isEmpty }
}

/// The Crate Wall's store: the stored wall at once (offline too), a refresh in the background,
/// the dial, "more", and hearts and ✕s. Widgets read `state` and call the intents.
///
/// After `start()` it reloads itself whenever the wall or the ratings change, whoever wrote
/// them (a `crate wall` or `crate dislike` in a terminal shows up in the window).
@MainActor
public final class WallStore {
    public let state = ObservableValue(WallState())
    private let database: AppDatabase
    private var service: WallService?
    /// The stored wall, the ratings and the dial, read again after every change.
    private lazy var query = ObservedQuery<Answer>(database: database, tables: AppDatabase.wallTables) { [weak self] in
        self?.makeRead()
    } deliver: { [weak self] in
        self?.apply($0)
    }
    private var refreshTask: Task<Void, Never>?

    /// - Parameter service: nil when the wall cannot be built here (no data files); the stored
    ///   wall is still shown.
    public init(database: AppDatabase, service: WallService?, table: CrateDialTable? = nil) {
        self.database = database
        self.service = service
        if let table = table ?? service?.builder.table {
            state.update { $0.dialEntries = table.entries }
        }
    }

    /// Shows the stored wall and follows the library from then on. The stored wall is read
    /// here, on the caller's thread (one small read: the wall's rows and the ratings, a few
    /// milliseconds), so a window that starts the store before it is first shown draws the wall
    /// in its first frame instead of filling it after mapping.
    public func start() {
        if state.value.phase == .loading, let stored = try? database.read(StoredWallRequest()), let ratings = try? database.read(AlbumRatingsRequest()) {
            apply(stored: stored, ratings: ratings, dial: stored.dial)
        }
        query.start()
    }

    public func stop() {
        query.stop()
    }

    /// New services after Preferences saved (a new ListenBrainz user or token).
    public func replaceService(_ service: WallService?) {
        self.service = service
        if let table = service?.builder.table { state.update { $0.dialEntries = table.entries } }
    }

    /// Reads the stored wall and the ratings (off the main thread).
    public func loadCached() async {
        await query.refresh()
    }

    private typealias Answer = (stored: StoredWall?, ratings: [MBID: AlbumRating], dial: CrateDialPosition)

    private func makeRead() -> ObservedQuery<Answer>.Read {
        let database = self.database
        return { try database.read { db in (try StoredWallRequest().fetch(db), try AlbumRatingsRequest().fetch(db), try WallDialRequest().fetch(db)) } }
    }

    private func apply(_ result: Result<Answer, any Error>) {
        switch result {
        case .success(let answer):
            apply(stored: answer.stored, ratings: answer.ratings, dial: answer.dial)
        case .failure(let error):
            state.update {
                $0.phase = .loaded
                $0.message = UserMessage.text(for: error)
            }
        }
    }

    private func apply(stored: StoredWall?, ratings: [MBID: AlbumRating], dial: CrateDialPosition) {
        var next = state.value
        next.ratings = ratings
        next.dial = stored?.dial ?? dial
        next.tiles = (stored?.tiles ?? []).filter { ratings[$0.item.releaseGroupID] != .dislike }
        next.unavailable = stored?.unavailable ?? []
        next.builtAt = stored?.builtAt
        if next.phase == .loading { next.phase = .loaded }
        if next != state.value { state.set(next) }
    }

    /// Builds a new wall for the current dial. The shown wall stays until the new one is stored;
    /// if nothing could be reached it stays for good, and `unavailable` says why.
    public func refresh() async {
        guard let service else { return }
        let dial = state.value.dial
        state.update { $0.phase = .refreshing }
        do {
            let built = try await Task.detached(priority: .userInitiated) { try await service.refresh(dial: dial) }.value
            await loadCached()
            state.update {
                $0.phase = .loaded
                $0.message = built.items.isEmpty ? L10n.tr("No source could be reached, so this is the last wall that was built.") : nil
                if built.items.isEmpty { $0.unavailable = built.unavailable }
            }
            Task.detached(priority: .utility) {
                await service.fetchArtwork()
                _ = await service.sendFeedback()
            }
        } catch {
            state.update {
                $0.phase = .loaded
                $0.message = UserMessage.text(for: error)
            }
        }
    }

    /// Starts `refresh()` unless one is under way (the window calls this after launch).
    public func refreshInBackground() {
        guard refreshTask == nil else { return }
        refreshTask = Task { [weak self] in
            await self?.refresh()
            self?.refreshTask = nil
        }
    }

    /// Turns the dial: remembered, and the wall is built again for it.
    public func setDial(_ dial: CrateDialPosition) async {
        guard dial != state.value.dial || state.value.tiles.isEmpty else { return }
        state.update { $0.dial = dial }
        let database = self.database
        do {
            try await Task.detached { try database.setWallDial(dial) }.value
        } catch {
            state.update { $0.message = UserMessage.text(for: error) }
        }
        await refresh()
    }

    /// Appends more tiles (infinite scroll), none already shown.
    public func more() async {
        guard let service, !state.value.isLoadingMore else { return }
        state.update { $0.isLoadingMore = true }
        defer { state.update { $0.isLoadingMore = false } }
        do {
            _ = try await Task.detached(priority: .userInitiated) { try await service.more() }.value
            await loadCached()
            Task.detached(priority: .utility) { await service.fetchArtwork() }
        } catch {
            state.update { $0.message = UserMessage.text(for: error) }
        }
    }

    public func favourite(_ album: RatedAlbum) async { await rate(album, .favourite) }
    public func dislike(_ album: RatedAlbum) async { await rate(album, .dislike) }
    public func unrate(_ album: RatedAlbum) async { await rate(album, nil) }

    /// The tile's album, for the rating intents.
    public static func album(of tile: WallTile) -> RatedAlbum {
        RatedAlbum(releaseGroupID: tile.item.releaseGroupID, title: tile.item.title, artist: tile.item.artist, releaseID: tile.item.releaseID)
    }

    private func rate(_ album: RatedAlbum, _ rating: AlbumRating?) async {
        let database = self.database
        let sendsFeedback = service?.sendsFeedback ?? false
        // Shown at once; the reload after the write confirms it.
        state.update {
            $0.ratings[album.releaseGroupID] = rating
            if rating == .dislike { $0.tiles.removeAll { $0.item.releaseGroupID == album.releaseGroupID } }
        }
        do {
            _ = try await Task.detached { try database.rate(album, rating, feedback: sendsFeedback) }.value
            state.update { $0.message = nil }
        } catch {
            state.update { $0.message = UserMessage.text(for: error) }
            await loadCached()
            return
        }
        if let service, sendsFeedback {
            Task.detached(priority: .utility) { _ = await service.sendFeedback() }
        }
    }
}
