import Foundation
import GRDB

extension Track: FetchableRecord, MutablePersistableRecord {
    public static let databaseTableName = "track"

    public enum Columns {
        static let id = Column("id")
        static let albumID = Column("albumId")
        static let disc = Column("disc")
        static let position = Column("position")
        static let number = Column("number")
        static let title = Column("title")
        static let durationMs = Column("durationMs")
        static let recordingID = Column("recordingId")
    }

    public init(row: Row) throws {
        self.init(
            id: row[Columns.id],
            albumID: row[Columns.albumID],
            disc: row[Columns.disc],
            position: row[Columns.position],
            number: row[Columns.number],
            title: row[Columns.title],
            durationMs: row[Columns.durationMs],
            recordingID: row[Columns.recordingID]
        )
    }

    public func encode(to container: inout PersistenceContainer) throws {
        container[Columns.id] = id
        container[Columns.albumID] = albumID
        container[Columns.disc] = disc
        container[Columns.position] = position
        container[Columns.number] = number
        container[Columns.title] = title
        container[Columns.durationMs] = durationMs
        container[Columns.recordingID] = recordingID
    }

    public mutating func didInsert(_ inserted: InsertionSuccess) {
        id = inserted.rowID
    }
}
