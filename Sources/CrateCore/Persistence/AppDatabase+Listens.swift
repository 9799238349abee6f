import Foundation
import GRDB

/// The listen outbox (docs/decisions/0042-listens-and-the-turntable.md): rows are queued in one
/// insert that ignores a listen already there, claimed in batches with a lease (one process per
/// row, like the feedback outbox), and settled by the owner of the lease only.
extension AppDatabase {
    static func createListenOutbox(_ db: Database) throws {
        try db.create(table: "listen_outbox") { t in
            t.autoIncrementedPrimaryKey("id")
            t.column("service", .text).notNull()
            t.column("identity", .text).notNull()
            // Unix seconds: both services date a listen to the second.
            t.column("listenedAt", .integer).notNull()
            t.column("track", .text).notNull()
            t.column("state", .text).notNull().defaults(to: "pending")
            t.column("attempts", .integer).notNull().defaults(to: 0)
            t.column("nextAttemptAt", .double).notNull().defaults(to: 0)
            t.column("leaseOwner", .text)
            t.column("leaseExpiresAt", .double)
            t.column("error", .text)
            t.column("createdAt", .datetime).notNull()
            t.column("updatedAt", .datetime).notNull()
            t.uniqueKey(["service", "identity", "listenedAt"])
        }
        try db.create(index: "listen_outbox_due", on: "listen_outbox", columns: ["service", "state", "nextAttemptAt"])
    }

    /// Queues one listen for each of `services`; a listen already queued (same service, track and
    /// second) is left alone. Returns how many rows were added.
    @discardableResult
    public func queueListen(_ track: ListenTrack, listenedAt: Date, services: [ListenService], at date: Date = Date()) throws -> Int {
        try checkWritable()
        guard !services.isEmpty else { return 0 }
        let json = String(decoding: try JSONEncoder().encode(track), as: UTF8.self)
        return try guardedWrite { db in
            var added = 0
            for service in services {
                try db.execute(sql: """
                    INSERT OR IGNORE INTO listen_outbox (service, identity, listenedAt, track, createdAt, updatedAt) VALUES (?, ?, ?, ?, ?, ?)
                    """, arguments: [service.rawValue, track.identity, Int(listenedAt.timeIntervalSince1970), json, date, date])
                added += db.changesCount
            }
            return added
        }
    }

    /// Claims up to `limit` due listens of `service`, oldest first, leased to `owner` in ONE
    /// `UPDATE … RETURNING`: two processes never get one row.
    public func claimListens(service: ListenService, limit: Int, owner: BatchLeaseOwner? = nil, leaseDuration: TimeInterval = 120,
                             at date: Date = Date()) throws -> [QueuedListen] {
        try checkWritable()
        let owner = owner ?? leaseOwner
        return try guardedWrite { db in
            let now = date.timeIntervalSince1970
            let rows = try Row.fetchAll(db, sql: """
                UPDATE listen_outbox SET attempts = attempts + 1, leaseOwner = ?, leaseExpiresAt = ?, updatedAt = ?
                WHERE id IN (
                    SELECT id FROM listen_outbox
                    WHERE service = ? AND state = 'pending' AND nextAttemptAt <= ? AND \(Self.leaseIsFree)
                    ORDER BY listenedAt, id LIMIT ?)
                RETURNING *
                """, arguments: [owner.stored, now + leaseDuration, date, service.rawValue, now, now, max(1, limit)])
            return rows.compactMap(Self.queuedListen(from:)).sorted { ($0.listenedAt, $0.id) < ($1.listenedAt, $1.id) }
        }
    }

