import CrateCore
import CrateTestSupport
import Foundation
import Testing

/// `crate own|unown|want|unwant|collection` and `crate scan --barcode`'s refusals, as a user types them.
@Suite("crate own, want, collection", .tags(.process))
struct CollectionCommandTests {
    @Test func ownWantAndTheCollectionAgree() async throws {
        let cli = try CLIRunner()
        let database = try AppDatabase.open(paths: CratePaths(environment: cli.environment))
        let entry = try database.saveScan(of: Album(title: "Rumours", artist: "Fleetwood Mac", year: "1977"), method: .vision)
        let id = try #require(entry.album.id)

        let own = try await cli.run(["own", "\(id)", "--format", "12\" Vinyl", "--note", "gatefold"])
        #expect(own.status == 0, "\(own.stderr)")
        #expect(try await cli.run(["want", "\(id)"]).status == 0)
        let json = try await cli.run(["collection", "--owned", "--json"])
        #expect(json.status == 0, "\(json.stderr)")
        let object = try #require(try JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [String: Any])
        #expect(object["counts"] as? [String: Int] == ["seen": 1, "owned": 1, "wanted": 1])
        let album = try #require((object["albums"] as? [[String: Any]])?.first)
        #expect(album["owned"] as? Bool == true && album["wanted"] as? Bool == true)
        #expect((album["copies"] as? [[String: Any]])?.first?["format"] as? String == "12\" Vinyl")
        // Release facts unknown: every key still there, empty.
        #expect((album["release"] as? [String: Any])?.keys.sorted() == ["barcode", "catalog_numbers", "country", "date", "labels", "media", "packaging", "status"])

        #expect(try await cli.run(["unown", "\(id)"]).status == 0)
        #expect(try await cli.run(["unwant", "\(id)"]).status == 0)
        #expect(try database.read(CollectionCountsRequest()) == CollectionCounts(seen: 1, owned: 0, wanted: 0))
    }

    @Test func badInputIsAClearErrorAndChangesNothing() async throws {
        let cli = try CLIRunner()
        let database = try AppDatabase.open(paths: CratePaths(environment: cli.environment))
        let entry = try database.saveScan(of: Album(title: "Rumours", artist: "Fleetwood Mac"), method: .vision)
        let id = try #require(entry.album.id)

        for arguments in [["own", "999"], ["want", "abc"], ["own", "\(id)", "--release", "not-an-mbid"], ["unown", "\(id)"]] {
            let result = try await cli.run(arguments)
            #expect(result.status != 0, "\(arguments)")
            #expect(!result.stderr.isEmpty, "\(arguments)")
        }
        let isbn = try await cli.run(["scan", "--barcode", "9780306406157"])
        #expect(isbn.status == 1 && isbn.stderr.contains("ISBN"))
        let checkDigit = try await cli.run(["scan", "--barcode", "075992731310"])
        #expect(checkDigit.status == 1 && checkDigit.stderr.contains("last digit should be 7"))
        #expect(try database.read(CollectionCountsRequest()) == CollectionCounts(seen: 1, owned: 0, wanted: 0))
        #expect(try database.counts().scans == 1)
    }
}
