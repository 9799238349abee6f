import CrateCore
import Foundation
import Testing

@Suite("crate scan", .tags(.process))
struct ScanCommandTests {
    static let fixtures = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("Fixtures/images")

    /// A crate that knows cover-00 (with its hash), as if it had been scanned before.
    static func seededCLI() throws -> CLIRunner {
        let cli = try CLIRunner()
        let paths = CratePaths(environment: cli.environment)
        let database = try AppDatabase.open(paths: paths)
        let entry = try database.saveScan(of: Album(title: "Rumours", artist: "Fleetwood Mac", year: "1977", artworkStatus: .available), method: .vision)
        let artwork = try ImagePreparer().prepareArtwork(Data(contentsOf: fixtures.appendingPathComponent("covers/cover-00.jpg")))
        try database.saveCoverHash(artwork.hash, forAlbum: entry.album.id!)
        // Tier 0 verifies a hash match against the album's artwork file, so the file must be there.
        try FileManager.default.createDirectory(at: paths.artworkDirectory, withIntermediateDirectories: true)
        try artwork.large.write(to: paths.artworkDirectory.appendingPathComponent("rumours.jpg"))
        try database.setArtwork(albumID: entry.album.id!, status: .available, artworkPath: "rumours.jpg")
        return cli
    }

    private func lines(_ stdout: String) throws -> [[String: Any]] {
        try stdout.split(separator: "\n").map { line in
            try #require(try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])
        }
    }

    @Test func offlineRepeatScanIsIdentifiedLocally() async throws {
        let cli = try Self.seededCLI()
        let photo = Self.fixtures.appendingPathComponent("photos/cover-00-photo-0.jpg").path
        let result = try await cli.run(["scan", "--json", "--offline", photo])
        #expect(result.status == 0, "\(result.stderr)")
        let object = try #require(try lines(result.stdout).first)
        #expect(object["status"] as? String == "identified")
        #expect(object["tier"] as? String == "local")
        #expect((object["album"] as? [String: Any])?["title"] as? String == "Rumours")
        #expect(object["scan_id"] as? Int != nil)
    }

    @Test func exitCodesSayWhatHappened() async throws {
        let cli = try Self.seededCLI()
        let unknown = Self.fixtures.appendingPathComponent("negatives/unknown-00.jpg").path
        let known = Self.fixtures.appendingPathComponent("photos/cover-00-photo-1.jpg").path
        let notIdentified = try await cli.run(["scan", "--json", "--offline", known, unknown])
        #expect(notIdentified.status == 2)
        let objects = try lines(notIdentified.stdout)
        #expect(objects.map { $0["status"] as? String } == ["identified", "not_identified"])
        #expect((objects[1]["error"] as? [String: Any])?["message"] as? String == "Unable to identify this cover art")

        let bad = Self.fixtures.appendingPathComponent("bad-images/not-an-image.jpg").path
        let failed = try await cli.run(["scan", "--json", "--offline", bad, known])
        #expect(failed.status == 1)
        let badObject = try #require(try lines(failed.stdout).first)
        #expect(badObject["status"] as? String == "error")
        #expect((badObject["error"] as? [String: Any])?["code"] as? String == "bad_image")
    }

    @Test(arguments: ["zero-bytes.jpg", "random-bytes.jpg", "truncated.jpg", "corrupt-scan-data.jpg", "bomb-65000x65000.jpg", "cover.png", "cover.gif"])
    func everyBadImageIsAClearErrorNotACrash(_ name: String) async throws {
        let cli = try CLIRunner()
        let result = try await cli.run(["scan", "--offline", Self.fixtures.appendingPathComponent("bad-images/\(name)").path])
        #expect(result.status == 1)
        #expect(result.stdout.contains(name))
        #expect(!result.stdout.contains("Fatal error"))
    }

    @Test(arguments: ["cmyk.jpg", "progressive.jpg", "grayscale.jpg", "one-pixel.jpg", "banner-3000x40.jpg", "real jpeg named .png"])
    func oddButValidJPEGsAreScanned(_ name: String) async throws {
        let cli = try CLIRunner()
        let result = try await cli.run(["scan", "--offline", Self.fixtures.appendingPathComponent("bad-images/\(name)").path])
        #expect(result.status == 2, "decoded, then simply not in the crate: \(result.stdout)")
    }
}
