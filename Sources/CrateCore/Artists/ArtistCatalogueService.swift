import Foundation

/// An artist's albums and EPs: MusicBrainz browse pages (100 a page, every page), saved in the
/// library as they arrive, so a second visit reads SQLite only and works offline.
///
/// A fetch that stops part-way (MusicBrainz still busy after the retry, a long `Retry-After`, a
/// lost connection, a kill) keeps the pages it saved; the next fetch resumes at the first page
/// it is missing, and release groups are keyed by id, so nothing is fetched or listed twice.
public final class ArtistCatalogueService: Sendable {
    private let client: MusicBrainzClient?
    private let database: AppDatabase
    private let now: @Sendable () -> Date
    /// A hard stop on pages per fetch, whatever counts MusicBrainz sends (1 000 pages = 100 000
    /// release groups; the largest real catalogues have a few thousand).
    private let maxPages: Int

    /// - Parameter client: nil when Crate may not go online (`services(offline: true)`): only
    ///   the cache answers then.
    public init(client: MusicBrainzClient?, database: AppDatabase, maxPages: Int = 1000, now: @escaping @Sendable () -> Date = Date.init) {
        self.client = client
        self.database = database
        self.maxPages = maxPages
        self.now = now
    }

    /// Artists with this name, best score first (one request).
    public func search(name: String) async throws -> [ArtistCandidate] {
        guard let client else { throw ArtistCatalogueError.notCached }
        return try await client.searchArtists(name: name)
    }

    /// Which artist `name` means: one, or a choice for the user (never a merge).
    public func resolve(name: String) async throws -> ArtistResolution {
        guard let resolution = ArtistResolution.resolve(name: name, candidates: try await search(name: name)) else {
            throw ArtistCatalogueError.noArtistNamed(name)
        }
        return resolution
    }

    /// The artist of an album already in the cache, without any request: the one cached
    /// catalogue listing the album's release group under this name (or, without a release group,
    /// the one cached catalogue with exactly this name). Nil when none or several match: a search
    /// decides then (never a merge).
    public func cachedArtist(name: String, releaseGroup: MBID?) throws -> ArtistCandidate? {
        let key = MusicText.fold(name)
        if let releaseGroup {
            let listing = try database.read(CachedArtistsRequest(releaseGroup: releaseGroup, name: nil))
            let named = listing.filter { MusicText.fold($0.name) == key }
            if named.count == 1 { return named[0] }
            if named.isEmpty, listing.count == 1 { return listing[0] }
            if !listing.isEmpty { return nil }
        }
        let named = try database.read(CachedArtistsRequest(releaseGroup: nil, name: name))
        return named.count == 1 ? named[0] : nil
    }

    /// The artist an album's release group credits under `name` (one request, no name search):
    /// the credit with that name, else the only credit. Nil when the credits do not say which.
    public func creditedArtist(name: String, releaseGroup: MBID) async throws -> ArtistCandidate? {
        guard let client else { throw ArtistCatalogueError.notCached }
        let credits = try await client.creditedArtists(ofReleaseGroup: releaseGroup)
        let key = MusicText.fold(name)
        let named = credits.filter { MusicText.fold($0.name) == key }
        if named.count == 1 { return named[0] }
        return credits.count == 1 ? credits[0] : nil
    }

    /// The cached catalogue, without any request.
    public func cached(_ artistID: MBID) throws -> ArtistCatalogue? {
        try database.read(ArtistCatalogueRequest(artistID))
    }

    /// The artist's catalogue: from the cache when it is complete (and `refresh` is false),
    /// otherwise fetched, resuming an interrupted fetch. `name` (from a search) names an artist
    /// whose release groups credit nobody under that id.
    ///
    /// Throws the MusicBrainz error that stopped a fetch; the pages before it stay saved.
    public func catalogue(_ artistID: MBID, name: String? = nil, disambiguation: String? = nil, refresh: Bool = false) async throws -> ArtistCatalogue {
        if !refresh, let cached = try database.read(ArtistCatalogueRequest(artistID)), cached.isComplete {
            return cached
        }
        guard let client else { throw ArtistCatalogueError.notCached }
        if database.isReadOnly {
            return try await fetchInMemory(artistID, name: name, disambiguation: disambiguation, client: client)
        }

        var progress = try database.catalogueProgress(artistID)
        if progress == nil || progress?.isComplete == true || refresh {
            let start = now()
            try database.beginCatalogueFetch(artistID: artistID, name: name, disambiguation: disambiguation, at: start)
            progress = AppDatabase.CatalogueProgress(total: 0, nextOffset: 0, isComplete: false, runStartedAt: start)
        } else if let name {
            try database.nameCatalogue(artistID: artistID, name: name, disambiguation: disambiguation)
        }
        guard var progress else { throw ArtistCatalogueError.notCached }

        var pages = 0
        while pages < maxPages {
            try Task.checkCancellation()
            let page = try await client.releaseGroups(artist: artistID, offset: progress.nextOffset)
            pages += 1
            let next = progress.nextOffset + page.received
            try database.saveCataloguePage(artistID: artistID, entries: page.entries, artistName: page.artistName,
                                           total: page.total, nextOffset: next, at: now())
            progress.nextOffset = next
            progress.total = page.total
            // An empty page ends it even if the count promised more: never ask for it forever.
            if page.received == 0 || next >= page.total { break }
        }
        try database.finishCatalogueFetch(artistID: artistID, runStartedAt: progress.runStartedAt, at: now())
        guard let saved = try database.read(ArtistCatalogueRequest(artistID)) else { throw ArtistCatalogueError.notCached }
        return saved
    }

    /// A library Crate may not write (newer version, read-only folder): pages kept in memory.
    private func fetchInMemory(_ artistID: MBID, name: String?, disambiguation: String?, client: MusicBrainzClient) async throws -> ArtistCatalogue {
        var byID: [MBID: ReleaseGroupEntry] = [:]
        var offset = 0
        var total = 0
        var creditedName: String?
        for _ in 0..<maxPages {
            try Task.checkCancellation()
            let page = try await client.releaseGroups(artist: artistID, offset: offset)
            for entry in page.entries where byID[entry.id] == nil { byID[entry.id] = entry }
            creditedName = creditedName ?? page.artistName
            offset += page.received
            total = page.total
            if page.received == 0 || offset >= page.total { break }
        }
        return ArtistCatalogue(artistID: artistID, name: name ?? creditedName, disambiguation: disambiguation,
                               releaseGroups: Array(byID.values), total: total, isComplete: true, fetchedAt: now())
    }
}
