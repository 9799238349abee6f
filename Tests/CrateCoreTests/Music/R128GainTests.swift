import CrateTestSupport
import Foundation
import GRDB
import Testing
@testable import CrateCore

/// Opus's R128_ALBUM_GAIN read when the music folder is indexed, kept with the file, and handed
/// to the player like a measured gain (docs/decisions/0046-replaygain-and-lossy-gapless.md).
@Suite("R128 gain tags")
struct R128GainTests {
    @Test(arguments: [("-1280", 0.0), ("0", 5.0), ("256", 6.0), ("-2560", -5.0), ("+384", 6.5), (" -1408 ", -0.5),
                      ("32767", 32767.0 / 256 + 5), ("-32768", -123.0)])
    func aQ78GainIsReadAtReplayGainsReference(text: String, db: Double) {
        #expect(R128Gain.replayGainDb(fromTag: text) == db)
    }

    @Test(arguments: ["abc", "99999999", "32768", "-32769", "", "-5.5", "0x10", "1_000", "12 dB", "--1"])
    func anythingButASigned16BitIntegerIsRefused(text: String) {
        #expect(R128Gain.replayGainDb(fromTag: text) == nil)
    }

    @Test(.enabled(if: ToneAlbum.hasTool("opusenc")))
    func anOpusAlbumsR128AlbumGainIsIndexedAndReachesThePlayer() throws {
        let temp = try TemporaryDirectory()
        let root = temp.url.appendingPathComponent("music").path
        let tone = ToneAlbum(trackSeconds: [0.4, 0.3])
        let tags = ["ARTIST": "Opus Band", "ALBUMARTIST": "Opus Band", "ALBUM": "Loud Opus", "R128_ALBUM_GAIN": "-2560", "R128_TRACK_GAIN": "-2000"]
        let files = try tone.encode(.opus, in: root + "/Opus Band/Loud Opus", tags: tags)
        // Half-tagged: one file has no album gain, so none is used.
        let half = try tone.encode(.opus, in: root + "/Opus Band/Half Tagged", tags: ["ARTIST": "Opus Band", "ALBUM": "Half Tagged", "R128_ALBUM_GAIN": "-1280"])
        #expect(TagReader.write(["R128_ALBUM_GAIN": ""], to: half[1]))
        // A value that is not Q7.8 is no gain.
        _ = try tone.encode(.opus, in: root + "/Opus Band/Bad Tag", tags: ["ARTIST": "Opus Band", "ALBUM": "Bad Tag", "R128_ALBUM_GAIN": "abc"])

        let tagsRead = try TagReader.read(path: files[0]).get()
        #expect(tagsRead.r128AlbumGainDb == -5.0 && tagsRead.r128TrackGainDb == -2000.0 / 256 + 5)

        let database = try AppDatabase.inMemory()
        _ = try MusicIndexer.scan(folders: [root], database: database)
        let indexed = Dictionary(grouping: try database.readableMusicFiles(), by: \.album).mapValues { $0.map(\.r128AlbumGainDb) }
        #expect(indexed["Loud Opus"] == [-5.0, -5.0])
        #expect(indexed["Half Tagged"] == [0.0, nil])
        #expect(indexed["Bad Tag"] == [nil, nil])

        let lookup = AlbumFiles.musicFolder(database)
        #expect(try lookup.resolve(Album(id: 1, title: "Loud Opus", artist: "Opus Band")).r128GainDb == -5.0)
        #expect(try lookup.resolve(Album(id: 2, title: "Half Tagged", artist: "Opus Band")).r128GainDb == nil)
        #expect(try lookup.resolve(Album(id: 3, title: "Bad Tag", artist: "Opus Band")).r128GainDb == nil)

        // Retagged (the mtime changes): the next scan reads the new value. Crate itself never writes.
        #expect(TagReader.write(["R128_ALBUM_GAIN": "-1280"], to: files[0]) && TagReader.write(["R128_ALBUM_GAIN": "-1280"], to: files[1]))
        try bumpModificationTime(files)
        _ = try MusicIndexer.scan(folders: [root], database: database)
        #expect(try lookup.resolve(Album(id: 1, title: "Loud Opus", artist: "Opus Band")).r128GainDb == 0.0)
    }

    @Test func theSameTagInAFLACCommentIsReadToo() throws {
        let temp = try TemporaryDirectory()
        let path = try AudioFixtures.flac(at: temp.url.appendingPathComponent("a.flac").path,
                                          tags: ["ARTIST": "Band", "ALBUM": "Flac", "R128_ALBUM_GAIN": "-640"])
        #expect(try TagReader.read(path: path).get().r128AlbumGainDb == 2.5)
    }

    @Test(.enabled(if: ToneAlbum.hasTool("lame")))
    func andAnMP3sTXXXFrame() throws {
        let temp = try TemporaryDirectory()
        let files = try ToneAlbum(trackSeconds: [0.3]).encode(.mp3Lame, in: temp.url.path, tags: ["ARTIST": "Band", "R128_ALBUM_GAIN": "512"])
        #expect(try TagReader.read(path: files[0]).get().r128AlbumGainDb == 7.0)
    }

    @Test func theMigrationMakesTheNextScanReadFilesThatMayCarryTheTag() throws {
        let queue = try DatabaseQueue()
        try queue.write { db in
            try db.execute(sql: "CREATE TABLE music_file (path TEXT PRIMARY KEY, mtimeNs INTEGER NOT NULL)")
            try db.execute(sql: "CREATE TABLE music_dir (path TEXT PRIMARY KEY, mtimeNs INTEGER NOT NULL)")
            for path in ["/m/a/01.opus", "/m/b/CD1/01.FLAC", "/m/c/01.mp3"] {
                try db.execute(sql: "INSERT INTO music_file VALUES (?, 7)", arguments: [path])
            }
            for path in ["/m/a", "/m/b/CD1", "/m/b", "/m/c"] { try db.execute(sql: "INSERT INTO music_dir VALUES (?, 7)", arguments: [path]) }
            try AppDatabase.addMusicFileR128Gain(db)
            let files = try Row.fetchAll(db, sql: "SELECT path, mtimeNs, r128AlbumGainDb FROM music_file ORDER BY path")
            #expect(files.map { $0["mtimeNs"] as Int64 } == [-1, -1, 7] && files.allSatisfy { $0["r128AlbumGainDb"] as Double? == nil })
            let dirs = try Row.fetchAll(db, sql: "SELECT path, mtimeNs FROM music_dir ORDER BY path").map { "\($0["path"] as String) \($0["mtimeNs"] as Int64)" }
            #expect(dirs == ["/m/a -1", "/m/b 7", "/m/b/CD1 -1", "/m/c 7"])
        }
    }

    private func bumpModificationTime(_ paths: [String]) throws {
        let later = Date().addingTimeInterval(5)
        for path in paths { try FileManager.default.setAttributes([.modificationDate: later], ofItemAtPath: path) }
    }
}
