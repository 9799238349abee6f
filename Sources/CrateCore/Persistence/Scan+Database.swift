import Foundation
import GRDB

extension Scan: FetchableRecord, MutablePersistableRecord {
    public static let databaseTableName = "scan"
    static let album = belongsTo(Album.self)

    public enum Columns {
        static let id = Column("id")
        static let albumID = Column("albumId")
        static let scannedAt = Column("scannedAt")
        static let method = Column("method")
        static let confidence = Column("confidence")
    }

    public init(row: Row) throws {
        self.init(
            id: row[Columns.id],
            albumID: row[Columns.albumID],
            scannedAt: row[Columns.scannedAt],
            method: IdentificationMethod(rawValue: row[Columns.method] ?? "") ?? .manual,
            confidence: row[Columns.confidence]
        )
    }

    public func encode(to container: inout PersistenceContainer) throws {
        container[Columns.id] = id
        container[Columns.albumID] = albumID
        container[Columns.scannedAt] = scannedAt
        container[Columns.method] = method.rawValue
        container[Columns.confidence] = confidence
    }

    public mutating func didInsert(_ inserted: InsertionSuccess) {
        id = inserted.rowID
    }
}
