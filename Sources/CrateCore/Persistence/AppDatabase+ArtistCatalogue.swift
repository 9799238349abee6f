import Foundation
import GRDB

/// The artist-page cache: one `artist_catalogue` row per artist (name, paging progress) and its
/// `artist_release_group` rows. Each page is saved in its own transaction as it arrives.
extension AppDatabase {
    /// The tables an artist page is read from (for `changes(in:)`).
    public static let artistCatalogueTables: Set<String> = ["artist_catalogue", "artist_release_group"]

    /// Where a fetch of this artist's release groups stands.
    public struct CatalogueProgress: Equatable, Sendable {
        public var total: Int
        /// The browse offset the next page starts at.
        public var nextOffset: Int
        public var isComplete: Bool
        /// When the fetch that is filling the rows began (at offset 0).
        public var runStartedAt: Date
    }

    public func catalogueProgress(_ artistID: MBID) throws -> CatalogueProgress? {
        try reader.read { db in
            try Row.fetchOne(db, sql: "SELECT total, nextOffset, complete, runStartedAt FROM artist_catalogue WHERE artistId = ?",
                             arguments: [artistID.rawValue]).map {
                CatalogueProgress(total: $0["total"], nextOffset: $0["nextOffset"], isComplete: $0["complete"],
                                  runStartedAt: Date(timeIntervalSince1970: $0["runStartedAt"]))
            }
        }
    }

    /// Starts a fetch at offset 0. The rows already cached stay (the page keeps showing them)
    /// until `finishCatalogueFetch` removes those this fetch did not see again.
    public func beginCatalogueFetch(artistID: MBID, name: String?, disambiguation: String?, at start: Date) throws {
        try checkWritable()
        try guardedWrite { db in
            try db.execute(sql: """
                INSERT INTO artist_catalogue (artistId, name, disambiguation, total, nextOffset, complete, runStartedAt)
                VALUES (?, ?, ?, 0, 0, 0, ?)
                ON CONFLICT(artistId) DO UPDATE SET
                    name = COALESCE(excluded.name, name), disambiguation = COALESCE(excluded.disambiguation, disambiguation),
                    nextOffset = 0, complete = 0, runStartedAt = excluded.runStartedAt
                """, arguments: [artistID.rawValue, name, disambiguation, start.timeIntervalSince1970])
        }
    }

    /// Saves one page and moves the fetch on to `nextOffset`, in one transaction: a kill between
    /// pages loses nothing, and a page saved twice (a retried request) updates its rows in place.
    public func saveCataloguePage(artistID: MBID, entries: [ReleaseGroupEntry], artistName: String?, total: Int, nextOffset: Int, at seen: Date) throws {
        try checkWritable()
        try guardedWrite { db in
            for entry in entries {
                let secondary = String(decoding: try JSONEncoder().encode(entry.secondaryTypes), as: UTF8.self)
                try db.execute(sql: """
                    INSERT INTO artist_release_group (artistId, id, title, primaryType, secondaryTypes, firstReleaseDate, seenAt)
                    VALUES (?, ?, ?, ?, ?, ?, ?)
                    ON CONFLICT(artistId, id) DO UPDATE SET
                        title = excluded.title, primaryType = excluded.primaryType, secondaryTypes = excluded.secondaryTypes,
                        firstReleaseDate = excluded.firstReleaseDate, seenAt = excluded.seenAt
                    """, arguments: [artistID.rawValue, entry.id.rawValue, entry.title, entry.primaryType, secondary,
                                     entry.firstReleaseDate, seen.timeIntervalSince1970])
            }
            try db.execute(sql: """
                UPDATE artist_catalogue SET total = ?, nextOffset = MAX(nextOffset, ?), name = COALESCE(name, ?)
                WHERE artistId = ?
                """, arguments: [total, nextOffset, artistName, artistID.rawValue])
        }
    }

    /// Marks the catalogue complete and drops the release groups this fetch did not see (gone
    /// from MusicBrainz, or merged into another).
    public func finishCatalogueFetch(artistID: MBID, runStartedAt: Date, at finished: Date) throws {
        try checkWritable()
        try guardedWrite { db in
            try db.execute(sql: "DELETE FROM artist_release_group WHERE artistId = ? AND seenAt < ?",
                           arguments: [artistID.rawValue, runStartedAt.timeIntervalSince1970])
            try db.execute(sql: "UPDATE artist_catalogue SET complete = 1, fetchedAt = ? WHERE artistId = ?",
                           arguments: [finished.timeIntervalSince1970, artistID.rawValue])
        }
    }

    /// Records the name a search gave (the browse pages may credit nobody, e.g. with 0 albums).
    public func nameCatalogue(artistID: MBID, name: String, disambiguation: String?) throws {
        try checkWritable()
        try guardedWrite { db in
            try db.execute(sql: "UPDATE artist_catalogue SET name = ?, disambiguation = COALESCE(?, disambiguation) WHERE artistId = ?",
                           arguments: [name, disambiguation, artistID.rawValue])
        }
    }
}
