import CrateCore
import CrateTestSupport
import Foundation
import Testing

/// Real MusicBrainz release lookups (collected from public projects' test data, see
/// `Tests/Fixtures/musicbrainz/releases/SOURCES.tsv`), served byte for byte: every fact Crate
/// stores must match what `expected.py` reads from the same files by MusicBrainz's own rules.
@Suite("Release facts")
struct ReleaseFactsTests {
    static let folder = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("Fixtures/musicbrainz/releases")
    static let wrappedID = "00000000-0000-4000-8000-000000000000"

    struct Expected: Decodable {
        struct Medium: Decodable, Equatable {
            let position: Int
            let format: String?
            let title: String?
            let track_count: Int
        }
        let barcode: String?
        let catalog_numbers: [String]
        let labels: [String]
        let country, date, packaging, status: String?
        let media: [Medium]
        /// [disc, position, title]
        let tracks: [[Value]]

        enum Value: Decodable, Equatable {
            case int(Int)
            case text(String)
            init(from decoder: Decoder) throws {
                let c = try decoder.singleValueContainer()
                if let int = try? c.decode(Int.self) { self = .int(int) } else { self = .text(try c.decode(String.self)) }
            }
        }
    }

    static let files: [String] = (try? FileManager.default.contentsOfDirectory(atPath: folder.path))?
        .filter { $0.hasSuffix(".json") && $0 != "expected-facts.json" }.sorted() ?? []

    @Test(arguments: files)
    func storedFactsMatchTheLookup(file: String) async throws {
        let expectedAll = try JSONDecoder().decode([String: Expected].self, from: Data(contentsOf: Self.folder.appendingPathComponent("expected-facts.json")))
        let expected = try #require(expectedAll[file])
        var body = try Data(contentsOf: Self.folder.appendingPathComponent(file))
        var id = (try JSONSerialization.jsonObject(with: body) as? [String: Any])?["id"] as? String
        if id == nil {
            // A medium on its own: served inside a release, its bytes untouched.
            body = Data(#"{"id":"\#(Self.wrappedID)","media":["#.utf8) + body + Data("]}".utf8)
            id = Self.wrappedID
        }
        let releaseID = try #require(id)
        let server = try FixtureServer()
        defer { server.stop() }
        server.route("/ws/2/release/\(releaseID)", responses: [.json(String(decoding: body, as: UTF8.self))])
        let details = try await MusicBrainzClientTests.makeClient(server).release(id: releaseID)

        let db = try AppDatabase.inMemory()
        let entry = try db.saveScan(of: details.album, method: .vision)
        let albumID = try #require(entry.album.id)
        try db.saveReleaseDetails(albumID: albumID, details: details)
        let facts = try #require(try db.releaseFacts(albumID: albumID))

        #expect(facts.releaseID == releaseID)
        #expect(facts.barcode == expected.barcode)
        #expect(facts.catalogNumbers == expected.catalog_numbers)
        #expect(facts.labels == expected.labels)
        #expect(facts.country == expected.country)
        #expect(facts.date == expected.date)
        #expect(facts.packaging == expected.packaging)
        #expect(facts.status == expected.status)
        #expect(facts.media.map { Expected.Medium(position: $0.position, format: $0.format, title: $0.title, track_count: $0.trackCount) } == expected.media)
        // The album's one label is never MusicBrainz's "[no label]".
        #expect(try db.album(id: albumID)?.label == expected.labels.first)
        let tracks = try db.tracks(forAlbum: albumID)
        #expect(tracks.map { [Expected.Value.int($0.disc), .int($0.position), .text($0.title)] } == expected.tracks)
    }

    /// An enhanced CD's data track is not a track; several labels and catalogue numbers are all
    /// kept, in order, without repeats. (The shape of `data-tracks` and of a release with two
    /// labels, as MusicBrainz's medium and release serialisers write them.)
    @Test func dataTracksAreNotTracksAndEveryLabelIsKept() async throws {
        let id = "c9d52105-5c20-3216-bc1d-e54918f8f688"
        let json = """
        {"id":"\(id)","title":"Meteora","status":"Official","barcode":"093624849421","packaging":"Jewel Case","country":"US","date":"2003-03-25",
         "label-info":[{"catalog-number":"48186-2","label":{"id":"c595c289-47ce-4fba-b999-b87503e8cb71","name":"Warner Bros. Records"}},
                       {"catalog-number":"9 48186-2","label":{"id":"50ed6d64-e0d1-4e1b-8e3f-f8a0a7e0e7c9","name":"Machine Shop Recordings"}},
                       {"catalog-number":"48186-2","label":{"id":"c595c289-47ce-4fba-b999-b87503e8cb71","name":"Warner Bros. Records"}},
                       {"catalog-number":null,"label":{"id":"157afde4-4bf5-4039-8ad2-5a15acc85176","name":"[no label]"}}],
         "media":[{"position":1,"format":"Enhanced CD","title":"","track-count":2,"track-offset":0,
                   "tracks":[{"id":"t1","number":"1","position":1,"title":"Foreword","length":13000},
                             {"id":"t2","number":"2","position":2,"title":"Don't Stay","length":187000}],
                   "data-tracks":[{"id":"t3","number":"3","position":3,"title":"[data track]","length":null}]}]}
        """
        let server = try FixtureServer()
        defer { server.stop() }
        server.route("/ws/2/release/\(id)", responses: [.json(json)])
        let details = try await MusicBrainzClientTests.makeClient(server).release(id: id)
        #expect(details.tracks.map(\.title) == ["Foreword", "Don't Stay"])
        #expect(details.facts.labels == ["Warner Bros. Records", "Machine Shop Recordings"])
        #expect(details.facts.catalogNumbers == ["48186-2", "9 48186-2"])
        #expect(details.facts.media == [ReleaseMedium(position: 1, format: "Enhanced CD", title: nil, trackCount: 2)])
        #expect(details.facts.formatSummary == "Enhanced CD")
    }

    /// A lookup without any of the new fields still saves the album; its facts are empty, not
    /// made up, and stay stored so it is not looked up again.
    @Test func aLookupWithoutTheNewFieldsStoresEmptyFacts() async throws {
        let id = "7ec069c0-4424-3169-8ed0-d5e2473e0e84"
        let server = try FixtureServer()
        defer { server.stop() }
        server.route("/ws/2/release/\(id)", responses: [.json(#"{"id":"\#(id)","title":"Rumours"}"#)])
        let details = try await MusicBrainzClientTests.makeClient(server).release(id: id)
        let db = try AppDatabase.inMemory()
        let entry = try db.saveScan(of: details.album, method: .vision)
        let albumID = try #require(entry.album.id)
        try db.saveReleaseDetails(albumID: albumID, details: details)
        #expect(try db.releaseFacts(albumID: albumID) == ReleaseFacts(releaseID: id))
        #expect(try db.albumsAwaitingReleaseFacts(limit: 10).isEmpty)
    }
}
