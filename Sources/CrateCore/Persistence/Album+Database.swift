import Foundation
import GRDB

extension Album: FetchableRecord, MutablePersistableRecord {
    public static let databaseTableName = "album"

    public enum Columns {
        static let id = Column("id")
        static let mbReleaseID = Column("mbReleaseId")
        static let mbReleaseGroupID = Column("mbReleaseGroupId")
        static let title = Column("title")
        static let artist = Column("artist")
        static let artistSortKey = Column("artistSortKey")
        static let year = Column("year")
        static let genres = Column("genres")
        static let label = Column("label")
        static let artworkStatus = Column("artworkStatus")
        static let artworkPath = Column("artworkPath")
        static let thumbnailPath = Column("thumbnailPath")
        static let tracksStatus = Column("tracksStatus")
        static let createdAt = Column("createdAt")
    }

    public init(row: Row) throws {
        self.init(
            id: row[Columns.id],
            musicBrainzReleaseID: row[Columns.mbReleaseID],
            musicBrainzReleaseGroupID: row[Columns.mbReleaseGroupID],
            title: row[Columns.title],
            artist: row[Columns.artist],
            year: row[Columns.year],
            genres: JSONList.decode(row[Columns.genres]),
            label: row[Columns.label],
            artworkStatus: ArtworkStatus(rawValue: row[Columns.artworkStatus] ?? "") ?? .pending,
            artworkPath: row[Columns.artworkPath],
            thumbnailPath: row[Columns.thumbnailPath],
            tracksStatus: TrackListStatus(rawValue: row[Columns.tracksStatus] ?? "") ?? .pending,
            createdAt: row[Columns.createdAt],
            // Keep the stored key: it may have been computed by an older rule.
            artistSortKey: row[Columns.artistSortKey]
        )
    }

    public func encode(to container: inout PersistenceContainer) throws {
        container[Columns.id] = id
        container[Columns.mbReleaseID] = musicBrainzReleaseID
        container[Columns.mbReleaseGroupID] = musicBrainzReleaseGroupID
        container[Columns.title] = title
        container[Columns.artist] = artist
        container[Columns.artistSortKey] = artistSortKey
        container[Columns.year] = year
        container[Columns.genres] = JSONList.encode(genres)
        container[Columns.label] = label
        container[Columns.artworkStatus] = artworkStatus.rawValue
        container[Columns.artworkPath] = artworkPath
        container[Columns.thumbnailPath] = thumbnailPath
        container[Columns.tracksStatus] = tracksStatus.rawValue
        container[Columns.createdAt] = createdAt
    }

    public mutating func didInsert(_ inserted: InsertionSuccess) {
        id = inserted.rowID
    }
}

/// String lists (genres, bullets, key tracks) are stored as JSON text.
enum JSONList {
    static func encode(_ list: [String]) -> String {
        guard let data = try? JSONEncoder().encode(list) else { return "[]" }
        return String(decoding: data, as: UTF8.self)
    }

    /// A damaged list decodes as empty rather than failing the whole row.
    static func decode(_ text: String?) -> [String] {
        // Most albums have no or few genres; the grid loads 100 000 rows, so skip the decoder
        // for the empty list and use JSONSerialization (much faster than JSONDecoder) otherwise.
        guard let text, text != "[]", let data = text.data(using: .utf8) else { return [] }
        return (try? JSONSerialization.jsonObject(with: data)) as? [String] ?? []
    }
}
