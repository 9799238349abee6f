import CrateTestSupport
import Foundation
import Testing
@testable import CrateCore

@Suite("Music folder index")
struct MusicIndexTests {
    @Test("Indexes tagged, multi-disc and untagged albums and matches them to the crate")
    func indexAndMatch() throws {
        let temp = try TemporaryDirectory()
        let fixture = try MusicFixture(directory: temp.url)
        let report = try fixture.scan()
        #expect(report.files == 9)
        #expect(report.tracks == 9)
        #expect(report.albums == 3)
        #expect(report.added == 9)
        #expect(report.matched == 3)
        #expect(report.unmatched == 1)
        let matches = Dictionary(uniqueKeysWithValues: try AlbumMatcher.matchAll(database: fixture.database).map { ($0.album.id ?? 0, $0.match) })
        guard case .matched(let three, .releaseID) = matches[fixture.threeSongs] else { Issue.record("three songs: \(String(describing: matches[fixture.threeSongs]))"); return }
        #expect(three.files.map(\.title) == ["Song 1", "Song 2", "Song 3"])
        guard case .matched(let two, .releaseGroupID) = matches[fixture.twoDiscs] else { Issue.record("two discs: \(String(describing: matches[fixture.twoDiscs]))"); return }
        #expect(two.files.map(\.title) == ["D1T1", "D1T2", "D2T1", "D2T2"])
        guard case .matched(let untagged, .name) = matches[fixture.untagged] else { Issue.record("untagged: \(String(describing: matches[fixture.untagged]))"); return }
        #expect(untagged.files.map(\.title) == ["First", "Second"])
        #expect(untagged.files.allSatisfy { !$0.tagged })
        #expect(matches[fixture.absent] == AlbumFileMatch.none)
        // Durations come from the files.
        #expect(three.files.allSatisfy { ($0.durationMs ?? 0) > 200 })
    }

    @Test("A second scan opens nothing unchanged; changed files are re-read, removed ones dropped")
    func incremental() throws {
        let temp = try TemporaryDirectory()
        let fixture = try MusicFixture(directory: temp.url)
        _ = try fixture.scan()
        let again = try fixture.scan()
        #expect(again.unchanged == 9)
        #expect(again.added == 0 && again.updated == 0 && again.removed == 0)

        let second = fixture.root + "/Tagged Artist/Three Songs/02.flac"
        #expect(TagReader.write(["TITLE": "Renamed Song"], to: second))
        try FileManager.default.removeItem(atPath: fixture.root + "/Tagged Artist/Three Songs/03.flac")
        let changed = try fixture.scan()
        #expect(changed.updated == 1)
        #expect(changed.removed == 1)
        #expect(changed.unchanged == 7)
        let titles = try fixture.database.readableMusicFiles().filter { $0.album == "Three Songs" }.map(\.title).sorted()
        #expect(titles == ["Renamed Song", "Song 1"])
    }

    /// Sets every file's and directory's mtime under `root` to `secondsAgo` in the past (outside
    /// the walker's 2 s window in which mtimes are not trusted).
    private func age(_ root: String, secondsAgo: Double = 60) throws {
        let fm = FileManager.default
        let date = Date(timeIntervalSinceNow: -secondsAgo)
        for name in try fm.subpathsOfDirectory(atPath: root) {
            try fm.setAttributes([.modificationDate: date], ofItemAtPath: root + "/" + name)
        }
        try fm.setAttributes([.modificationDate: date], ofItemAtPath: root)
    }

