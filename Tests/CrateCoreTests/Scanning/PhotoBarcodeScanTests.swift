@testable import CrateCore
import CrateTestSupport
import Foundation
import Testing

/// Every photo scan reads the photo's barcodes (docs/decisions/0036-barcodes-with-zbar.md): one the
/// crate knows answers offline before tier 0; else, after tier 0, MusicBrainz's `barcode:` search
/// names the exact release before any paid vision call; a photo without a usable barcode (none,
/// damaged, a book's) scans as before, and so does every photo when the plugin is missing.
@Suite("Barcodes in photo scans")
struct PhotoBarcodeScanTests {
    static func photo(_ file: String) -> URL { BarcodeReaderTests.fixtures.appendingPathComponent(file) }
    /// 000-clean-small.jpg: one EAN-13.
    static let clean = photo("000-clean-small.jpg"), cleanDigits = "8015716242387"

    /// An album of the crate whose release carries `barcode`.
    @discardableResult
    static func crateAlbum(_ h: PipelineHarness, barcode: String, title: String, owned: Bool = false) throws -> Int64 {
        let id = UUID().uuidString.lowercased()
        let entry = try h.database.saveScan(of: Album(musicBrainzReleaseID: id, title: title, artist: "The Fixtures"), method: .vision,
                                            at: Date(timeIntervalSince1970: 1_000_000))
        let albumID = try #require(entry.album.id)
        try h.database.saveReleaseDetails(albumID: albumID, genres: [], label: nil, year: nil, releaseGroupID: nil, tracks: [],
                                          facts: ReleaseFacts(releaseID: id, barcode: barcode,
                                                              media: [ReleaseMedium(position: 1, format: "12\" Vinyl", title: nil, trackCount: 9)]))
        if owned { try h.database.own(albumID: albumID) }
        return albumID
    }

    /// The barcodes the scan sees in `url`, in the reader's order (from the preparation's luma).
    static func barcodesAsScanned(_ url: URL) throws -> [String] {
        try BarcodeReader().read(ImagePreparer().preparePhoto(at: url, keepingLuma: true)).map(\.digits)
    }

    @Test func thePreparationKeepsTheDecodedPhotosLumaOnlyWhenAsked() throws {
        let preparer = ImagePreparer()
        #expect(try preparer.preparePhoto(at: Self.clean).luma == nil)
        let photo = try preparer.preparePhoto(at: Self.clean, keepingLuma: true)
        let luma = try #require(photo.luma)
        #expect(luma.width == photo.header.scaledWidth && luma.height == photo.header.scaledHeight)
        // The same picture as a separate decode's luma (which rounds and decodes a little differently).
        let grey = GreyPlane(try BarcodeReader.decodePhoto(at: Self.clean))
        try #require(grey.width == luma.width && grey.height == luma.height)
        let difference = zip(grey.pixels, luma.pixels).reduce(0) { $0 + abs(Int($1.0) - Int($1.1)) }
        #expect(Double(difference) / Double(grey.pixels.count) < 2)
        // A 12 MP photo: the DCT-scaled decode, not the full size.
        let big = try preparer.preparePhoto(at: ImageFixtures.url("photos/cover-00-12mp.jpg"), keepingLuma: true)
        #expect(big.luma?.width == big.header.scaledWidth && big.header.scaledWidth < 4000)
    }

    @Test func aPhotoOfAnOwnedRecordsBarcodeScansOfflineToItWithItsVerdict() async throws {
        let h = try PipelineHarness()
        let albumID = try Self.crateAlbum(h, barcode: Self.cleanDigits, title: "Owned", owned: true)
        let result = try await ScanPipeline(database: h.database, paths: h.directory.paths, services: .offline)
            .scan(file: Self.clean) { _ in }
        #expect(result.entry.album.id == albumID)
        #expect(result.entry.scan.method == .barcode)
        #expect(result.entry.scan.confidence == 1)
        #expect(result.verdict?.kind == .owned)
        #expect(result.verdict?.copies.first?.summary == "12\" Vinyl")
        #expect(h.server.requests.isEmpty)
    }

    @Test func aBarcodeNotInTheCrateIsSearchedOnMusicBrainzAndTheVisionProviderIsNotCalled() async throws {
        let h = try PipelineHarness()
        h.serveRumours()
        let vision = CountingIdentifier(.rumours)
        let result = try await h.pipeline(identifier: vision).scan(file: Self.clean) { _ in }
        #expect(vision.calls == 0)
        #expect(result.entry.scan.method == .barcode)
        #expect(result.entry.album.musicBrainzReleaseID != nil)
        #expect(!result.rankedCandidates.isEmpty)
        #expect(result.verdict?.kind == .new)
        let query = try #require(h.server.requests.first { $0.path == "/ws/2/release" }?.queryItem("query"))
        #expect(query == "barcode:\(Self.cleanDigits)")
    }

