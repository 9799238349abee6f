import CrateCore
import Foundation
import Testing

@Suite("Control characters in CLI output")
struct ControlCharacterOutputTests {
    /// Bug: `crate history --json` carried a title's raw U+009B (a one-byte CSI) and U+202E
    /// (right-to-left override) to the terminal. JSON output now escapes them as `\uXXXX`; the
    /// human output spells them out.
    @Test func historyEscapesC1AndBidiControlsInJSONAndText() async throws {
        let cli = try CLIRunner()
        let title = "Evil \u{9B}2J\u{202E}eltit"
        do {
            let db = try AppDatabase.open(paths: CratePaths(environment: cli.environment))
            try db.saveScan(of: Album(title: title, artist: "A\u{1B}]0;x\u{07}"), method: .vision)
        }
        let json = try await cli.run(["history", "--json"])
        #expect(json.status == 0)
        #expect(!json.stdout.unicodeScalars.contains { (0x7F...0x9F).contains($0.value) || $0.value == 0x202E || $0.value == 0x1B })
        let items = try #require(try JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [[String: Any]])
        #expect((items.first?["album"] as? [String: Any])?["title"] as? String == title)

        let text = try await cli.run(["history"])
        #expect(text.status == 0)
        #expect(!text.stdout.unicodeScalars.contains { (0x7F...0x9F).contains($0.value) || $0.value == 0x202E || $0.value == 0x1B })
    }
}
