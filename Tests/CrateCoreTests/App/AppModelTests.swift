import CrateTestSupport
import Foundation
import Testing
@testable import CrateCore

@Suite("App model (composition root)")
@MainActor
struct AppModelTests {
    /// Bug: applying new settings rebuilt the scan services but left playback looking up track
    /// lists on the old MusicBrainz server.
    @Test func savedSettingsReachPlaybackTrackLookups() async throws {
        // Given a library whose album has no track list, and settings pointing at a dead server
        let server = try FixtureServer()
        defer { server.stop() }
        let id = MusicBrainzFixtures.rumoursReleaseID
        server.route("/ws/2/release/\(id)", responses: [.json(MusicBrainzFixtures.rumoursLookup)])
        let dir = try TemporaryDirectory()
        var settings = Settings()
        settings.endpoints.musicBrainz = URL(string: "http://127.0.0.1:9/ws/2")!
        try settings.save(paths: dir.paths)
        let database = try AppDatabase.inMemory()
        let albumID = try #require(try database.saveScan(of: .sample(mbid: id), method: .manual).album.id)
        let environment = AppEnvironment(paths: dir.paths, variables: [:], database: database)
        let model = AppModel(environment: environment, player: LogPlayer(clock: ManualPlaybackClock(), log: PlaybackLog(fileURL: nil)))

        // When Preferences saves another MusicBrainz server
        let preferences = model.makePreferences()
        settings.endpoints.musicBrainz = server.url("/ws/2")
        model.apply(settings: settings)
        _ = preferences

        // Then playing the album looks its tracks up there
        await model.playback.play(albumID: albumID)
        #expect(server.requests(path: "/ws/2/release/\(id)").count == 1)
        #expect(try database.tracks(forAlbum: albumID).count > 0)
        #expect(model.services.settings.endpoints.musicBrainz == server.url("/ws/2"))
    }

    @Test func anUnreadableSettingsFileIsReportedAndDefaultsAreUsed() throws {
        let dir = try TemporaryDirectory()
        try FileManager.default.createDirectory(at: dir.paths.configDirectory, withIntermediateDirectories: true)
        try Data("[]".utf8).write(to: dir.paths.settingsURL)
        let environment = AppEnvironment(paths: dir.paths, variables: [:], database: try AppDatabase.inMemory())
        let model = AppModel(environment: environment, player: LogPlayer(clock: ManualPlaybackClock(), log: PlaybackLog(fileURL: nil)))
        #expect(model.settingsProblem?.contains("not valid JSON") == true)
        #expect(model.services.settings == Settings())
    }

    @Test func offlineServicesLeaveNothingToTheNetwork() throws {
        let dir = try TemporaryDirectory()
        let environment = AppEnvironment(paths: dir.paths, variables: ["CRATE_PROVIDER": "anthropic", "ANTHROPIC_API_KEY": "k"], database: try AppDatabase.inMemory())
        let offline = try environment.services(offline: true)
        #expect(offline.provider == nil && offline.musicBrainz == nil && offline.coverArt == nil && offline.reviewer == nil)
        let online = try environment.services()
        #expect(online.provider?.kind == .anthropic && online.identifier != nil && online.reviewGenerator != nil)
    }
}

@Suite("Temporary photos")
@MainActor
struct TemporaryPhotosTests {
    /// Converted and pasted photos used to be deleted by the window's render function; the model
    /// now deletes them once the queue no longer needs them, never while a conversion runs.
    @Test func aConvertedPhotoIsDeletedOnceItsScanIsDone() async throws {
        let dir = try TemporaryDirectory()
        let temporaries = TemporaryPhotos(directory: dir.url.appendingPathComponent("tmp"))
        let environment = AppEnvironment(paths: dir.paths, variables: [:], database: try AppDatabase.inMemory())
        let model = AppModel(environment: environment, player: LogPlayer(clock: ManualPlaybackClock(), log: PlaybackLog(fileURL: nil)),
                             temporaryPhotos: temporaries)
        let photo = try ImageFixtures.data("photos/cover-00-photo-0.jpg")

        try await model.scan(converting: { [try temporaries.write(photo)] })
        let written = try FileManager.default.contentsOfDirectory(atPath: temporaries.directory.path)
        #expect(written.count == 1, "kept while its scan is queued")
        await model.scans.waitUntilIdle()

        // Not identified offline (an empty crate, no provider), but done with: deleted.
        #expect(try FileManager.default.contentsOfDirectory(atPath: temporaries.directory.path).isEmpty)
    }

    @Test func photosStillQueuedAreKept() throws {
        let dir = try TemporaryDirectory()
        let temporaries = TemporaryPhotos(directory: dir.url.appendingPathComponent("tmp"))
        let kept = try temporaries.write(Data([0xFF, 0xD8, 0xFF]))
        let done = try temporaries.write(Data([0xFF, 0xD8, 0xFF]))
        #expect(temporaries.removeAll(except: [kept.path]) == 1)
        #expect(FileManager.default.fileExists(atPath: kept.path))
        #expect(!FileManager.default.fileExists(atPath: done.path))
        var info = stat()
        #expect(stat(temporaries.directory.path, &info) == 0 && info.st_mode & 0o777 == 0o700)
    }
}
