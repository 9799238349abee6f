import CrateCore
import Foundation
import Testing

/// `crate` with its plugins missing (CRATE_PLUGIN_DIR pointed at an empty folder): playback and
/// tier-0 verification say so through a typed error, and the process exits normally.
@Suite("crate without its plugins", .tags(.process))
struct MissingPluginTests {
    @Test("crate play without the playback engine: a clear message, exit 1, no crash")
    func playWithoutTheEngine() async throws {
        let cli = try CLIRunner()
        let (music, withFiles, _) = try MusicCommandTests.setUp(cli)
        _ = try await cli.run(["music", "scan", music])
        let empty = cli.root.appendingPathComponent("no-plugins").path
        try FileManager.default.createDirectory(atPath: empty, withIntermediateDirectories: true)
        let play = try await cli.run(["play", "\(withFiles)"],
                                     extraEnvironment: ["CRATE_AUDIO_SINK": "fakesink sync=true", "CRATE_PLUGIN_DIR": empty])
        #expect(play.status == 1, "\(play.stderr)")
        #expect(play.stderr.contains(PluginError.notInstalled(.gstreamer, searched: [empty]).message))
        #expect(!play.stdout.contains("\"state\":\"playing\""))
        // The simulated stand-in needs no plugin.
        let simulated = try await cli.run(["play", "\(withFiles)", "--simulate-seconds", "5"], extraEnvironment: ["CRATE_PLUGIN_DIR": empty])
        #expect(!simulated.stderr.contains("not installed"))
    }

    @Test("Without verification tier 0 answers nothing (as for an album without artwork); with it, the same photo is found")
    func scanWithoutVerification() async throws {
        let cli = try ScanCommandTests.seededCLI()
        let photo = ScanCommandTests.fixtures.appendingPathComponent("photos/cover-00-photo-0.jpg").path
        let empty = cli.root.appendingPathComponent("no-plugins").path
        try FileManager.default.createDirectory(atPath: empty, withIntermediateDirectories: true)
        let without = try await cli.run(["scan", "--json", "--offline", photo], extraEnvironment: ["CRATE_PLUGIN_DIR": empty])
        #expect(without.status == 2, "\(without.stderr)")
        #expect(without.stdout.contains("\"not_identified\""))
        let with = try await cli.run(["scan", "--json", "--offline", photo])
        #expect(with.status == 0, "\(with.stderr)")
        #expect(with.stdout.contains("\"identified\""))
    }
}
