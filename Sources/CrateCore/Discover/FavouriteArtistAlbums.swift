import Foundation

/// Albums by artists similar to the artists of the user's favourites, for the Recommendations
/// signal: the favourites' artists (stored when rating; the few still unknown found with one
/// batched MusicBrainz search and stored), their similar artists (one ListenBrainz labs request
/// for every seed), then the similar artists' albums (one batched MusicBrainz search). At most
/// two MusicBrainz requests, both through the shared 1 request/second pacing.
public struct FavouriteArtistAlbums: Sendable {
    let database: AppDatabase
    let similar: SimilarArtistsClient
    let musicBrainz: MusicBrainzClient
    let coverArt: URL
    /// Favourites (newest first) whose artists seed the search.
    public static let favouritesUsed = 25
    /// Similar artists whose albums are searched in one request.
    public static let artistsSearched = 20

    public init(database: AppDatabase, similar: SimilarArtistsClient, musicBrainz: MusicBrainzClient, coverArt: URL) {
        self.database = database
        self.similar = similar
        self.musicBrainz = musicBrainz
        self.coverArt = coverArt
    }

    /// Whether there is any favourite to start from (a local read, no request).
    public func hasFavourites() async -> Bool {
        let database = self.database
        return ((try? await Task.detached { try database.read(FavouriteArtistsRequest(limit: 1)) }.value) ?? []).isEmpty == false
    }

    /// Up to `count` albums (release groups of primary type album, no live or compilation),
    /// taking one album of each similar artist in turn, best match first. Favourited and
    /// disliked albums are left out by the wall; the seeds' own albums are not searched.
    public func albums(count: Int) async throws -> [WallItem] {
        let database = self.database
        var favourites = try await Task.detached { try database.read(FavouriteArtistsRequest(limit: Self.favouritesUsed)) }.value
        guard !favourites.isEmpty else { return [] }
        let unknown = favourites.filter { $0.artists == nil }.map(\.releaseGroup)
        if !unknown.isEmpty {
            let query = unknown.map { "rgid:\(LuceneQuery.phrase($0.rawValue))" }.joined(separator: " OR ")
            let page = try await musicBrainz.searchReleaseGroups(lucene: query, limit: min(100, unknown.count))
            var found: [MBID: [MBID]] = [:]
            for id in unknown { found[id] = [] }
            for group in page.groups where found[group.id] != nil { found[group.id] = group.artistIDs }
            let lookedUp = found
            if !database.isReadOnly { try? await Task.detached { try database.setFavouriteArtists(lookedUp) }.value }
            favourites = favourites.map { ($0.releaseGroup, $0.artists ?? found[$0.releaseGroup] ?? []) }
        }
        var seen = Set<MBID>()
        let seeds = favourites.flatMap { $0.artists ?? [] }.filter { seen.insert($0).inserted }
        guard !seeds.isEmpty else { return [] }
        let artists = Array(try await similar.similar(to: seeds).prefix(Self.artistsSearched))
        guard !artists.isEmpty else { return [] }
        let query = "(" + artists.map { "arid:\(LuceneQuery.phrase($0.artistID.rawValue))" }.joined(separator: " OR ") + ") AND primarytype:album"
        let page = try await musicBrainz.searchReleaseGroups(lucene: query, limit: 100)
        // One album per similar artist in turn, in the artists' order.
        var byArtist: [MBID: [ReleaseGroupHit]] = [:]
        for group in page.groups where group.secondaryTypes.isEmpty {
            guard let artist = group.artistIDs.first(where: { id in artists.contains { $0.artistID == id } }) else { continue }
            byArtist[artist, default: []].append(group)
        }
        var items: [WallItem] = []
        var round = 0
        while items.count < count {
            var any = false
            for artist in artists {
                guard let list = byArtist[artist.artistID], round < list.count else { continue }
                any = true
                let group = list[round]
                items.append(WallItem(signal: .recommendations, releaseGroupID: group.id, title: group.title, artist: group.artist,
                                      artURL: CoverArtURL.thumbnail(base: coverArt, releaseGroup: group.id, caaRelease: nil, caaID: nil)))
                if items.count == count { break }
            }
            if !any { break }
            round += 1
        }
        return uniqueByReleaseGroup(items)
    }
}
