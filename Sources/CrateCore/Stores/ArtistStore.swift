import Foundation

/// The artist page: find an artist by name (letting the user choose among namesakes) or by id,
/// and show their albums and EPs, oldest first, cached in the library.
///
/// After `start()` the store re-reads the shown artist whenever the cache changes, whoever wrote
/// it (this process's fetch page by page, or `crate artist` in another process).
@MainActor
public final class ArtistStore {
    public static let observedTables = AppDatabase.artistCatalogueTables
    /// A complete catalogue older than this is shown at once and refreshed behind it.
    public static let maxAge: TimeInterval = 7 * 24 * 3600

    public let state = ObservableValue(ArtistPageState())
    private let database: AppDatabase
    private var service: ArtistCatalogueService
    private let now: @Sendable () -> Date
    /// Bumped by every intent that changes the artist, so late answers for another one are dropped.
    private var generation = 0
    /// The shown artist's cached catalogue, read again whenever the cache changes (a fetch's
    /// pages appear as they are saved; another process's fetch appears too).
    private lazy var cache = ObservedQuery<CachedCatalogue>(database: database, tables: Self.observedTables) { [weak self] in
        self?.makeCacheRead()
    } deliver: { [weak self] in
        self?.apply($0)
    }
    /// Cancels the fetch under way, if any.
    private var cancelFetch: (@Sendable () -> Void)?

    public init(database: AppDatabase, service: ArtistCatalogueService, now: @escaping @Sendable () -> Date = Date.init) {
        self.database = database
        self.service = service
        self.now = now
    }

    isolated deinit {
        cancelFetch?()
    }

    /// Follows the cache until `stop()`.
    public func start() {
        cache.start()
    }

    public func stop() {
        cache.stop()
    }

    /// New settings (MusicBrainz address, offline mode): the next fetch uses them.
    public func replaceService(_ service: ArtistCatalogueService) {
        self.service = service
    }

    /// Opens the artist called `name`: at once if one artist has that name, otherwise lists the
    /// namesakes (phase `.choosing`) for `choose(_:)`.
    public func open(name: String) async {
        let name = name.trimmingCharacters(in: .whitespacesAndNewlines)
        guard !name.isEmpty else { return }
        let current = begin()
        var next = ArtistPageState()
        next.phase = .searching
        next.query = name
        state.set(next)
        let service = self.service
        do {
            let resolution = try await Task.detached(priority: .userInitiated) { try await service.resolve(name: name) }.value
            guard current == generation else { return }
            switch resolution {
            case .unique(let artist):
                await show(artist.id, name: artist.name, disambiguation: artist.disambiguation, generation: current)
            case .ambiguous(let candidates):
                state.update {
                    $0.phase = .choosing
                    $0.candidates = candidates
                }
            }
        } catch {
            guard current == generation else { return }
            state.update { $0.phase = .failed(ArtistCatalogueError.message(for: error, artist: name)) }
        }
    }

    /// Opens the artist of an album (its detail pane's artist link): the cached artist whose
    /// catalogue lists the album, at once and offline; otherwise as `open(name:)`.
    public func open(name: String, releaseGroup: MBID?) async {
        let name = name.trimmingCharacters(in: .whitespacesAndNewlines)
        guard !name.isEmpty else { return }
        let service = self.service
        if let known = try? await Task.detached(priority: .userInitiated, operation: { try service.cachedArtist(name: name, releaseGroup: releaseGroup) }).value {
            let current = begin()
            state.update { $0.query = name }
            await show(known.id, name: known.name, disambiguation: known.disambiguation, generation: current)
            return
        }
        // The album knows its release group: its credits name the artist (no search by name,
        // which offered namesakes for an artist Crate already knew).
        if let releaseGroup {
            let current = begin()
            var next = ArtistPageState()
            next.phase = .searching
            next.query = name
            state.set(next)
            // Credits that do not say which artist, or a lookup that failed: the name search
            // decides (and words its own failure as an artist problem).
            let credited = try? await Task.detached(priority: .userInitiated) { try await service.creditedArtist(name: name, releaseGroup: releaseGroup) }.value
            guard current == generation else { return }
            if let credited {
                await show(credited.id, name: credited.name, disambiguation: credited.disambiguation, generation: current)
                return
            }
        }
        await open(name: name)
    }

