import GRDB

/// Cached artists whose catalogue lists this release group, or (without one) whose name is
/// `name` exactly as stored: how an album's artist is found again without a search, offline.
public struct CachedArtistsRequest: ReadRequest {
    public var releaseGroup: MBID?
    public var name: String?

    public init(releaseGroup: MBID?, name: String?) {
        self.releaseGroup = releaseGroup
        self.name = name
    }

    public func fetch(_ db: Database) throws -> [ArtistCandidate] {
        let rows: [Row]
        if let releaseGroup {
            rows = try Row.fetchAll(db, sql: """
                SELECT c.artistId, c.name, c.disambiguation FROM artist_catalogue c
                JOIN artist_release_group g ON g.artistId = c.artistId WHERE g.id = ? ORDER BY c.artistId
                """, arguments: [releaseGroup.rawValue])
        } else if let name {
            rows = try Row.fetchAll(db, sql: "SELECT artistId, name, disambiguation FROM artist_catalogue WHERE name = ? ORDER BY artistId", arguments: [name])
        } else {
            rows = []
        }
        return rows.compactMap { row in
            guard let id = MBID(validating: row["artistId"] as String?), let name: String = row["name"] else { return nil }
            return ArtistCandidate(id: id, name: name, disambiguation: row["disambiguation"], score: 100)
        }
    }
}
