import Foundation
import Testing
@testable import CrateCore

@Suite("Control characters in log lines and JSON")
struct TerminalTextTests {
    static let hostile = "Tier 0 notice \u{1B}]0;pwned\u{07}\u{1B}[2J and \u{9B}31m red, \u{202E}reversed\u{202C}\r\nforged line"

    /// Bug: terminal escapes from the network reached stderr through the log (`ESC]0;…BEL
    /// ESC[2J` in a tier-0 notice; raw player output). Every log line now spells out control and
    /// bidirectional characters and stays one line.
    @Test("A log line spells out every control and bidi character and stays on one line")
    func logLinesAreEscaped() {
        let line = Log.line(Self.hostile)
        #expect(line.hasPrefix("[crate] "))
        #expect(!line.unicodeScalars.contains { $0.value < 0x20 || (0x7F...0x9F).contains($0.value) || $0.value == 0x202E || $0.value == 0x202C })
        #expect(line.contains(#"\x1B]0;pwned\x07\x1B[2J"#))
        #expect(line.contains(#"\x9B31m"#))
        #expect(line.contains(#"\u{202E}reversed\u{202C}\x0D\x0Aforged line"#))
    }

    /// Bug: `--json` carried raw U+009B and U+202E (JSON encoders escape only C0). They are now
    /// written as `\uXXXX`, and the JSON still decodes to the same text.
    @Test("JSON escapes C1 and bidi controls and still decodes to the same text")
    func jsonIsEscaped() throws {
        let data = try JSONSerialization.data(withJSONObject: ["title": Self.hostile, "plain": "Sunn O))) & <b>x</b> é"], options: [.sortedKeys])
        let json = TerminalText.json(data)
        #expect(!json.unicodeScalars.contains { $0.value < 0x20 || (0x7F...0x9F).contains($0.value) || $0.value == 0x202E })
        #expect(json.contains(#"\u009B"#) && json.contains(#"\u202E"#))
        let decoded = try #require(try JSONSerialization.jsonObject(with: Data(json.utf8)) as? [String: String])
        #expect(decoded["title"] == Self.hostile)
        #expect(decoded["plain"] == "Sunn O))) & <b>x</b> é")
    }
}
