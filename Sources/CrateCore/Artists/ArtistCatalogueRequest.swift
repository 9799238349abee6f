import Foundation
import GRDB

/// The cached catalogue, complete or not; nil if this artist was never fetched.
public struct ArtistCatalogueRequest: ReadRequest {
    public var artistID: MBID

    public init(_ artistID: MBID) {
        self.artistID = artistID
    }

    public func fetch(_ db: Database) throws -> ArtistCatalogue? {
        guard let row = try Row.fetchOne(db, sql: "SELECT * FROM artist_catalogue WHERE artistId = ?", arguments: [artistID.rawValue]) else {
            return nil
        }
        let groups = try Row.fetchAll(db, sql: "SELECT * FROM artist_release_group WHERE artistId = ?", arguments: [artistID.rawValue])
            .compactMap(Self.releaseGroup)
        let fetchedAt: Double? = row["fetchedAt"]
        return ArtistCatalogue(artistID: artistID, name: row["name"], disambiguation: row["disambiguation"], releaseGroups: groups,
                               total: row["total"], isComplete: row["complete"], fetchedAt: fetchedAt.map(Date.init(timeIntervalSince1970:)))
    }

    private static func releaseGroup(_ row: Row) -> ReleaseGroupEntry? {
        guard let id = MBID(validating: row["id"]) else { return nil }
        let secondaryText: String = row["secondaryTypes"] ?? "[]"
        let secondary = (try? JSONDecoder().decode([String].self, from: Data(secondaryText.utf8))) ?? []
        return ReleaseGroupEntry(id: id, title: row["title"], primaryType: row["primaryType"], secondaryTypes: secondary,
                                 firstReleaseDate: row["firstReleaseDate"])
    }
}
