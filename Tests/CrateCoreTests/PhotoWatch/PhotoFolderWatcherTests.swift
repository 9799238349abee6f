import Foundation
import GRDB
import Testing
@testable import CrateCore

/// docs/reliability.md #47: photos arriving in a watched folder are scanned once each, never
/// read while partial, and survive a kill in the queue.
@Suite("Watched photo folder")
struct PhotoFolderWatcherTests {
    @Test func sha256MatchesTheStandardVectors() {
        #expect(ContentHash.sha256(of: Data()) == "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855")
        #expect(ContentHash.sha256(of: Data("abc".utf8)) == "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad")
        let long = Data("abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq".utf8)
        #expect(ContentHash.sha256(of: long) == "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1")
        #expect(ContentHash.sha256(of: Data(repeating: 0x61, count: 1_000_000))
            == "cdc76e5c9914fb9281a1c7e284d73e67f1809a48a497200e046d39ccc7112cd0")
    }

    @Test(arguments: [
        ".syncthing.IMG_1.jpg.tmp", "~syncthing~IMG_1.jpg.tmp", ".~lock.IMG_1.jpg#", "IMG_1.jpg.part", ".IMG_1.jpg.part",
        ".hidden.jpg", "IMG_1.heic", "notes.txt", "IMG_1.jpg~", "IMG_1", "IMG_1.jpg.crdownload",
    ])
    func temporaryAndOtherNamesAreNeverPhotos(name: String) {
        #expect(!PhotoArrivalRules.accepts(name))
    }

    @Test func finishedJPEGNamesArePhotos() {
        for name in ["IMG_20240501_101010.jpg", "PXL_1.JPG", "photo.jpeg"] { #expect(PhotoArrivalRules.accepts(name)) }
    }

    @Test func aGrowingFileIsNotReadUntilItsSizeStaysTheSameForTheSettleTime() throws {
        // Given: a watch, and a photo that arrives in pieces
        let fixture = try PhotoWatchFixture()
        let watcher = fixture.watcher(settle: 3)
        PhotoWatchFixture.pastTheMark(try watcher.begin())
        let whole = PhotoWatchFixture.photo("growing", size: 9000)
        try fixture.write("cover-1.jpg", whole.prefix(3000))
        // When: each look finds it bigger, though the settle time has passed between looks
        for end in [6000, whole.count] {
            #expect(try watcher.poll() == PhotoWatchPass(waiting: 1))
            fixture.advance(5)
            try fixture.write("cover-1.jpg", whole.prefix(end))
        }
        // Then: it is taken only once unchanged for the settle time, with all its bytes
        #expect(try watcher.poll() == PhotoWatchPass(waiting: 1))
        fixture.advance(2)
        #expect(try watcher.poll() == PhotoWatchPass(waiting: 1), "2 s of 3: still settling")
        fixture.advance(1)
        let pass = try watcher.poll()
        #expect(pass.arrivals.map(\.hash) == [ContentHash.sha256(of: whole)])
        #expect(try fixture.database.batchCounts().pending == 1)
        #expect(try watcher.poll() == PhotoWatchPass(), "taken once")
    }

    @Test func temporarySyncNamesAreIgnoredAndTheRenamedFileIsTaken() throws {
        let fixture = try PhotoWatchFixture()
        let watcher = fixture.watcher(settle: 1)
        PhotoWatchFixture.pastTheMark(try watcher.begin())
        let bytes = PhotoWatchFixture.photo("synced")
        let temporary = try fixture.write(".syncthing.cover-2.jpg.tmp", bytes)
        try fixture.write("cover-3.jpg.part", bytes)
        try fixture.write("~syncthing~cover-4.jpg.tmp", bytes)
        #expect(try watcher.poll() == PhotoWatchPass())
        fixture.advance(10)
        #expect(try watcher.poll() == PhotoWatchPass(), "no temporary name is ever read")
        // Syncthing renames the finished file into place.
        try FileManager.default.moveItem(at: temporary, to: fixture.folder.appendingPathComponent("cover-2.jpg"))
        #expect(try watcher.poll().waiting == 1)
        fixture.advance(1)
        #expect(try watcher.poll().arrivals.map { URL(fileURLWithPath: $0.path).lastPathComponent } == ["cover-2.jpg"])
    }

    @Test func photosWithTheSameBytesAreQueuedOnce() throws {
        let fixture = try PhotoWatchFixture()
        let watcher = fixture.watcher(settle: 1)
        PhotoWatchFixture.pastTheMark(try watcher.begin())
        let bytes = PhotoWatchFixture.photo("twice")
        try fixture.write("cover-a.jpg", bytes)
        try fixture.write("cover-a (1).jpg", bytes)
        try fixture.write("cover-b.jpg", PhotoWatchFixture.photo("other"))
        _ = try watcher.poll()
        fixture.advance(1)
        let pass = try watcher.poll()
        #expect(pass.arrivals.count == 2)
        #expect(pass.duplicates == 1)
        // A copy arriving later is a duplicate too.
        try fixture.write("cover-a-copy.jpg", bytes)
        _ = try watcher.poll()
        fixture.advance(1)
        #expect(try watcher.poll() == PhotoWatchPass(duplicates: 1))
        #expect(try fixture.database.batchCounts().pending == 2)
        #expect(try fixture.database.watchedPhotoCount() == 2)
    }

    @Test func photosThereBeforeWatchingBeganAreNotNew() throws {
        let fixture = try PhotoWatchFixture()
        // Its ctime (the coarse clock's) is never after the mark taken next (the precise clock's).
        try fixture.write("cover-old.jpg", PhotoWatchFixture.photo("old"))
        let watcher = fixture.watcher(settle: 1)
        PhotoWatchFixture.pastTheMark(try watcher.begin())
        try fixture.write("cover-new.jpg", PhotoWatchFixture.photo("new"))
        _ = try watcher.poll()
        fixture.advance(1)
        #expect(try watcher.poll().arrivals.map { URL(fileURLWithPath: $0.path).lastPathComponent } == ["cover-new.jpg"])
    }

    @Test func twoWatchersOnOneLibraryQueueEachPhotoOnce() throws {
        // Given: two connections to one library (as the window and `crate watch` have)
        let fixture = try PhotoWatchFixture()
        let other = try AppDatabase.open(paths: fixture.temp.paths)
        let first = fixture.watcher(settle: 1), second = fixture.watcher(settle: 1, database: other)
        try first.begin()
        PhotoWatchFixture.pastTheMark(try second.begin())
        for index in 0..<10 { try fixture.write("cover-\(index).jpg", PhotoWatchFixture.photo("two-\(index)")) }
        // When: both take their looks
        _ = try first.poll()
        _ = try second.poll()
        fixture.advance(1)
        let a = try first.poll(), b = try second.poll()
        // Then: every photo was queued by exactly one of them
        #expect(a.arrivals.count == 10)
        #expect(b.duplicates == 10)
        #expect(b.arrivals.isEmpty)
        #expect(try other.batchCounts().pending == 10)
    }

    @Test func aRestartTakesPhotosThatArrivedWhileNoCrateWatched() throws {
        let fixture = try PhotoWatchFixture()
        let before = fixture.watcher(settle: 1)
        PhotoWatchFixture.pastTheMark(try before.begin())
        try fixture.write("cover-during.jpg", PhotoWatchFixture.photo("during"))
        _ = try before.poll()
        fixture.advance(1)
        #expect(try before.poll().arrivals.count == 1)
        // Crate stops; a photo arrives; a new session begins.
        try fixture.write("cover-while-stopped.jpg", PhotoWatchFixture.photo("stopped"))
        let after = fixture.watcher(settle: 1)
        try after.begin()
        _ = try after.poll()
        fixture.advance(1)
        let pass = try after.poll()
        #expect(pass.arrivals.map { URL(fileURLWithPath: $0.path).lastPathComponent } == ["cover-while-stopped.jpg"])
        #expect(pass.duplicates == 1, "the photo of the first session is looked at again, and known")
    }

    @Test func aPhotoStillSettlingWhenThePassesAreMinutesApartIsStillTaken() throws {
        // Given: a session whose passes come late (a starved or suspended machine, or Crate
        // opened days after the photo arrived): the first pass to see a photo starts ten minutes
        // after it arrived.
        let fixture = try PhotoWatchFixture()
        let wall = TestNow()
        let watcher = PhotoFolderWatcher(folder: fixture.folder, database: fixture.database, settle: 1, now: fixture.now,
                                         wallClock: { wall.date })
        PhotoWatchFixture.pastTheMark(try watcher.begin())
        try fixture.write("cover-late.jpg", PhotoWatchFixture.photo("late"))
        wall.advance(600)
        // When: that pass sees it settling, and the next one finds it settled
        #expect(try watcher.poll().waiting == 1)
        fixture.advance(1)
        let pass = try watcher.poll()
        // Then: it is queued — the first pass did not move the mark past a photo still settling.
        #expect(pass.arrivals.map { URL(fileURLWithPath: $0.path).lastPathComponent } == ["cover-late.jpg"])
        // And once it is taken, the mark moves on.
        _ = try watcher.poll()
        let stored = try fixture.database.reader.read { db in try Double.fetchOne(db, sql: "SELECT mark FROM watched_folder") }
        #expect((stored ?? 0) > Date().timeIntervalSince1970)
    }

    @Test func photosQueuedByAKilledWatchAreLeftForTheNextOne() throws {
        let fixture = try PhotoWatchFixture()
        let killed = fixture.watcher(settle: 0)
        PhotoWatchFixture.pastTheMark(try killed.begin())
        try fixture.write("cover-queued.jpg", PhotoWatchFixture.photo("queued"))
        _ = try killed.poll()
        let queued = try killed.poll().arrivals
        #expect(queued.count == 1)
        // Never scanned (the process died): the next watch finds it waiting.
        let next = fixture.watcher(settle: 0)
        try next.begin()
        #expect(try next.leftovers() == queued)
    }

    @Test func photosThatAreNotCoversAreSetAsideInAList() async throws {
        // Given: three new photos, one of them not a cover
        let fixture = try PhotoWatchFixture()
        let watcher = fixture.watcher(settle: 0)
        PhotoWatchFixture.pastTheMark(try watcher.begin())
        try fixture.write("cover-1.jpg", PhotoWatchFixture.photo("c1"))
        try fixture.write("receipt.jpg", PhotoWatchFixture.photo("receipt"))
        try fixture.write("cover-2.jpg", PhotoWatchFixture.photo("c2"))
        _ = try watcher.poll()
        let arrivals = try watcher.poll().arrivals
        // When: they are scanned
        let scanner = WatchedPhotoScanner(queue: BatchQueue(database: fixture.database), scanner: CoverNameScanner(database: fixture.database))
        let taken = try await scanner.scan(arrivals) { _ in }
        // Then: two scans, one photo set aside, and scanning them again takes nothing
        #expect(taken == 3)
        #expect(try fixture.database.counts().scans == 2)
        let aside = try fixture.database.setAsidePhotos(folder: watcher.folder)
        #expect(aside.map { URL(fileURLWithPath: $0.path).lastPathComponent } == ["receipt.jpg"])
        #expect(aside.first?.reason == ScanFailure.notIdentified.message)
        #expect(try await scanner.scan(arrivals) { _ in } == 0, "a finished photo is never scanned again")
    }

    @Test func anUnreadablePhotoIsLeftAloneUntilItChanges() throws {
        guard getuid() != 0 else { return }  // root reads any file
        let fixture = try PhotoWatchFixture()
        let watcher = fixture.watcher(settle: 0)
        PhotoWatchFixture.pastTheMark(try watcher.begin())
        let file = try fixture.write("cover-locked.jpg", PhotoWatchFixture.photo("locked"))
        chmod(file.path, 0)
        _ = try watcher.poll()
        #expect(try watcher.poll() == PhotoWatchPass(), "not queued, and not waiting either")
        chmod(file.path, 0o644)
        try fixture.write("cover-locked.jpg", PhotoWatchFixture.photo("unlocked"))
        _ = try watcher.poll()
        #expect(try watcher.poll().arrivals.count == 1)
    }
}