    @Test("Unchanged directories are not listed again; in-place edits, new, removed and moved files are still found")
    func directoryCache() throws {
        let temp = try TemporaryDirectory()
        let fixture = try MusicFixture(directory: temp.url)
        try age(fixture.root)
        _ = try fixture.scan()
        // Nothing changed: every directory comes from the cache, no file is listed again.
        let quiet = MusicFolderWalker.walk([fixture.root], cache: try fixture.database.musicDirectories())
        #expect(quiet.readDirectories.isEmpty)
        #expect(quiet.files.isEmpty)
        #expect(quiet.unchangedAudioFiles == 9)
        let again = try fixture.scan()
        #expect(again.files == 9 && again.unchanged == 9 && again.tracks == 9 && again.albums == 3)
        #expect(again.added == 0 && again.updated == 0 && again.removed == 0)

        // A tag rewritten in place: the directory's mtime is put back, only the file's moved.
        let album = fixture.root + "/Tagged Artist/Three Songs"
        #expect(TagReader.write(["TITLE": "Edited In Place"], to: album + "/02.flac"))
        try FileManager.default.setAttributes([.modificationDate: Date(timeIntervalSinceNow: -30)], ofItemAtPath: album + "/02.flac")
        try FileManager.default.setAttributes([.modificationDate: Date(timeIntervalSinceNow: -60)], ofItemAtPath: album)
        let walk = MusicFolderWalker.walk([fixture.root], cache: try fixture.database.musicDirectories())
        #expect(walk.readDirectories.map(\.path) == [album])
        let edited = try fixture.scan()
        #expect(edited.updated == 1 && edited.unchanged == 8 && edited.removed == 0)
        #expect(try fixture.database.readableMusicFiles().contains { $0.title == "Edited In Place" })

        // A new file, and a whole album folder removed.
        try age(fixture.root)
        _ = try fixture.scan()
        try FileManager.default.copyItem(atPath: album + "/01.flac", toPath: album + "/04.flac")
        try FileManager.default.removeItem(atPath: fixture.root + "/Double")
        let changed = try fixture.scan()
        #expect(changed.added == 1)
        #expect(changed.removed == 4)
        #expect(changed.files == 6)
        #expect(try fixture.database.musicIndexCounts().files == 6)
        #expect(try fixture.database.musicDirectories().keys.contains { $0.hasPrefix(fixture.root + "/Double") } == false)

        // Removed and put back with the same name while the directory's mtime is restored: the
        // digest (inode-independent: names, mtimes, sizes) still sees the new file's mtime.
        try age(fixture.root)
        _ = try fixture.scan()
        let bytes = try Data(contentsOf: URL(fileURLWithPath: album + "/01.flac"))
        try FileManager.default.removeItem(atPath: album + "/04.flac")
        try bytes.write(to: URL(fileURLWithPath: album + "/04.flac"))
        #expect(TagReader.write(["TITLE": "Fourth"], to: album + "/04.flac"))
        try FileManager.default.setAttributes([.modificationDate: Date(timeIntervalSinceNow: -20)], ofItemAtPath: album + "/04.flac")
        try FileManager.default.setAttributes([.modificationDate: Date(timeIntervalSinceNow: -60)], ofItemAtPath: album)
        let replaced = try fixture.scan()
        #expect(replaced.updated == 1)
        #expect(try fixture.database.readableMusicFiles().contains { $0.title == "Fourth" })
    }

    @Test("A folder that is missing (an unplugged disk) keeps its files in the index")
    func missingRootKeepsFiles() throws {
        let temp = try TemporaryDirectory()
        let fixture = try MusicFixture(directory: temp.url)
        _ = try fixture.scan()
        let moved = temp.url.appendingPathComponent("elsewhere").path
        try FileManager.default.moveItem(atPath: fixture.root, toPath: moved)
        let report = try MusicIndexer.scan(folders: [fixture.root], database: fixture.database)
        #expect(report.missingFolders == [fixture.root])
        #expect(report.removed == 0)
        #expect(try fixture.database.musicIndexCounts().files == 9)
    }

