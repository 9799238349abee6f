import Foundation
import GRDB

/// An album taken out of the crate, with every row tied to it as it was (its scans and their
/// runners-up, tracks, cover hashes, Discogs link, …), so Undo puts back exactly what was there.
/// Favourites and reviews are keyed by MusicBrainz ids, not by the album, and are never removed.
public struct RemovedAlbum: Sendable, Equatable {
    public let albumID: Int64
    public let title: String
    public let artist: String
    /// Rows to insert again, parents first (the album, then the rows referring to it, …).
    let tables: [TableRows]
    /// Columns that the removal set to NULL (`ON DELETE SET NULL`, e.g. a queued photo's scan).
    let nulledReferences: [NulledReference]

    struct TableRows: Sendable, Equatable {
        let table: String
        let columns: [String]
        let rows: [[DatabaseValue]]
    }

    struct NulledReference: Sendable, Equatable {
        let table: String
        let column: String
        let rowID: Int64
        let value: DatabaseValue
    }
}

extension AppDatabase {
    /// Removes an album from the crate in one transaction, with everything that refers to it, and
    /// returns what was removed for `restoreAlbum` (Undo). Nil when the album is already gone
    /// (another process removed it first). The rows to keep are found from the schema's foreign
    /// keys, so a table added later that refers to albums is kept for Undo without a change here.
    @discardableResult
    public func removeAlbum(id albumID: Int64) throws -> RemovedAlbum? {
        try checkWritable()
        return try guardedWrite { db in
            guard let album = try Album.fetchOne(db, key: albumID) else { return nil }
            var tables: [RemovedAlbum.TableRows] = []
            var nulled: [RemovedAlbum.NulledReference] = []
            try Self.snapshot(table: Album.databaseTableName, filter: "id = ?", arguments: [albumID],
                              references: try Self.foreignKeys(in: db), tables: &tables, nulled: &nulled, in: db)
            try Album.deleteOne(db, key: albumID)  // The rest goes with it (ON DELETE CASCADE / SET NULL).
            return RemovedAlbum(albumID: albumID, title: album.title, artist: album.artist, tables: tables, nulledReferences: nulled)
        }
    }

    /// Puts a removed album back as it was, with its original ids (Undo of `removeAlbum`). Doing it
    /// twice (or from two processes) restores it once. Throws `CrateError.alreadyInCrate` when the
    /// same release came back meanwhile as another album (scanned again), changing nothing.
    public func restoreAlbum(_ removed: RemovedAlbum) throws {
        try checkWritable()
        try guardedWrite { db in
            if try Album.exists(db, key: removed.albumID) { return }
            for table in removed.tables {
                let columns = table.columns.map { $0.quotedDatabaseIdentifier }.joined(separator: ", ")
                let marks = Array(repeating: "?", count: table.columns.count).joined(separator: ", ")
                let statement = try db.makeStatement(sql: "INSERT INTO \(table.table.quotedDatabaseIdentifier) (\(columns)) VALUES (\(marks))")
                for row in table.rows {
                    do {
                        try statement.execute(arguments: StatementArguments(row))
                    } catch let error as DatabaseError where error.extendedResultCode == .SQLITE_CONSTRAINT_UNIQUE {
                        throw CrateError.alreadyInCrate(title: removed.title)
                    }
                }
            }
            for reference in removed.nulledReferences {
                try db.execute(sql: "UPDATE \(reference.table.quotedDatabaseIdentifier) SET \(reference.column.quotedDatabaseIdentifier) = ? WHERE rowid = ? AND \(reference.column.quotedDatabaseIdentifier) IS NULL",
                               arguments: [reference.value, reference.rowID])
            }
        }
    }

    /// A foreign key: `table.column` refers to `parent.parentColumn`.
    private struct Reference {
        let table: String
        let column: String
        let parent: String
        let parentColumn: String
        let onDelete: String
    }

    private static func foreignKeys(in db: Database) throws -> [Reference] {
        let tables = try String.fetchAll(db, sql: "SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%' AND sql NOT LIKE 'CREATE VIRTUAL%'")
        var references: [Reference] = []
        for table in tables {
            for row in try Row.fetchAll(db, sql: "SELECT * FROM pragma_foreign_key_list(?)", arguments: [table]) {
                let parent: String = row["table"]
                let to: String? = row["to"]
                let parentColumn = try to ?? (db.primaryKey(parent).columns.first ?? "rowid")
                references.append(Reference(table: table, column: row["from"], parent: parent, parentColumn: parentColumn, onDelete: (row["on_delete"] as String? ?? "").uppercased()))
            }
        }
        return references
    }

    /// Records the rows of `table` matching `filter`, then those of every table whose rows the
    /// deletion of these removes (cascade) or changes (set null), recursively.
    private static func snapshot(table: String, filter: String, arguments: StatementArguments, references: [Reference],
                                 tables: inout [RemovedAlbum.TableRows], nulled: inout [RemovedAlbum.NulledReference], in db: Database) throws {
        let rows = try Row.fetchAll(db, sql: "SELECT * FROM \(table.quotedDatabaseIdentifier) WHERE \(filter)", arguments: arguments)
        guard !rows.isEmpty else { return }
        tables.append(.init(table: table, columns: Array(rows[0].columnNames), rows: rows.map { Array($0.databaseValues) }))
        for reference in references where reference.parent == table {
            let childFilter = "\(reference.column.quotedDatabaseIdentifier) IN (SELECT \(reference.parentColumn.quotedDatabaseIdentifier) FROM \(table.quotedDatabaseIdentifier) WHERE \(filter))"
            switch reference.onDelete {
            case "CASCADE":
                try snapshot(table: reference.table, filter: childFilter, arguments: arguments, references: references,
                             tables: &tables, nulled: &nulled, in: db)
            case "SET NULL":
                let sql = "SELECT rowid, \(reference.column.quotedDatabaseIdentifier) FROM \(reference.table.quotedDatabaseIdentifier) WHERE \(childFilter)"
                for row in try Row.fetchAll(db, sql: sql, arguments: arguments) {
                    nulled.append(.init(table: reference.table, column: reference.column, rowID: row[0], value: row[1] as DatabaseValue))
                }
            default:
                break  // No action / restrict: the delete fails (and rolls back) if such rows exist.
            }
        }
    }
}
