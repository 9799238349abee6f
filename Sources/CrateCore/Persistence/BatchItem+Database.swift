import Foundation
import GRDB

extension BatchItem: FetchableRecord, MutablePersistableRecord {
    public static let databaseTableName = "batch_item"

    public enum Columns {
        static let id = Column("id")
        static let path = Column("path")
        static let state = Column("state")
        static let scanID = Column("scanId")
        static let error = Column("error")
        static let attempts = Column("attempts")
        static let addedAt = Column("addedAt")
        static let updatedAt = Column("updatedAt")
    }

    public init(row: Row) throws {
        self.init(
            id: row[Columns.id],
            path: row[Columns.path],
            // An unknown state (from a newer Crate) is left alone rather than rescanned.
            state: BatchItemState(rawValue: row[Columns.state] ?? "") ?? .failed,
            scanID: row[Columns.scanID],
            error: row[Columns.error],
            attempts: row[Columns.attempts],
            addedAt: row[Columns.addedAt],
            updatedAt: row[Columns.updatedAt]
        )
    }

    public func encode(to container: inout PersistenceContainer) throws {
        container[Columns.id] = id
        container[Columns.path] = path
        container[Columns.state] = state.rawValue
        container[Columns.scanID] = scanID
        container[Columns.error] = error
        container[Columns.attempts] = attempts
        container[Columns.addedAt] = addedAt
        container[Columns.updatedAt] = updatedAt
    }

    public mutating func didInsert(_ inserted: InsertionSuccess) {
        id = inserted.rowID
    }
}
