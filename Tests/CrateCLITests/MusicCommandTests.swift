import CrateCore
import CrateTestSupport
import Foundation
import Testing

/// `crate music scan/status` and `crate play` with files, through the built binary.
@Suite("crate music", .tags(.process))
struct MusicCommandTests {
    /// A music folder with one tagged 3-track album, and a library holding it plus one album without files.
    static func setUp(_ cli: CLIRunner) throws -> (music: String, withFiles: Int64, withoutFiles: Int64) {
        let music = cli.root.appendingPathComponent("music").path
        for n in 1...3 {
            try AudioFixtures.flac(at: "\(music)/Band/Record/0\(n).flac", seconds: 0.2,
                                   tags: AudioFixtures.tags(artist: "Band", album: "Record", title: "Track \(n)", track: n))
        }
        let paths = CratePaths(environment: cli.environment)
        let database = try AppDatabase.open(paths: paths)
        let withFiles = try database.saveScan(of: Album(title: "Record (Deluxe Edition)", artist: "The Band"), method: .manual).album.id ?? 0
        let withoutFiles = try database.saveScan(of: Album(title: "Elsewhere", artist: "Nobody"), method: .manual).album.id ?? 0
        return (music, withFiles, withoutFiles)
    }

    /// `crate music status` says how the running window watches the folders (from the status
    /// file the window writes), and that nothing watches them when no window runs.
    @Test func statusSaysHowTheFoldersAreWatched() async throws {
        let cli = try CLIRunner()
        let music = cli.root.appendingPathComponent("music").path
        try FileManager.default.createDirectory(atPath: music, withIntermediateDirectories: true)
        let alone = try await cli.run(["music", "status"], extraEnvironment: ["CRATE_MUSIC_DIRS": music])
        #expect(alone.status == 0, "\(alone.stderr)")
        #expect(alone.stdout.contains("Not watched for changes: the window is not running"), "\(alone.stdout)")

        // As a window over budget writes it (this test process stands in for the window).
        let paths = CratePaths(environment: cli.environment)
        let status = MusicWatchStatus(pid: getpid(), directories: 9000, watched: 4096, unwatched: 4904, budget: 4096,
                                      maxUserWatches: 8192, kernelLimitReached: false, rescanSeconds: 120)
        try FileManager.default.createDirectory(at: paths.stateDirectory, withIntermediateDirectories: true)
        try JSONEncoder().encode(status).write(to: MusicWatchStatus.url(stateDirectory: paths.stateDirectory))
        let watched = try await cli.run(["music", "status"], extraEnvironment: ["CRATE_MUSIC_DIRS": music])
        #expect(watched.stdout.contains("Watched for changes: 4096 of 9000 folders (Crate's share of the system's inotify watches is 4096 of 8192); the other 4904 are re-indexed every 120 s."),
                "\(watched.stdout)")
        let json = try await cli.run(["music", "status", "--json"], extraEnvironment: ["CRATE_MUSIC_DIRS": music])
        let state = try JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [String: Any]
        let watch = state?["watch"] as? [String: Any]
        #expect(watch?["watched"] as? Int == 4096 && watch?["unwatched"] as? Int == 4904, "\(json.stdout)")
    }

    /// An album whose files carry R128_ALBUM_GAIN is not measured: the tag is its gain.
    @Test func analyzeLeavesAlbumsWithR128GainTagsToTheirTags() async throws {
        let cli = try CLIRunner()
        let music = cli.root.appendingPathComponent("music").path
        for n in 1...2 {
            var tags = AudioFixtures.tags(artist: "Band", album: "Tagged", title: "Track \(n)", track: n)
            tags["R128_ALBUM_GAIN"] = "-1280"
            try AudioFixtures.flac(at: "\(music)/Band/Tagged/0\(n).flac", seconds: 0.2, tags: tags)
        }
        let database = try AppDatabase.open(paths: CratePaths(environment: cli.environment))
        let id = try database.saveScan(of: Album(title: "Tagged", artist: "Band"), method: .manual).album.id ?? 0
        #expect(try await cli.run(["music", "scan", music]).status == 0)
        let analyze = try await cli.run(["music", "analyze"], extraEnvironment: ["CRATE_MUSIC_DIRS": music])
        #expect(analyze.status == 0 && analyze.stdout.contains("0 albums measured, 1 with R128 gain tags."), "\(analyze.stdout)\(analyze.stderr)")
        #expect(try database.albumGain(albumID: id) == nil)
    }

    @Test func scanStatusAndPlayForReal() async throws {
        let cli = try CLIRunner()
        let (music, withFiles, withoutFiles) = try Self.setUp(cli)
        let scan = try await cli.run(["music", "scan", music, "--json"])
        #expect(scan.status == 0, "\(scan.stderr)")
        let report = try JSONSerialization.jsonObject(with: Data(scan.stdout.utf8)) as? [String: Any]
        #expect(report?["files"] as? Int == 3)
        #expect(report?["albums"] as? Int == 1)
        #expect(report?["matched"] as? Int == 1)
        #expect(report?["unmatched"] as? Int == 1)

        let status = try await cli.run(["music", "status", "--json"], extraEnvironment: ["CRATE_MUSIC_DIRS": music])
        #expect(status.status == 0)
        let state = try JSONSerialization.jsonObject(with: Data(status.stdout.utf8)) as? [String: Any]
        #expect(state?["folders"] as? [String] == [music])
        let albums = state?["crateAlbums"] as? [[String: Any]] ?? []
        #expect(albums.first { ($0["id"] as? Int).map(Int64.init) == withFiles }?["match"] as? String == "matched")
        #expect(albums.first { ($0["id"] as? Int).map(Int64.init) == withoutFiles }?["match"] as? String == "none")

        let play = try await cli.run(["play", "\(withFiles)"], extraEnvironment: ["CRATE_AUDIO_SINK": "fakesink sync=true"])
        #expect(play.status == 0, "\(play.stderr)")
        let playing = play.stdout.split(separator: "\n").filter { $0.contains("\"state\":\"playing\"") }
        #expect(playing.count == 3)
        #expect(playing.allSatisfy { $0.contains("\"uri\":\"file://\(music)/Band/Record/") })
        #expect(play.stdout.contains("end_of_queue"))

        let absent = try await cli.run(["play", "\(withoutFiles)"], extraEnvironment: ["CRATE_AUDIO_SINK": "fakesink sync=true"])
        #expect(absent.status == 1)
        #expect(absent.stderr.contains("Not in your music folder"))
        #expect(!absent.stdout.contains("\"state\":\"playing\""))

        // The simulated stand-in is still there.
        let simulated = try await cli.run(["play", "\(withoutFiles)", "--simulate-seconds", "5"])
        #expect(simulated.stderr.contains("No track list"))
    }

    @Test func scanOfAMissingFolderIsAClearError() async throws {
        let cli = try CLIRunner()
        let result = try await cli.run(["music", "scan", cli.root.appendingPathComponent("nope").path])
        #expect(result.status == 1)
        #expect(result.stderr.contains("does not exist or is not a folder"))
    }

    /// `crate cds` looks in a folder `crate music scan DIR` indexed, though no setting names it;
    /// before that scan it says where it looked and how to add a folder.
    @Test func cdsUsesAFolderThatMusicScanIndexed() async throws {
        let cli = try CLIRunner()
        let (music, _, _) = try Self.setUp(cli)
        try "#EXTM3U\nBand/Record/02.flac\n".write(toFile: "\(music)/CDs.m3u", atomically: true, encoding: .utf8)
        let before = try await cli.run(["cds"])
        #expect(before.status == 1)
        #expect(before.stderr.contains("Looked in: \(cli.root.path)/Music."), "\(before.stderr)")
        #expect(before.stderr.contains("`crate music scan DIR`"), "\(before.stderr)")

        let scan = try await cli.run(["music", "scan", music])
        #expect(scan.status == 0, "\(scan.stderr)")
        let after = try await cli.run(["cds"])
        #expect(after.status == 0, "\(after.stderr)")
        #expect(after.stdout.contains("1. Band — Record, 3 tracks"), "\(after.stdout)")
        let json = try await cli.run(["cds", "--json"])
        #expect(json.stdout.contains("CDs.m3u"), "\(json.stdout)")
    }

    @Test func aBadSinkIsAClearError() async throws {
        let cli = try CLIRunner()
        let (music, withFiles, _) = try Self.setUp(cli)
        _ = try await cli.run(["music", "scan", music])
        let play = try await cli.run(["play", "\(withFiles)"], extraEnvironment: ["CRATE_AUDIO_SINK": "nosuchsink"])
        #expect(play.status == 1)
        #expect(play.stderr.contains("CRATE_AUDIO_SINK=nosuchsink is not a GStreamer audio sink"))
    }
}