    @Test("0-byte, corrupt and truncated files are recorded as unreadable; a 999-disc tag is ignored")
    func badFiles() throws {
        let temp = try TemporaryDirectory()
        let root = temp.url.appendingPathComponent("music").path
        let fm = FileManager.default
        try fm.createDirectory(atPath: root + "/Zero", withIntermediateDirectories: true)
        for n in 1...3 { _ = fm.createFile(atPath: root + "/Zero/0\(n).flac", contents: Data()) }
        _ = fm.createFile(atPath: root + "/Zero/noise.mp3", contents: Data((0..<4096).map { UInt8(truncatingIfNeeded: $0 &* 7919) }))
        let good = try AudioFixtures.flac(at: root + "/Odd/Album/01.flac", tags: ["ALBUM": "Album", "ARTIST": "Odd", "DISCNUMBER": "999", "TRACKNUMBER": "1"])
        let bytes = try Data(contentsOf: URL(fileURLWithPath: good))
        _ = fm.createFile(atPath: root + "/Odd/Album/02.flac", contents: bytes.prefix(20))
        let database = try AppDatabase.inMemory()
        let report = try MusicIndexer.scan(folders: [root], database: database)
        #expect(report.files == 6)
        #expect(report.unreadable == 5)
        let unreadable = try database.unreadableMusicFiles()
        #expect(unreadable.filter { $0.path.contains("/Zero/0") }.allSatisfy { $0.problem == TagReadProblem.empty.message })
        #expect(unreadable.contains { $0.path.hasSuffix("noise.mp3") })
        #expect(unreadable.contains { $0.path.hasSuffix("/Odd/Album/02.flac") })
        let odd = try #require(try database.readableMusicFiles().first)
        #expect(odd.disc == 1)
        #expect(odd.problem?.contains("999") == true)
    }

    @Test("Non-UTF-8 file names are indexed, read and played by their bytes")
    func nonUTF8Names() throws {
        let temp = try TemporaryDirectory()
        let root = temp.url.appendingPathComponent("music").path
        let source = try AudioFixtures.flac(at: root + "/source.flac", tags: AudioFixtures.tags(artist: "Caf\u{E9}", album: "Bytes", title: "One", track: 1))
        let rawName = PathBytes.bytes(of: root) + Array("/caf".utf8) + [0xFF] + Array(".flac".utf8)
        let data = try Data(contentsOf: URL(fileURLWithPath: source))
        let fd = open(rawName.map { CChar(bitPattern: $0) } + [0], O_CREAT | O_WRONLY, 0o644)
        #expect(fd >= 0)
        _ = data.withUnsafeBytes { write(fd, $0.baseAddress, data.count) }
        close(fd)
        try FileManager.default.removeItem(atPath: source)
        let database = try AppDatabase.inMemory()
        let report = try MusicIndexer.scan(folders: [root], database: database)
        #expect(report.tracks == 1)
        let file = try #require(try database.readableMusicFiles().first)
        #expect(PathBytes.bytes(of: file.path) == rawName)
        #expect(file.albumArtist == "Caf\u{E9}")
        #expect(file.uri.hasSuffix("/caf%FF.flac"))
        // Unchanged on a second scan: the stored path is the same bytes.
        #expect(try MusicIndexer.scan(folders: [root], database: database).unchanged == 1)
    }

    @Test("A symbolic link loop is walked once, not forever")
    func symlinkLoop() throws {
        let temp = try TemporaryDirectory()
        let fixture = try MusicFixture(directory: temp.url)
        try FileManager.default.createSymbolicLink(atPath: fixture.root + "/Double/loop", withDestinationPath: fixture.root)
        try FileManager.default.createSymbolicLink(atPath: fixture.root + "/dangling.flac", withDestinationPath: fixture.root + "/nowhere.flac")
        let report = try fixture.scan()
        #expect(report.files == 9)
        #expect(report.loopsSkipped.count == 1)
    }

    @Test("Music folders: settings, CRATE_MUSIC_DIRS, user-dirs.dirs, ~/Music")
    func folders() throws {
        let temp = try TemporaryDirectory()
        let home = temp.url.path
        #expect(MusicFolders.defaultFolder(environment: ["HOME": home]) == home + "/Music")
        try FileManager.default.createDirectory(atPath: home + "/.config", withIntermediateDirectories: true)
        try "XDG_MUSIC_DIR=\"$HOME/Musik\"\n".write(toFile: home + "/.config/user-dirs.dirs", atomically: true, encoding: .utf8)
        #expect(MusicFolders.defaultFolder(environment: ["HOME": home]) == home + "/Musik")
        let settings = try Settings().applyingOverrides(from: ["CRATE_MUSIC_DIRS": "/a:/b"])
        #expect(MusicFolders.resolve(settings: settings, environment: ["HOME": home]) == ["/a", "/b"])
        #expect(Settings.activeOverrides(in: ["CRATE_MUSIC_DIRS": "/a"]) == ["CRATE_MUSIC_DIRS"])
    }
}
