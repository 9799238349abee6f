import CrateTestSupport
import Foundation
import Synchronization
import Testing
@testable import CrateCore

@Suite("Re-indexing the music folder from the window")
@MainActor
struct MusicIndexStoreTests {
    @Test("A new album appears and a removed one disappears without a restart")
    func addAndRemove() async throws {
        let temp = try TemporaryDirectory()
        let fixture = try MusicFixture(directory: temp.url)
        let store = MusicIndexStore(database: fixture.database)
        store.reindex(folders: [fixture.root])
        await store.settle()
        #expect(store.state.value.lastReport?.albums == 3)
        #expect(store.state.value.isIndexing == false)

        let newAlbum = fixture.root + "/New Artist/New Album"
        try AudioFixtures.flac(at: newAlbum + "/01.flac", tags: AudioFixtures.tags(artist: "New Artist", album: "New Album", title: "One", track: 1))
        store.reindex(folders: [fixture.root])
        await store.settle()
        #expect(store.state.value.lastReport?.albums == 4)
        #expect(store.state.value.lastReport?.added == 1)
        #expect(try fixture.database.musicIndexCounts().albums == 4)

        try FileManager.default.removeItem(atPath: fixture.root + "/New Artist")
        store.reindex(folders: [fixture.root])
        await store.settle()
        #expect(store.state.value.lastReport?.removed == 1)
        #expect(try fixture.database.musicIndexCounts().albums == 3)
        #expect(store.state.value.summary.hasPrefix("9 files, 3 albums"))
    }

    @Test("Requests during a run make exactly one more run, with the latest folders")
    func coalesces() async throws {
        let database = try AppDatabase.inMemory()
        let store = MusicIndexStore(database: database)
        let gate = Mutex<Bool>(false)
        let seen = Mutex<[[String]]>([])
        store.index = { folders, _ in
            seen.withLock { $0.append(folders) }
            while !gate.withLock({ $0 }) { usleep(1000) }
            return MusicScanReport()
        }
        store.reindex(folders: ["/a"])
        #expect(await waitUntil(store.state) { store.state.value.isIndexing } != nil)
        #expect(store.state.value.summary == "Indexing your music folder…")
        store.reindex(folders: ["/b"])
        store.reindex(folders: ["/c"])
        gate.withLock { $0 = true }
        await store.settle()
        #expect(seen.withLock { $0 } == [["/a"], ["/c"]])
        #expect(store.state.value.completed == 2)
    }

    @Test("A failed run says why in plain words and the next one clears it")
    func failure() async throws {
        let store = MusicIndexStore(database: try AppDatabase.inMemory())
        store.index = { _, _ in throw CrateError.notFound("Music folder") }
        store.reindex(folders: ["/x"])
        await store.settle()
        let message = try #require(store.state.value.errorMessage)
        #expect(store.state.value.summary == message)
        store.index = { _, _ in MusicScanReport() }
        store.reindex(folders: ["/x"])
        await store.settle()
        #expect(store.state.value.errorMessage == nil)
    }
}
