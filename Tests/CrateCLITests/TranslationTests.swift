import Foundation
import Testing

/// A real process in the pseudo-locale: the catalogue compiled from po/en@pseudo.po is found
/// through CRATE_LOCALE_DIR and the core's messages come out translated; without LANGUAGE they
/// stay English.
@Suite("Translated CLI output", .tags(.process))
struct TranslationTests {
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    @Test func pseudoLocaleTranslatesTheCoreMessages() async throws {
        let cli = try CLIRunner()
        let locale = cli.root.appendingPathComponent("locale/en@pseudo/LC_MESSAGES")
        try FileManager.default.createDirectory(at: locale, withIntermediateDirectories: true)
        let msgfmt = Process()
        msgfmt.executableURL = URL(fileURLWithPath: "/usr/bin/msgfmt")  // gettext, scripts/install-deps
        msgfmt.arguments = ["--output-file=" + locale.appendingPathComponent("crate.mo").path,
                            Self.root.appendingPathComponent("po/en@pseudo.po").path]
        try msgfmt.run()
        msgfmt.waitUntilExit()
        #expect(msgfmt.terminationStatus == 0)

        let missing = cli.root.appendingPathComponent("no-such-photo.jpg").path
        let localeDir = cli.root.appendingPathComponent("locale").path
        let pseudo = try await cli.run(["scan", missing], extraEnvironment: ["CRATE_LOCALE_DIR": localeDir, "LANGUAGE": "en@pseudo", "LANG": "C.UTF-8"])
        #expect(pseudo.status != 0)
        #expect((pseudo.stdout + pseudo.stderr).contains("[\(missing) đööééš ñööţ ééxîîšţ.]"), "output: \(pseudo.stdout) \(pseudo.stderr)")

        let english = try await cli.run(["scan", missing], extraEnvironment: ["CRATE_LOCALE_DIR": localeDir, "LANG": "C.UTF-8"])
        #expect((english.stdout + english.stderr).contains("\(missing) does not exist."), "output: \(english.stdout) \(english.stderr)")
        #expect(!(english.stdout + english.stderr).contains("["))
    }

    /// The pseudo-locale's msgstr for `msgid` in `context` (one-line entries: the po is unwrapped).
    static func pseudo(_ msgid: String, context: String) throws -> String? {
        let lines = try String(contentsOf: root.appendingPathComponent("po/en@pseudo.po"), encoding: .utf8).components(separatedBy: "\n")
        for (index, line) in lines.enumerated() where line == "msgctxt \"\(context)\"" && index + 2 < lines.count
            && lines[index + 1] == "msgid \"\(msgid)\"" && lines[index + 2].hasPrefix("msgstr \"") {
            return String(lines[index + 2].dropFirst("msgstr \"".count).dropLast())
        }
        return nil
    }

    /// Text from the data files comes out translated too: the genre list's names (`crate genres`)
    /// in the pseudo-locale, while its ids and MusicBrainz tags stay as they are.
    @Test func pseudoLocaleTranslatesGenreNamesFromTheDataFile() async throws {
        let cli = try CLIRunner()
        let locale = cli.root.appendingPathComponent("locale/en@pseudo/LC_MESSAGES")
        try FileManager.default.createDirectory(at: locale, withIntermediateDirectories: true)
        let msgfmt = Process()
        msgfmt.executableURL = URL(fileURLWithPath: "/usr/bin/msgfmt")
        msgfmt.arguments = ["--output-file=" + locale.appendingPathComponent("crate.mo").path,
                            Self.root.appendingPathComponent("po/en@pseudo.po").path]
        try msgfmt.run()
        msgfmt.waitUntilExit()
        #expect(msgfmt.terminationStatus == 0)
        let rock = try #require(try Self.pseudo("Rock", context: "genres.json"))
        let postRock = try #require(try Self.pseudo("Post-Rock", context: "genres.json"))
        #expect(rock != "Rock" && postRock != "Post-Rock")

        let localeDir = cli.root.appendingPathComponent("locale").path
        let pseudo = try await cli.run(["genres"], extraEnvironment: ["CRATE_LOCALE_DIR": localeDir, "LANGUAGE": "en@pseudo", "LANG": "C.UTF-8"])
        #expect(pseudo.status == 0, "\(pseudo.stderr)")
        let lines = pseudo.stdout.components(separatedBy: "\n")
        #expect(lines.contains("\(rock) [rock]: rock"), "output: \(pseudo.stdout.prefix(400))")
        #expect(lines.contains { $0.hasPrefix("  \(postRock) [post-rock]: post-rock") }, "output: \(pseudo.stdout.prefix(2000))")

        let english = try await cli.run(["genres"], extraEnvironment: ["CRATE_LOCALE_DIR": localeDir, "LANG": "C.UTF-8"])
        #expect(english.stdout.components(separatedBy: "\n").contains("Rock [rock]: rock"), "output: \(english.stdout.prefix(400))")
    }
}
