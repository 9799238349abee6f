import Foundation
import GRDB

extension Review: FetchableRecord, PersistableRecord {
    public static let databaseTableName = "review"

    public enum Columns {
        static let key = Column("key")
        static let summary = Column("summary")
        static let bullets = Column("bullets")
        static let rating = Column("rating")
        static let recommendation = Column("recommendation")
        static let tier = Column("tier")
        static let keyTracks = Column("keyTracks")
        static let provider = Column("provider")
        static let model = Column("model")
        static let promptVersion = Column("promptVersion")
        static let usedSearch = Column("usedSearch")
        static let generatedAt = Column("generatedAt")
    }

    public init(row: Row) throws {
        self.init(
            key: row[Columns.key],
            summary: row[Columns.summary],
            bullets: JSONList.decode(row[Columns.bullets]),
            rating: row[Columns.rating],
            recommendation: row[Columns.recommendation],
            tier: row[Columns.tier],
            keyTracks: JSONList.decode(row[Columns.keyTracks]),
            provider: row[Columns.provider],
            model: row[Columns.model],
            promptVersion: row[Columns.promptVersion],
            usedSearch: row[Columns.usedSearch],
            generatedAt: row[Columns.generatedAt]
        )
    }

    public func encode(to container: inout PersistenceContainer) throws {
        container[Columns.key] = key
        container[Columns.summary] = summary
        container[Columns.bullets] = JSONList.encode(bullets)
        container[Columns.rating] = rating
        container[Columns.recommendation] = recommendation
        container[Columns.tier] = tier
        container[Columns.keyTracks] = JSONList.encode(keyTracks)
        container[Columns.provider] = provider
        container[Columns.model] = model
        container[Columns.promptVersion] = promptVersion
        container[Columns.usedSearch] = usedSearch
        container[Columns.generatedAt] = generatedAt
    }
}
