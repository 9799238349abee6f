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

/// `crate debug barcode`: the hook the scan's barcode step is built on.
@Suite("crate debug barcode", .tags(.process))
struct DebugBarcodeCommandTests {
    static let fixtures = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("Fixtures/barcodes")

    @Test("Prints the barcodes in a photo (lines and JSON); none: exit 2; without the plugin: the reason, exit 1")
    func barcodes() async throws {
        let cli = try CLIRunner()
        let photo = Self.fixtures.appendingPathComponent("000-clean-small.jpg").path
        let lines = try await cli.run(["debug", "barcode", photo])
        #expect(lines.status == 0, "\(lines.stderr)")
        // The manifest says 000-clean-small.jpg holds EAN-13 8015716242387.
        #expect(lines.stdout.contains("EAN-13 8015716242387"))
        let json = try await cli.run(["debug", "barcode", "--json", photo])
        let object = try #require(try JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [String: Any])
        let first = try #require((object["barcodes"] as? [[String: Any]])?.first)
        #expect(first["digits"] as? String == "8015716242387" && first["symbology"] as? String == "EAN-13" && first["valid"] as? Bool == true)
        let none = try await cli.run(["debug", "barcode", Self.fixtures.appendingPathComponent("004-none-small.jpg").path])
        #expect(none.status == 2 && none.stdout.contains("No barcode found."))
        let empty = cli.root.appendingPathComponent("no-plugins").path
        try FileManager.default.createDirectory(atPath: empty, withIntermediateDirectories: true)
        let without = try await cli.run(["debug", "barcode", photo], extraEnvironment: ["CRATE_PLUGIN_DIR": empty])
        #expect(without.status == 1)
        #expect(without.stderr.contains(BarcodeError.unavailable(.notInstalled(.barcode, searched: [empty])).message))
        let corrupt = cli.root.appendingPathComponent("corrupt.jpg")
        try Data((try Data(contentsOf: URL(fileURLWithPath: photo))).prefix(500)).write(to: corrupt)
        let damaged = try await cli.run(["debug", "barcode", corrupt.path])
        #expect(damaged.status == 1 && damaged.stderr.contains("damaged"), "\(damaged.stderr)")
    }
}
