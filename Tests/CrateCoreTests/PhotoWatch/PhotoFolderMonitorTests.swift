import CrateTestSupport
import Foundation
import GRDB
import Testing
@testable import CrateCore

/// The window's side of the watched folder: the Preferences store (off by default, a folder
/// first) and the monitor that scans arrivals with one summary per run.
@Suite("Watched photo folder in the window")
@MainActor
struct PhotoFolderMonitorTests {
    private func preferences(_ fixture: PhotoWatchFixture) -> PreferencesStore {
        let environment = AppEnvironment(paths: fixture.temp.paths, variables: ["HOME": fixture.temp.url.path], database: fixture.database)
        return PreferencesStore(environment: environment)
    }

    @Test func watchingIsOffByDefaultAndNeedsAFolder() throws {
        let fixture = try PhotoWatchFixture()
        let store = preferences(fixture).photos
        #expect(store.state.value.isOn == false)
        #expect(store.state.value.folder == nil)
        #expect(store.setOn(true) == false)
        #expect(store.state.value.errorMessage != nil)
        #expect(store.choose(fixture.temp.url.appendingPathComponent("missing").path) == false)
    }

    @Test func choosingAFolderTurnsWatchingOnAndIsSaved() throws {
        let fixture = try PhotoWatchFixture()
        let store = preferences(fixture).photos
        var changes = 0
        store.onChanged = { changes += 1 }
        #expect(store.choose(fixture.folder.path + "/"))
        #expect(store.state.value.isOn)
        #expect(store.state.value.folder == fixture.folder.path)
        #expect(store.setOn(false))
        #expect(changes == 2)
        let saved = try Settings.loadSaved(paths: fixture.temp.paths)
        #expect(saved.photoFolder == fixture.folder.path)
        #expect(saved.watchPhotoFolder == false)
    }

    @Test func arrivalsAreScannedWithOneSummaryPerRun() async throws {
        // Given: watching on, no settle time
        let fixture = try PhotoWatchFixture()
        var settings = Settings()
        settings.photoFolder = fixture.folder.path
        settings.watchPhotoFolder = true
        let database = fixture.database
        let monitor = PhotoFolderMonitor(database: database, settings: { settings }, scanner: { CoverNameScanner(database: database) },
                                         environment: ["CRATE_WATCH_SETTLE_SECONDS": "0"])
        var events: [String] = []
        monitor.onEvent = { events.append($0) }
        var runs: [PhotoFolderRun] = []
        let token = monitor.lastRun.subscribe { if let run = $0 { runs.append(run) } }
        defer { token.cancel(); monitor.stop() }
        // The folder's mark is set now (the monitor's session starts a moment later and keeps it).
        let mark = try fixture.watcher().begin()
        monitor.settingsChanged()
        #expect(monitor.watching.value == fixture.folder.path)
        PhotoWatchFixture.pastTheMark(mark)
        // When: three photos arrive together, one not a cover
        try fixture.write("cover-1.jpg", PhotoWatchFixture.photo("m1"))
        try fixture.write("cover-2.jpg", PhotoWatchFixture.photo("m2"))
        try fixture.write("receipt.jpg", PhotoWatchFixture.photo("m3"))
        // Then: scanned, set aside, and summed up (one run, or more if the kernel split them)
        // (A loaded machine may starve the watch for minutes; the ceiling is not what is tested.)
        let done = await waitUntil(monitor.lastRun, ceiling: .seconds(400)) { runs.reduce(0) { $0 + $1.scanned + $1.setAside } >= 3 }
        #expect(done != nil, "events \(events), problem \(monitor.problem.value ?? "none"), \(Self.diagnosis(fixture, mark: mark))")
        #expect(runs.reduce(0) { $0 + $1.scanned } == 2)
        #expect(runs.reduce(0) { $0 + $1.setAside } == 1)
        #expect(try database.setAsidePhotos().count == 1)
        #expect(events.first == "photo-folder watching \(fixture.folder.path)")
        // Turning it off stops the watch.
        settings.watchPhotoFolder = false
        monitor.settingsChanged()
        #expect(monitor.watching.value == nil)
    }

    /// What the library and the folder say when arrivals were not scanned: the queue's items, the
    /// folder's mark against each file's ctime, and what a fresh pass would take.
    private static func diagnosis(_ fixture: PhotoWatchFixture, mark: Date) -> String {
        let items = (try? fixture.database.reader.read { db in
            try Row.fetchAll(db, sql: "SELECT w.path, b.state, b.attempts FROM watched_photo w LEFT JOIN batch_item b ON b.id = w.batchItemId")
                .map { "\(($0["path"] as String? ?? "").split(separator: "/").last ?? "") \($0["state"] as String? ?? "-") \($0["attempts"] as Int? ?? -1)" }
        }) ?? []
        let stored = (try? fixture.database.reader.read { db in try Double.fetchOne(db, sql: "SELECT mark FROM watched_folder") }) ?? nil
        let files = ((try? FileManager.default.contentsOfDirectory(atPath: fixture.folder.path)) ?? []).sorted().map { name -> String in
            var info = stat()
            _ = stat(fixture.folder.path + "/" + name, &info)
            return "\(name) ctime \(Double(info.st_ctim.tv_sec) + Double(info.st_ctim.tv_nsec) / 1e9)"
        }
        let fresh = (try? fixture.watcher(settle: 0).poll()).map { "fresh pass waiting \($0.waiting)" } ?? "fresh pass failed"
        return "items \(items), mark \(mark.timeIntervalSince1970) stored \(stored ?? -1), files \(files), \(fresh)"
    }

    @Test func theSummarySaysWhatHappened() {
        #expect(PhotoFolderRun(scanned: 3, setAside: 1, folderName: "Camera").text == "3 photos from Camera scanned, 1 set aside")
        #expect(PhotoFolderRun(scanned: 1, folderName: "Camera").text == "1 photo from Camera scanned")
        #expect(PhotoFolderRun(setAside: 2, folderName: "Camera").text == "2 photos from Camera set aside: not covers")
    }
}