    @Test func ofSeveralBarcodesTheOneTheCrateKnowsIsChosen() async throws {
        let photo = Self.photo("002-multi-small.jpg")
        let read = try Self.barcodesAsScanned(photo)
        try #require(read.count >= 2, "\(read)")
        let h = try PipelineHarness()
        // The first barcode read is unknown; the second is the crate's.
        let albumID = try Self.crateAlbum(h, barcode: read[1], title: "Second")
        let result = try await h.pipeline(identifier: CountingIdentifier(.rumours)).scan(file: photo) { _ in }
        #expect(result.entry.album.id == albumID)
        #expect(result.entry.scan.method == .barcode)
        #expect(h.server.requests(path: "/ws/2/release").isEmpty, "the crate answered: MusicBrainz not searched")
    }

    @Test func ofSeveralBarcodesMusicBrainzIsAskedUntilOneNamesARelease() async throws {
        let photo = Self.photo("002-multi-small.jpg")
        let read = try Self.barcodesAsScanned(photo)
        try #require(read.count >= 2, "\(read)")
        let h = try PipelineHarness()
        h.serveRumours()
        h.server.route("/ws/2/release", responses: [.json(#"{"count":0,"releases":[]}"#), .json(MusicBrainzFixtures.rumoursSearch)])
        let vision = CountingIdentifier(.rumours)
        let result = try await h.pipeline(identifier: vision).scan(file: photo) { _ in }
        #expect(vision.calls == 0)
        #expect(result.entry.scan.method == .barcode)
        let queries = h.server.requests.filter { $0.path == "/ws/2/release" }.compactMap { $0.queryItem("query") }
        #expect(queries.count == 2)
        #expect(queries.first?.contains(read[0]) == true && queries.last?.contains(read[1]) == true, "\(queries)")
    }

    @Test func aBooksBarcodeFallsThroughToTheVisionProvider() async throws {
        let h = try PipelineHarness()
        h.serveRumours()
        let book = h.directory.url.appendingPathComponent("isbn.jpg")
        try JPEGCodec.encode(BarcodeReaderTests.draw("9780306406157"), quality: 90).write(to: book)
        let vision = CountingIdentifier(.rumours)
        let result = try await h.pipeline(identifier: vision).scan(file: book) { _ in }
        #expect(vision.calls == 1)
        #expect(result.entry.scan.method == .vision)
        #expect(!h.server.requests.contains { $0.queryItem("query")?.contains("barcode:") == true })
    }

    @Test("A damaged barcode or none: the scan goes on to tier 0 and ends as before",
          arguments: ["003-damaged-small.jpg", "008-damaged-small.jpg", "004-none-small.jpg"])
    func damagedOrNone(file: String) async throws {
        let h = try PipelineHarness()
        await #expect(throws: ScanFailure.notIdentified) {
            try await ScanPipeline(database: h.database, paths: h.directory.paths, services: .offline).scan(file: Self.photo(file)) { _ in }
        }
        #expect(try h.database.counts().scans == 0)
    }

    @Test func withoutThePluginPhotosScanAsBefore() async throws {
        let empty = try TemporaryDirectory()
        // The plugin missing, and no reader at all.
        for reader in [BarcodeReader(pluginDirectories: [empty.url.path]), nil] {
            let h = try PipelineHarness()
            h.serveRumours()
            try Self.crateAlbum(h, barcode: Self.cleanDigits, title: "Owned", owned: true)
            let vision = CountingIdentifier(.rumours)
            var services = h.pipeline(identifier: nil).services
            services.identifier = vision
            let result = try await ScanPipeline(database: h.database, paths: h.directory.paths, services: services, barcodeReader: reader)
                .scan(file: Self.clean) { _ in }
            #expect(result.entry.scan.method == .vision)
            #expect(vision.calls == 1)
        }
    }

    @Test func offlineWithABarcodeNotInTheCrateThePhotoWaitsAsAnyOfflineScan() async throws {
        let h = try PipelineHarness()
        let musicBrainz = MusicBrainzClient(http: NoNetwork(), baseURL: h.server.url("/ws/2"), contact: "tests@crate.dev")
        // No vision provider: MusicBrainz was the only way left, and it could not be reached.
        do {
            _ = try await ScanPipeline(database: h.database, paths: h.directory.paths, services: .init(musicBrainz: musicBrainz))
                .scan(file: Self.clean) { _ in }
            Issue.record("the scan should have waited")
        } catch {
            #expect(ScanFailure(error) == .offline(service: "MusicBrainz"))
            #expect(ScanFailure(error).waitsForRetry)
        }
        // With one: the vision tier is tried as before, and it is offline too.
        let vision = ScriptedIdentifier(error: ScanFailure.offline(service: "Anthropic"))
        await #expect(throws: ScanFailure.offline(service: "Anthropic")) {
            try await ScanPipeline(database: h.database, paths: h.directory.paths, services: .init(identifier: vision, musicBrainz: musicBrainz))
                .scan(file: Self.clean) { _ in }
        }
        #expect(try h.database.counts().scans == 0)
    }
}

/// No connection at all: every request fails as libcurl's would with the network away.
private struct NoNetwork: HTTPClient {
    func send(_ request: HTTPRequest) async throws -> HTTPResponse {
        throw HTTPError.cannotConnect("no network (test)")
    }
}
