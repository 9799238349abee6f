import Foundation
import GRDB

extension UsageRecord: FetchableRecord, MutablePersistableRecord {
    public static let databaseTableName = "usage"

    public enum Columns {
        static let id = Column("id")
        static let at = Column("at")
        static let provider = Column("provider")
        static let model = Column("model")
        static let purpose = Column("purpose")
        static let inputTokens = Column("inputTokens")
        static let outputTokens = Column("outputTokens")
        static let durationMs = Column("durationMs")
        static let success = Column("success")
        static let usedSearch = Column("usedSearch")
        static let errorCode = Column("errorCode")
    }

    public init(row: Row) throws {
        let purposeName: String = row[Columns.purpose]
        self.init(
            id: row[Columns.id],
            at: row[Columns.at],
            provider: row[Columns.provider],
            model: row[Columns.model],
            // An unknown purpose (written by a newer Crate) reads as a review call rather than failing the meter.
            purpose: LLMPurpose(rawValue: purposeName) ?? .review,
            inputTokens: row[Columns.inputTokens],
            outputTokens: row[Columns.outputTokens],
            durationMs: row[Columns.durationMs],
            success: row[Columns.success],
            usedSearch: row[Columns.usedSearch],
            errorCode: row[Columns.errorCode]
        )
    }

    public func encode(to container: inout PersistenceContainer) throws {
        container[Columns.id] = id
        container[Columns.at] = at
        container[Columns.provider] = provider
        container[Columns.model] = model
        container[Columns.purpose] = purpose.rawValue
        container[Columns.inputTokens] = inputTokens
        container[Columns.outputTokens] = outputTokens
        container[Columns.durationMs] = durationMs
        container[Columns.success] = success
        container[Columns.usedSearch] = usedSearch
        container[Columns.errorCode] = errorCode
    }

    public mutating func didInsert(_ inserted: InsertionSuccess) {
        id = inserted.rowID
    }
}
