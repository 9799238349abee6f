import CrateTestSupport
import Foundation
import Testing
@testable import CrateCore

@Suite("Music folders in Preferences")
@MainActor
struct MusicFolderPreferencesTests {
    private func makeStore(_ dir: TemporaryDirectory, variables: [String: String] = [:], onSaved: ((Settings) -> Void)? = nil) throws -> MusicFoldersStore {
        let environment = AppEnvironment(paths: dir.paths, variables: ["HOME": dir.url.path].merging(variables) { $1 }, database: try AppDatabase.inMemory())
        return PreferencesStore(environment: environment, onSaved: onSaved).music
    }

    @Test("The default is xdg-user-dir MUSIC; the first folder chosen replaces it; removing the last goes back")
    func addAndRemove() throws {
        let dir = try TemporaryDirectory()
        var saves: [[String]] = [], changes = 0
        let store = try makeStore(dir) { saves.append($0.musicFolders) }
        store.onFoldersChanged = { changes += 1 }
        #expect(store.state.value.isDefault)
        #expect(store.state.value.folders == [dir.url.path + "/Music"])

        let rips = dir.url.appendingPathComponent("Rips").path, vinyl = dir.url.appendingPathComponent("Vinyl").path
        for path in [rips, vinyl] { try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true) }
        #expect(store.add(rips + "/"))
        #expect(store.state.value.folders == [rips])
        #expect(!store.state.value.isDefault)
        #expect(store.add(vinyl))
        #expect(try Settings.loadSaved(paths: dir.paths).musicFolders == [rips, vinyl])
        #expect(store.remove(rips))
        #expect(store.remove(vinyl))
        #expect(store.state.value.isDefault)
        #expect(saves == [[rips], [rips, vinyl], [vinyl], []])
        #expect(changes == 4)
    }

    @Test("Bad folders: not a folder, already added, inside another; nothing is saved")
    func badInput() throws {
        let dir = try TemporaryDirectory()
        var saved = 0
        let store = try makeStore(dir) { _ in saved += 1 }
        let music = dir.url.appendingPathComponent("Music").path
        try FileManager.default.createDirectory(atPath: music + "/Jazz", withIntermediateDirectories: true)
        try Data("x".utf8).write(to: URL(fileURLWithPath: music + "/notes.txt"))
        #expect(store.add(music))
        #expect(saved == 1)
        #expect(!store.add(music + "/notes.txt"))
        #expect(store.state.value.errorMessage == MusicFolderInputError.notAFolder(music + "/notes.txt").message)
        #expect(!store.add(dir.url.appendingPathComponent("missing").path))
        #expect(!store.add(music))
        #expect(store.state.value.errorMessage == MusicFolderInputError.alreadyAdded(music).message)
        #expect(!store.add(music + "/Jazz"))
        #expect(store.state.value.errorMessage?.contains("inside") == true)
        #expect(saved == 1)
        #expect(try Settings.loadSaved(paths: dir.paths).musicFolders == [music])
    }

    @Test("With $CRATE_MUSIC_DIRS set, the session's folders are shown")
    func override() throws {
        let dir = try TemporaryDirectory()
        let store = try makeStore(dir, variables: ["CRATE_MUSIC_DIRS": "/srv/a:/srv/b"])
        #expect(store.state.value.folders == ["/srv/a", "/srv/b"])
    }

    @Test("Folders a scan indexed count as music folders unless a configured one holds them")
    func indexedFoldersAreAdded() throws {
        let dir = try TemporaryDirectory()
        let database = try AppDatabase.inMemory()
        let music = dir.url.appendingPathComponent("elsewhere").path
        try FileManager.default.createDirectory(atPath: music + "/Band/Record", withIntermediateDirectories: true)
        _ = try MusicIndexer.scan(folders: [music], database: database)
        #expect(try database.indexedMusicFolders() == [music])
        #expect(MusicFolders.adding(indexed: [music], to: ["/home/u/Music"]) == ["/home/u/Music", music])
        #expect(MusicFolders.adding(indexed: ["/home/u/Music/More", "/home/u/Musical"], to: ["/home/u/Music"])
                == ["/home/u/Music", "/home/u/Musical"])
        #expect(MusicFolders.adding(indexed: ["/srv/a"], to: ["/srv/a/"]) == ["/srv/a/"])
    }

    @Test("ReplayGain: Album by default, Off saved at once and handed on; CRATE_REPLAYGAIN overrides for the session")
    func replayGain() throws {
        let dir = try TemporaryDirectory()
        var handed: [ReplayGainMode] = []
        let store = try makeStore(dir)
        store.onReplayGainChanged = { handed.append($0) }
        #expect(store.state.value.replayGain == .album)
        #expect(store.setReplayGain(.off))
        #expect(store.state.value.replayGain == .off)
        #expect(try Settings.loadSaved(paths: dir.paths).replayGain == .off)
        // The same mode again saves nothing and says nothing.
        #expect(store.setReplayGain(.off))
        #expect(handed == [.off])
        #expect(try Settings.load(paths: dir.paths, environment: ["CRATE_REPLAYGAIN": "album"]).replayGain == .album)
        #expect(try makeStore(dir, variables: ["CRATE_REPLAYGAIN": "album"]).state.value.replayGain == .album)
        #expect(try Settings.load(paths: dir.paths, environment: [:]).replayGain == .off)
    }
}
