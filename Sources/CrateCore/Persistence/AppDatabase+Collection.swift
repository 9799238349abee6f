import Foundation
import GRDB

/// Owned copies and the wantlist. Each intent is one transaction; the undo of each is its
/// opposite (`restoreCopy`, `want`/`unwant` with the old date), so the window can offer Undo.
extension AppDatabase {
    /// Adds a copy of `albumID`. Without a format, the copy takes the release's format when its
    /// facts are known; without a release, the album's. Returns the stored copy.
    @discardableResult
    public func own(albumID: Int64, format: String? = nil, releaseID: String? = nil, note: String? = nil, at date: Date = Date()) throws -> OwnedCopy {
        try checkWritable()
        return try guardedWrite { db in
            guard let album = try Album.fetchOne(db, key: albumID) else { throw CrateError.notFound("The album") }
            let release = releaseID ?? album.musicBrainzReleaseID
            var copy = OwnedCopy(albumID: albumID, format: Self.cleaned(format), releaseID: release, note: Self.cleaned(note), addedAt: date)
            if copy.format == nil, release == album.musicBrainzReleaseID, let facts = try Self.fetchFacts(albumID: albumID, in: db) {
                copy.format = facts.formatSummary
            }
            var row = OwnedCopyRow(copy)
            try row.insert(db)
            copy.id = row.id
            return copy
        }
    }

    /// Removes one copy (the newest when `copyID` is nil) and returns it for Undo; nil when the
    /// album has no copy.
    @discardableResult
    public func unown(albumID: Int64, copyID: Int64? = nil) throws -> OwnedCopy? {
        try checkWritable()
        return try guardedWrite { db in
            let request = OwnedCopyRow.filter(Column("albumId") == albumID)
            let row = try (copyID.map { request.filter(Column("id") == $0) } ?? request.order(Column("id").desc)).fetchOne(db)
            guard let row else { return nil }
            try row.delete(db)
            return row.copy
        }
    }

    /// Puts a removed copy back as it was (Undo), under its old id when that is free.
    public func restoreCopy(_ copy: OwnedCopy) throws {
        try checkWritable()
        try guardedWrite { db in
            guard try Album.exists(db, key: copy.albumID) else { throw CrateError.notFound("The album") }
            var row = OwnedCopyRow(copy)
            if let id = copy.id, try OwnedCopyRow.exists(db, key: id) { row.id = nil }
            try row.insert(db)
        }
    }

    /// Marks the album wanted (keeping an earlier date); returns the date it was wanted before (nil: it was not).
    @discardableResult
    public func want(albumID: Int64, at date: Date = Date()) throws -> Date? {
        try setWanted(albumID: albumID) { $0 ?? date }
    }

    /// Takes the album off the wantlist; returns the date it was wanted (nil: it was not), for Undo.
    @discardableResult
    public func unwant(albumID: Int64) throws -> Date? {
        try setWanted(albumID: albumID) { _ in nil }
    }

    /// Sets the wanted date as it was (Undo of `want`/`unwant`).
    public func restoreWanted(albumID: Int64, wantedAt: Date?) throws {
        _ = try setWanted(albumID: albumID) { _ in wantedAt }
    }

    /// The SQL condition on `album` for `filter` (literal: it takes no arguments).
    static func condition(_ filter: CollectionFilter) -> String {
        switch filter {
        case .seen: return "1"
        case .owned: return "EXISTS (SELECT 1 FROM album_copy c WHERE c.albumId = album.id)"
        case .wanted: return "album.wantedAt IS NOT NULL"
        }
    }

    static func fetchCollectionState(albumID: Int64, in db: Database) throws -> CollectionState {
        let copies = try OwnedCopyRow.filter(Column("albumId") == albumID).order(Column("id")).fetchAll(db).map(\.copy)
        let wanted = try Date.fetchOne(db, sql: "SELECT wantedAt FROM album WHERE id = ?", arguments: [albumID])
        return CollectionState(copies: copies, wantedAt: wanted)
    }

    static func isInCollection(albumID: Int64, in db: Database) throws -> Bool {
        try Bool.fetchOne(db, sql: """
            SELECT EXISTS (SELECT 1 FROM album_copy WHERE albumId = ?) OR EXISTS (SELECT 1 FROM album WHERE id = ? AND wantedAt IS NOT NULL)
            """, arguments: [albumID, albumID]) ?? false
    }

    private func setWanted(albumID: Int64, _ change: @escaping (Date?) -> Date?) throws -> Date? {
        try checkWritable()
        return try guardedWrite { db in
            guard try Album.exists(db, key: albumID) else { throw CrateError.notFound("The album") }
            let before = try Date.fetchOne(db, sql: "SELECT wantedAt FROM album WHERE id = ?", arguments: [albumID])
            try db.execute(sql: "UPDATE album SET wantedAt = ? WHERE id = ?", arguments: [change(before), albumID])
            return before
        }
    }

    private static func cleaned(_ text: String?) -> String? {
        guard let text = text?.trimmingCharacters(in: .whitespacesAndNewlines), !text.isEmpty else { return nil }
        return String(text.prefix(500))
    }
}

/// An `album_copy` row.
struct OwnedCopyRow: Codable, FetchableRecord, MutablePersistableRecord {
    static let databaseTableName = "album_copy"

    var id: Int64?
    var albumId: Int64
    var format: String?
    var releaseId: String?
    var note: String?
    var addedAt: Date

    init(_ copy: OwnedCopy) {
        id = copy.id
        albumId = copy.albumID
        format = copy.format
        releaseId = copy.releaseID
        note = copy.note
        addedAt = copy.addedAt
    }

    var copy: OwnedCopy { OwnedCopy(id: id, albumID: albumId, format: format, releaseID: releaseId, note: note, addedAt: addedAt) }

    mutating func didInsert(_ inserted: InsertionSuccess) { id = inserted.rowID }
}
