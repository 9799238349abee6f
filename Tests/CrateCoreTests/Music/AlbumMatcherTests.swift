import Foundation
import Testing
@testable import CrateCore

@Suite("Matching crate albums to files")
struct AlbumMatcherTests {
    @Test("Names are normalised: case, diacritics, punctuation, articles, edition suffixes")
    func normalisation() {
        #expect(MusicText.albumKey(artist: "The Beatles", title: "Abbey Road (2019 Remaster)") == MusicText.albumKey(artist: "beatles", title: "Abbey Road"))
        #expect(MusicText.albumKey(artist: "Björk", title: "Homogenic") == MusicText.albumKey(artist: "Bjork", title: "HOMOGENIC"))
        #expect(MusicText.albumKey(artist: "AC/DC", title: "Back in Black [Deluxe Edition]") == MusicText.albumKey(artist: "AC DC", title: "Back In Black"))
        #expect(MusicText.albumKey(artist: "Simon & Garfunkel", title: "Bookends - Remastered") == MusicText.albumKey(artist: "Simon and Garfunkel", title: "Bookends"))
        #expect(MusicText.albumKey(artist: "Radiohead", title: "OK Computer: OKNOTOK 1997 2017") != MusicText.albumKey(artist: "Radiohead", title: "OK Computer"))
        // An article alone is a name ("The The"); a parenthesis that is the whole title stays.
        #expect(MusicText.fold("The The") == "the the")
        #expect(EditionNoise.strip("(Deluxe)") == "(Deluxe)")
    }

    static func file(_ path: String, album: String, artist: String, track: Int, release: String? = nil, group: String? = nil) -> MusicFile {
        MusicFile.make(found: FoundFile(path: path, kind: .audio, mtimeNs: 0, size: 1),
                       tags: .success(AudioTags(title: "T\(track)", artist: artist, album: album, trackText: String(track),
                                                musicBrainzAlbumID: release, musicBrainzReleaseGroupID: group, durationMs: 1000)))
    }

    @Test("Two copies of an album matched by name are ambiguous, listed, never guessed")
    func ambiguousByName() {
        let files = [Self.file("/m/A/Album/01.flac", album: "Album", artist: "A", track: 1),
                     Self.file("/m/copy/A - Album/01.flac", album: "Album", artist: "A", track: 1)]
        let matcher = AlbumMatcher(files: files)
        guard case .ambiguous(let candidates, .name) = matcher.match(Album(title: "Album", artist: "A")) else {
            Issue.record("expected ambiguous"); return
        }
        #expect(Set(candidates.map(\.directory)) == ["/m/A/Album", "/m/copy/A - Album"])
    }

    @Test("A release id wins over a name; two releases of one release group are ambiguous")
    func releaseBeforeGroupBeforeName() {
        let files = [Self.file("/m/A/Album/01.flac", album: "Album", artist: "A", track: 1, release: "r1", group: "g"),
                     Self.file("/m/A/Album (Japan)/01.flac", album: "Album", artist: "A", track: 1, release: "r2", group: "g")]
        let matcher = AlbumMatcher(files: files)
        guard case .matched(let disk, .releaseID) = matcher.match(Album(musicBrainzReleaseID: "R2", title: "Whatever", artist: "A")) else {
            Issue.record("expected a release-id match"); return
        }
        #expect(disk.directory == "/m/A/Album (Japan)")
        guard case .ambiguous(let candidates, .releaseGroupID) = matcher.match(Album(musicBrainzReleaseID: "r9", musicBrainzReleaseGroupID: "g", title: "Album", artist: "A")) else {
            Issue.record("expected ambiguous by release group"); return
        }
        #expect(candidates.count == 2)
    }

    @Test("Queue tracks: disc then track; duplicate or missing numbers fall back to file order")
    func trackOrder() {
        let files = [Self.file("/m/A/B/x.flac", album: "B", artist: "A", track: 5), Self.file("/m/A/B/y.flac", album: "B", artist: "A", track: 5)]
        let disk = AlbumMatcher(files: files).diskAlbums[0]
        let tracks = AlbumMatcher.tracks(of: disk, albumID: 1).map(\.track)
        #expect(tracks.map(\.position) == [1, 2])
    }
}