    /// The user's pick among namesakes.
    public func choose(_ candidate: ArtistCandidate) async {
        let current = begin()
        await show(candidate.id, name: candidate.name, disambiguation: candidate.disambiguation, generation: current)
    }

    /// Opens an artist by MusicBrainz id (`name` is shown until the catalogue has one).
    public func open(artistID: MBID, name: String? = nil) async {
        let current = begin()
        await show(artistID, name: name, disambiguation: nil, generation: current)
    }

    /// Fetches the shown artist again from MusicBrainz.
    public func refresh() async {
        guard let id = state.value.artistID else { return }
        await fetch(id, name: state.value.artistName, disambiguation: nil, refresh: true, generation: generation)
    }

    /// Leaves the page.
    public func close() {
        _ = begin()
        state.set(ArtistPageState())
    }
}

// MARK: - Private

private extension ArtistStore {
    func begin() -> Int {
        generation += 1
        cache.invalidate()
        cancelFetch?()
        cancelFetch = nil
        return generation
    }

    func show(_ artistID: MBID, name: String?, disambiguation: String?, generation current: Int) async {
        state.update {
            $0.phase = .loading
            $0.artistID = artistID
            $0.artistName = name
            $0.candidates = []
            $0.catalogue = nil
            $0.notice = nil
        }
        let service = self.service
        let cached = try? await Task.detached(priority: .userInitiated) { try service.cached(artistID) }.value
        guard current == generation else { return }
        if let cached {
            state.update {
                $0.catalogue = cached
                $0.phase = .loaded
            }
            if cached.isComplete, let fetched = cached.fetchedAt, now().timeIntervalSince(fetched) < Self.maxAge { return }
        }
        await fetch(artistID, name: name, disambiguation: disambiguation, refresh: cached?.isComplete == true, generation: current)
    }

    func fetch(_ artistID: MBID, name: String?, disambiguation: String?, refresh: Bool, generation current: Int) async {
        state.update { $0.isFetching = true }
        let service = self.service
        let task = Task.detached(priority: .userInitiated) {
            try await service.catalogue(artistID, name: name, disambiguation: disambiguation, refresh: refresh)
        }
        cancelFetch = { task.cancel() }
        let result = await task.result
        guard current == generation else { return }
        switch result {
        case .success(let catalogue):
            state.update {
                $0.catalogue = catalogue
                $0.phase = .loaded
                $0.isFetching = false
                $0.notice = nil
            }
        case .failure(let error):
            // The pages saved before the failure are worth showing, with the reason they stop.
            let read = Task.detached(priority: .userInitiated) { try service.cached(artistID) }
            let saved = try? await read.value
            guard current == generation else { return }
            state.update {
                $0.isFetching = false
                if let saved { $0.catalogue = saved }
                if $0.catalogue != nil {
                    $0.phase = .loaded
                    $0.notice = UserMessage.text(for: error)
                } else {
                    $0.phase = .failed(UserMessage.text(for: error))
                }
            }
        }
    }

    typealias CachedCatalogue = (artistID: MBID, catalogue: ArtistCatalogue?)

    func makeCacheRead() -> ObservedQuery<CachedCatalogue>.Read? {
        guard let artistID = state.value.artistID else { return nil }
        let service = self.service
        return { (artistID, try service.cached(artistID)) }
    }

    /// The cache changed: show what it holds now for the current artist (a read that failed
    /// keeps what is shown).
    func apply(_ result: Result<CachedCatalogue, any Error>) {
        guard case .success(let answer) = result, let cached = answer.catalogue, state.value.artistID == answer.artistID else { return }
        guard cached != state.value.catalogue else { return }
        state.update {
            $0.catalogue = cached
            if $0.phase == .loading { $0.phase = .loaded }
        }
    }
}
