import Foundation
import GRDB

/// Paid identifications kept for a day (docs/reliability.md #19): the same photo, sent to the
/// same provider and model, is never paid for twice — not after a kill between the answer and the
/// save, and not when it is scanned again before its artwork (its tier-0 hash) has arrived.
extension AppDatabase {
    /// How long an answer is reused.
    public static let identificationJournalLifetime: TimeInterval = 24 * 3600

    /// Keeps `answer` for the photo whose prepared JPEG has `digest`; drops expired entries.
    public func journalIdentification(_ answer: VisionAnswer, photoDigest digest: String, identity: String, at date: Date = Date()) throws {
        try checkWritable()
        let json = String(decoding: try JSONEncoder().encode(answer), as: UTF8.self)
        try guardedWrite { db in
            try db.execute(sql: "DELETE FROM identification_journal WHERE createdAt < ?",
                           arguments: [date.addingTimeInterval(-Self.identificationJournalLifetime)])
            try db.execute(sql: "INSERT OR REPLACE INTO identification_journal(photoDigest, identity, answer, createdAt) VALUES (?, ?, ?, ?)",
                           arguments: [digest, identity, json, date])
        }
    }

    /// The answer already paid for this photo and identity within the last day, if any. An
    /// unreadable entry counts as none: the photo is identified again.
    public func journaledIdentification(photoDigest digest: String, identity: String, at date: Date = Date()) throws -> VisionAnswer? {
        let json = try reader.read { db in
            try String.fetchOne(db, sql: "SELECT answer FROM identification_journal WHERE photoDigest = ? AND identity = ? AND createdAt >= ?",
                                arguments: [digest, identity, date.addingTimeInterval(-Self.identificationJournalLifetime)])
        }
        guard let json else { return nil }
        return try? JSONDecoder().decode(VisionAnswer.self, from: Data(json.utf8))
    }
}

/// A stable name for the exact bytes of a prepared photo: 64-bit FNV-1a and the length. The same
/// file always prepares to the same bytes; two different photos sharing a name is a 1-in-2^64 event.
public enum PhotoDigest {
    public static func of(_ data: Data) -> String {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in data {
            hash ^= UInt64(byte)
            hash = hash &* 0x0000_0100_0000_01B3
        }
        return "fnv1a64-\(String(hash, radix: 16))-\(data.count)"
    }
}
