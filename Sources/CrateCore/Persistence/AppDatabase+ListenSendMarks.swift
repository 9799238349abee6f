import Foundation
import GRDB

/// The send mark of the listen outbox (docs/decisions/0042-listens-and-the-turntable.md): set on a
/// leased batch just before a request that may deliver it, cleared when the answer says what
/// happened. A mark left by a killed process, a lost answer or a 5xx means "maybe delivered":
/// Last.fm, which counts a repeat, is asked before the batch goes again.
extension AppDatabase {
    static func addListenSendMarks(_ db: Database) throws {
        try db.alter(table: "listen_outbox") { t in
            // Unix seconds; NULL when no request of unknown outcome carried the listen.
            t.add(column: "sendingSince", .double)
        }
    }

    /// Marks the rows of a claimed batch as on their way. Returns false (and marks nothing) when
    /// any of them is no longer leased to `owner`: that batch must not be sent.
    public func markListensSending(ids: [Int64], owner: BatchLeaseOwner? = nil, at date: Date = Date()) throws -> Bool {
        try checkWritable()
        guard !ids.isEmpty else { return true }
        let owner = owner ?? leaseOwner
        return try guardedWrite { db in
            let marks = ids.map { _ in "?" }.joined(separator: ",")
            let owned = try Int.fetchOne(db, sql: """
                SELECT COUNT(*) FROM listen_outbox WHERE leaseOwner = ? AND state = 'pending' AND id IN (\(marks))
                """, arguments: [owner.stored] + StatementArguments(ids)) ?? 0
            guard owned == ids.count else { return false }
            try db.execute(sql: "UPDATE listen_outbox SET sendingSince = ?, updatedAt = ? WHERE id IN (\(marks))",
                           arguments: [date.timeIntervalSince1970, date] + StatementArguments(ids))
            return true
        }
    }
}
