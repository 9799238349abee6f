import CrateCore
import Foundation
import Testing

/// Runs the built `crate` binary against a scratch library.
@Suite("crate play", .tags(.process))
struct PlayCommandTests {
    /// The `crate` executable sits next to the test bundle in the build directory.
    static let binary = URL(fileURLWithPath: "/proc/self/exe").resolvingSymlinksInPath()
        .deletingLastPathComponent().appendingPathComponent("crate")

    typealias Run = CLIRunner.Result

    /// A scratch set of Crate directories, with a library of three albums (the middle one has no track list).
    final class Scratch {
        let root = FileManager.default.temporaryDirectory.appendingPathComponent("crate-cli-\(UUID().uuidString)")
        var paths: CratePaths {
            CratePaths(
                dataDirectory: root.appendingPathComponent("data"),
                cacheDirectory: root.appendingPathComponent("cache"),
                configDirectory: root.appendingPathComponent("config"),
                stateDirectory: root.appendingPathComponent("state")
            )
        }
        var environment: [String: String] {
            var env = ProcessInfo.processInfo.environment
            env["CRATE_DATA_DIR"] = paths.dataDirectory.path
            env["CRATE_CACHE_DIR"] = paths.cacheDirectory.path
            env["CRATE_CONFIG_DIR"] = paths.configDirectory.path
            env["CRATE_STATE_DIR"] = paths.stateDirectory.path
            return env
        }

        func makeLibrary() throws -> [Int64] {
            let database = try AppDatabase.open(paths: paths)
            var ids: [Int64] = []
            let albums: [(String, [(Int, Int, String)])] = [
                ("First", [(1, 1, "Intro"), (1, 2, "Song")]),
                ("Missing", []),
                ("Double", [(2, 1, "Side C"), (1, 1, "Intro")]),
            ]
            for (title, tracks) in albums {
                let entry = try database.saveScan(of: Album(title: title, artist: "Band"), method: .manual)
                guard let id = entry.album.id else { throw CrateError.notFound("Album id") }
                try database.replaceTracks(tracks.map { Track(albumID: id, disc: $0.0, position: $0.1, title: $0.2, durationMs: 1_000) }, forAlbum: id)
                ids.append(id)
            }
            return ids
        }

        deinit { try? FileManager.default.removeItem(at: root) }
    }

    /// Runs on its own thread so waiting for the child never blocks the cooperative pool.
    func crate(_ arguments: [String], in scratch: Scratch) async throws -> Run {
        let environment = scratch.environment
        return try await BlockingWork.run { try CLIRunner.runBlocking(arguments, environment: environment) }
    }

    @Test func binaryIsNextToTheTestBundle() {
        #expect(FileManager.default.isExecutableFile(atPath: Self.binary.path))
    }

    @Test func playsAThreeAlbumGridAndPrintsTheLog() async throws {
        let scratch = Scratch()
        let ids = try scratch.makeLibrary()
        let grid = ids.map(String.init).joined(separator: ",")
        let run = try await crate(["play", "\(ids[0])", "--from-grid", grid, "--simulate"], in: scratch)
        #expect(run.status == 0, "stderr: \(run.stderr)")
        let lines = run.stdout.split(separator: "\n").map(String.init)
        let decoded = try lines.map { try JSONDecoder().decode(PlaybackLogLine.self, from: Data($0.utf8)) }
        let played = decoded.filter { $0.state == "playing" }.compactMap { line in line.track.map { "\(line.album_id ?? 0):\($0.title)" } }
        #expect(played == ["\(ids[0]):Intro", "\(ids[0]):Song", "\(ids[2]):Intro", "\(ids[2]):Side C"])
        #expect(decoded.last?.reason == "end_of_queue")
        #expect(run.stderr.contains("No track list for this album"))
        // The same lines went to playback.log in the state directory.
        let file = try String(contentsOf: PlaybackLog.defaultURL(paths: scratch.paths), encoding: .utf8)
        #expect(file.split(separator: "\n").map(String.init) == lines)
    }

    @Test func simulateSecondsStopsPlaybackThere() async throws {
        let scratch = Scratch()
        let ids = try scratch.makeLibrary()
        let run = try await crate(["play", "\(ids[0])", "--simulate-seconds", "1"], in: scratch)
        #expect(run.status == 0)
        let last = run.stdout.split(separator: "\n").suffix(2).map(String.init)
        #expect(last.first?.contains("\"command\":\"stop\",\"elapsed_ms\":1000") == true)
    }

    @Test func unknownAlbumFailsWithAClearMessage() async throws {
        let scratch = Scratch()
        _ = try scratch.makeLibrary()
        let run = try await crate(["play", "424242"], in: scratch)
        #expect(run.status == 1)
        #expect(run.stderr == "crate: No album with id 424242 in your crate.\n")
        #expect(run.stdout.isEmpty)
    }

    @Test func albumMissingFromItsGridIsRefused() async throws {
        let scratch = Scratch()
        let ids = try scratch.makeLibrary()
        let run = try await crate(["play", "\(ids[0])", "--from-grid", "\(ids[2])"], in: scratch)
        #expect(run.status == 1)
        #expect(run.stderr.contains("is not in the grid"))
    }
}
