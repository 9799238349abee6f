import CrateTestSupport
import Foundation
@testable import CrateCore

/// A music folder made at test time, and a library whose crate holds the albums it should match.
struct MusicFixture {
    static let releaseID = "11111111-1111-4111-8111-111111111111"
    static let otherReleaseID = "33333333-3333-4333-8333-333333333333"
    static let releaseGroupID = "22222222-2222-4222-8222-222222222222"

    let root: String
    let database: AppDatabase
    /// Crate albums: three songs (release id), two discs (release-group id), untagged (by name), absent.
    let threeSongs: Int64
    let twoDiscs: Int64
    let untagged: Int64
    let absent: Int64

    /// - Parameter seconds: length of every track.
    init(directory: URL, seconds: Double = 0.3) throws {
        root = directory.appendingPathComponent("music").path
        let threeDir = root + "/Tagged Artist/Three Songs"
        for n in 1...3 {
            try AudioFixtures.flac(at: "\(threeDir)/0\(n).flac", seconds: seconds,
                                   tags: AudioFixtures.tags(artist: "Tagged Artist", album: "Three Songs", title: "Song \(n)", track: n,
                                                            releaseID: Self.releaseID))
        }
        // Two discs in CD1/CD2 folders; file names sort against the track tags, which must win.
        let twoDir = root + "/Double/Two Discs"
        for disc in 1...2 {
            for (name, track) in [("a", 2), ("b", 1)] {
                try AudioFixtures.flac(at: "\(twoDir)/CD\(disc)/\(name).flac", seconds: seconds,
                                       tags: AudioFixtures.tags(artist: "Double", album: "Two Discs", title: "D\(disc)T\(track)", track: track,
                                                                disc: disc, releaseID: Self.otherReleaseID, releaseGroupID: Self.releaseGroupID))
            }
        }
        // No tags at all: the folders name it.
        let untaggedDir = root + "/The Untagged/Nameless Album"
        try AudioFixtures.flac(at: untaggedDir + "/01 - First.flac", seconds: seconds)
        try AudioFixtures.flac(at: untaggedDir + "/02 - Second.flac", seconds: seconds)

        let database = try AppDatabase.inMemory()
        self.database = database
        func add(_ album: Album) throws -> Int64 {
            let entry = try database.saveScan(of: album, method: .manual)
            guard let id = entry.album.id else { throw CrateError.notFound("Saved album id") }
            return id
        }
        threeSongs = try add(Album(musicBrainzReleaseID: Self.releaseID, title: "Three Songs", artist: "Tagged Artist"))
        twoDiscs = try add(Album(musicBrainzReleaseID: "44444444-4444-4444-8444-444444444444", musicBrainzReleaseGroupID: Self.releaseGroupID,
                                 title: "Two Discs", artist: "Double"))
        untagged = try add(Album(title: "Nameless Album (Remastered)", artist: "Untagged"))
        absent = try add(Album(title: "Not Here", artist: "Nobody"))
    }

    func scan() throws -> MusicScanReport {
        try MusicIndexer.scan(folders: [root], database: database)
    }
}
