import Foundation
import GRDB

extension AppDatabase {
    /// The verdict for `album` as the collection stood before scan `scanID` (nil: no scan yet,
    /// for a barcode or photo not saved). The album counts together with every other crate album
    /// of its release group (another pressing of the same album), or of its title and artist
    /// when MusicBrainz did not place it in a group.
    public func verdict(for album: Album, excludingScan scanID: Int64? = nil) throws -> Verdict {
        try reader.read { db in try Self.verdict(for: album, excludingScan: scanID, in: db) }
    }

    static func verdict(for album: Album, excludingScan scanID: Int64?, in db: Database) throws -> Verdict {
        let related = try relatedAlbums(of: album, in: db)
        let ids = related.compactMap(\.id)
        let marks = ids.map { _ in "?" }.joined(separator: ",")
        let thisFacts = try album.id.flatMap { try fetchFacts(albumID: $0, in: db) }
        let thisFormat = thisFacts?.formatSummary
        guard !ids.isEmpty else { return Verdict(kind: .new, thisFormat: thisFormat) }

        let copies = try OwnedCopyRow.fetchAll(db, sql: "SELECT * FROM album_copy WHERE albumId IN (\(marks)) ORDER BY id",
                                               arguments: StatementArguments(ids)).map(\.copy)
        if !copies.isEmpty {
            var summaries: [Verdict.Copy] = []
            for copy in copies {
                summaries.append(Verdict.Copy(copy: copy, summary: try summary(of: copy, among: related, in: db)))
            }
            // A copy of unknown release could be this one: only copies all known to be of other
            // releases make it "another pressing".
            let scanned = album.musicBrainzReleaseID
            let other = scanned != nil && copies.allSatisfy { $0.releaseID != nil && $0.releaseID != scanned }
            return Verdict(kind: .owned, copies: summaries, otherPressing: other, thisFormat: thisFormat)
        }
        if try Bool.fetchOne(db, sql: "SELECT EXISTS (SELECT 1 FROM album WHERE id IN (\(marks)) AND wantedAt IS NOT NULL)",
                             arguments: StatementArguments(ids)) == true {
            return Verdict(kind: .wanted, thisFormat: thisFormat)
        }
        var arguments = StatementArguments(ids)
        var excluded = ""
        if let scanID {
            excluded = "AND id <> ?"
            arguments += [scanID]
        }
        let lastScan = try Date.fetchOne(db, sql: "SELECT MAX(scannedAt) FROM scan WHERE albumId IN (\(marks)) \(excluded)", arguments: arguments)
        // An album added without a scan (from the wall, an import) was seen when it was added.
        let thisScanAt = try scanID.flatMap { try Date.fetchOne(db, sql: "SELECT scannedAt FROM scan WHERE id = ?", arguments: [$0]) }
        let added = related.filter { album in
            guard let thisScanAt else { return true }
            return album.createdAt < thisScanAt.addingTimeInterval(-1)
        }.map(\.createdAt).min()
        if let seen = [lastScan, added].compactMap({ $0 }).max() {
            return Verdict(kind: .seen, seenAt: seen, thisFormat: thisFormat)
        }
        return Verdict(kind: .new, thisFormat: thisFormat)
    }

    /// The album and the crate's other pressings of it.
    static func relatedAlbums(of album: Album, in db: Database) throws -> [Album] {
        var clauses: [String] = []
        var arguments: StatementArguments = []
        if let id = album.id { clauses.append("id = ?"); arguments += [id] }
        if let release = album.musicBrainzReleaseID { clauses.append("mbReleaseId = ?"); arguments += [release] }
        if let group = album.musicBrainzReleaseGroupID {
            clauses.append("mbReleaseGroupId = ?")
            arguments += [group]
        } else if !album.title.isEmpty {
            clauses.append("(mbReleaseGroupId IS NULL AND title = ? COLLATE NOCASE AND artist = ? COLLATE NOCASE)")
            arguments += [album.title, album.artist]
        }
        guard !clauses.isEmpty else { return [] }
        return try Album.fetchAll(db, sql: "SELECT * FROM album WHERE \(clauses.joined(separator: " OR ")) ORDER BY id", arguments: arguments)
    }

    /// "12\" Vinyl, 1977, UK": the copy's format, and the year and country of its release when
    /// the crate holds that release's facts.
    static func summary(of copy: OwnedCopy, among albums: [Album], in db: Database) throws -> String {
        var facts: ReleaseFacts?
        if let release = copy.releaseID {
            facts = try ReleaseFactsRow.filter(Column("releaseId") == release && Column("missing") == false).fetchOne(db)?.facts
        }
        let format = copy.format ?? facts?.formatSummary
        let year = facts?.year ?? albums.first { $0.id == copy.albumID }?.year
        return [format, year, facts?.country].compactMap { $0 }.filter { !$0.isEmpty }.joined(separator: ", ")
    }
}
