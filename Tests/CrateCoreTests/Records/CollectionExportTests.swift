@testable import CrateCore
import CrateTestSupport
import Foundation
import GRDB
import Testing

/// `crate export`: every owned copy and every wanted album as CSV; Discogs' columns for copies
/// whose Discogs release is known; written whole or not at all.
@Suite("Collection export")
struct CollectionExportTests {
    private func library() throws -> (TemporaryDirectory, AppDatabase, vinyl: Int64, wanted: Int64) {
        let directory = try TemporaryDirectory()
        let db = try AppDatabase.open(paths: directory.paths)
        let rumours = try db.saveScan(of: Album(musicBrainzReleaseID: "7ec069c0-4424-3169-8ed0-d5e2473e0e84", title: "Rumours", artist: "Fleetwood Mac", year: "1977"),
                                      method: .vision).album.id!
        try db.saveReleaseDetails(albumID: rumours, genres: [], label: nil, year: nil, releaseGroupID: nil, tracks: [],
                                  facts: ReleaseFacts(releaseID: "7ec069c0-4424-3169-8ed0-d5e2473e0e84", barcode: "075992731317", catalogNumbers: ["K 56344"],
                                                      labels: ["Warner Bros. Records"], media: [ReleaseMedium(position: 1, format: "12\" Vinyl", title: nil, trackCount: 11)]))
        try db.own(albumID: rumours, note: "gatefold, \"ex\"\nsecond line")
        try db.own(albumID: rumours, format: "CD", note: "=HYPERLINK(\"x\")")
        let wanted = try db.saveScan(of: Album(title: "Tusk", artist: "Fleetwood Mac"), method: .vision).album.id!
        _ = try db.want(albumID: wanted)
        try db.writer.write { db in
            try db.execute(sql: "INSERT INTO discogs_link(albumId, status, releaseId, checkedAt) VALUES (?, 'linked', 1234, ?)", arguments: [rumours, Date()])
        }
        return (directory, db, rumours, wanted)
    }

    @Test func everyOwnedCopyAndEveryWantedAlbumIsARow() throws {
        let (_, db, _, _) = try library()
        let rows = try db.reader.read { try CollectionExport.rows(in: $0) }
        #expect(rows.map(\.state) == [.owned, .owned, .wanted])
        #expect(rows[0].format == "12\" Vinyl" && rows[0].catalogNumber == "K 56344" && rows[0].barcode == "075992731317")
        #expect(rows[0].discogsReleaseID == 1234 && rows[0].label == "Warner Bros. Records")
        #expect(rows[1].format == "CD")
        #expect(rows[2].title == "Tusk" && rows[2].musicBrainzReleaseID == nil)
    }

    @Test func fieldsAreQuotedAndNeverFormulas() throws {
        let (_, db, _, _) = try library()
        let text = CollectionExport.csv(try db.reader.read { try CollectionExport.rows(in: $0) })
        let lines = text.components(separatedBy: "\r\n")
        #expect(lines[0] == CollectionExport.header.joined(separator: ","))
        #expect(text.contains("\"gatefold, \"\"ex\"\"\nsecond line\""))
        #expect(text.contains("\"'=HYPERLINK(\"\"x\"\")\""))
        #expect(!text.contains(",=HYPERLINK"))
        #expect(!text.lowercased().contains("price"))
    }

    @Test func discogsColumnsForCopiesWithADiscogsRelease() throws {
        let (_, db, _, _) = try library()
        let rows = try db.reader.read { try CollectionExport.rows(in: $0) }
        let (text, written, skipped) = CollectionExport.discogsCSV(rows)
        #expect(written == 2 && skipped == 0)
        let lines = text.components(separatedBy: "\r\n").filter { !$0.isEmpty }
        #expect(lines[0] == "Catalog#,Artist,Title,Label,Format,Rating,Released,release_id,CollectionFolder,Date Added,Collection Media Condition,Collection Sleeve Condition,Collection Notes")
        #expect(lines[1].hasPrefix("K 56344,Fleetwood Mac,Rumours,Warner Bros. Records,LP,,1977,1234,Uncategorized,"))
        #expect(CollectionExport.discogsFormat("2×12\" Vinyl + CD") == "2xLP, CD")
    }

    @Test func theFileIsWrittenWholeOrNotAtAll() throws {
        let directory = try TemporaryDirectory()
        let file = directory.url.appendingPathComponent("crate.csv")
        try "old".write(to: file, atomically: true, encoding: .utf8)
        try CollectionExport.write("new\r\n", to: file)
        #expect(try String(contentsOf: file, encoding: .utf8) == "new\r\n")
        #expect(try FileManager.default.contentsOfDirectory(atPath: directory.url.path) == ["crate.csv"])
        #expect(throws: CrateError.self) { try CollectionExport.write("x", to: URL(fileURLWithPath: "/nonexistent/dir/crate.csv")) }
    }
}
