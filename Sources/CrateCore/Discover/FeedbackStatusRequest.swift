import Foundation
import GRDB

/// The ListenBrainz feedback outbox: counts per state, with the newest unsent row's error.
public struct FeedbackStatusRequest: ReadRequest {
    public init() {}

    public func fetch(_ db: Database) throws -> FeedbackStatus {
        var status = FeedbackStatus()
        for row in try Row.fetchAll(db, sql: "SELECT state, COUNT(*) AS n FROM feedback_outbox GROUP BY state") {
            let n: Int = row["n"]
            switch row["state"] as String {
            case "pending": status.pending = n
            case "sent": status.sent = n
            case "failed": status.failed = n
            default: status.superseded = n
            }
        }
        if let row = try Row.fetchOne(db, sql: "SELECT error, nextAttemptAt FROM feedback_outbox WHERE state IN ('pending', 'failed') AND error IS NOT NULL ORDER BY id DESC LIMIT 1") {
            status.lastError = row["error"]
            let next: Double = row["nextAttemptAt"]
            if next > 0 { status.nextAttemptAt = Date(timeIntervalSince1970: next) }
        }
        return status
    }
}