    /// Settles claimed rows: `sent`, back to pending until `retryAt`, or `failed` for good
    /// (`retryAt` nil). Rows whose lease is no longer `owner`'s are left alone. The send mark is
    /// cleared unless `maybeDelivered` (a request went and its outcome is unknown).
    public func settleListens(ids: [Int64], sent: Bool, error: String? = nil, retryAt: Date? = nil, maybeDelivered: Bool = false,
                              owner: BatchLeaseOwner? = nil, at date: Date = Date()) throws {
        try checkWritable()
        guard !ids.isEmpty else { return }
        let owner = owner ?? leaseOwner
        let state = sent ? "sent" : (retryAt == nil ? "failed" : "pending")
        try guardedWrite { db in
            try db.execute(sql: """
                UPDATE listen_outbox SET state = ?, error = ?, nextAttemptAt = ?, leaseOwner = NULL, leaseExpiresAt = NULL, updatedAt = ?,
                    sendingSince = CASE WHEN ? THEN sendingSince ELSE NULL END
                WHERE leaseOwner = ? AND state = 'pending' AND id IN (\(ids.map { _ in "?" }.joined(separator: ",")))
                """, arguments: StatementArguments([state, sent ? nil : error, retryAt?.timeIntervalSince1970 ?? 0, date, !sent && maybeDelivered,
                                                    owner.stored] as [(any DatabaseValueConvertible)?])
                    + StatementArguments(ids))
        }
    }

    /// Makes every waiting listen due now (`crate listens send`: the user asked).
    public func makeListensDue() throws {
        try checkWritable()
        try guardedWrite { db in
            try db.execute(sql: "UPDATE listen_outbox SET nextAttemptAt = 0 WHERE state = 'pending'")
        }
    }

    /// Queued, sent and failed listens per service, with the newest problem.
    public func listenStatus() throws -> [ListenService: ListenServiceStatus] {
        try reader.read { db in
            var result: [ListenService: ListenServiceStatus] = [:]
            for service in ListenService.allCases { result[service] = ListenServiceStatus() }
            for row in try Row.fetchAll(db, sql: "SELECT service, state, COUNT(*) AS n FROM listen_outbox GROUP BY service, state") {
                guard let service = ListenService(rawValue: row["service"]) else { continue }
                let n: Int = row["n"]
                switch row["state"] as String {
                case "sent": result[service]?.sent = n
                case "failed": result[service]?.failed = n
                default: result[service]?.queued = n
                }
            }
            for service in ListenService.allCases {
                if let row = try Row.fetchOne(db, sql: """
                    SELECT error, nextAttemptAt FROM listen_outbox WHERE service = ? AND state IN ('pending', 'failed') AND error IS NOT NULL
                    ORDER BY updatedAt DESC, id DESC LIMIT 1
                    """, arguments: [service.rawValue]) {
                    result[service]?.lastError = row["error"]
                    let next: Double = row["nextAttemptAt"]
                    if next > 0 { result[service]?.nextAttemptAt = Date(timeIntervalSince1970: next) }
                }
            }
            return result
        }
    }

    /// When the next waiting listen of `services` is due (nil: none waits). A listen leased by
    /// a process counts from its lease's end.
    public func nextListenDue(services: [ListenService]) throws -> Date? {
        guard !services.isEmpty else { return nil }
        return try reader.read { db in
            let marks = Array(repeating: "?", count: services.count).joined(separator: ", ")
            let next = try Double.fetchOne(db, sql: """
                SELECT MIN(MAX(nextAttemptAt, COALESCE(leaseExpiresAt, 0))) FROM listen_outbox
                WHERE state = 'pending' AND service IN (\(marks))
                """, arguments: StatementArguments(services.map(\.rawValue)))
            return next.map { Date(timeIntervalSince1970: $0) }
        }
    }

    private static func queuedListen(from row: Row) -> QueuedListen? {
        guard let service = ListenService(rawValue: row["service"]),
              let track = try? JSONDecoder().decode(ListenTrack.self, from: Data((row["track"] as String).utf8)) else { return nil }
        let seconds: Int64 = row["listenedAt"]
        let mark: Double? = row["sendingSince"]
        return QueuedListen(id: row["id"], service: service, track: track, listenedAt: Date(timeIntervalSince1970: TimeInterval(seconds)), attempts: row["attempts"],
                            sendingSince: mark.map { Date(timeIntervalSince1970: $0) })
    }
}
