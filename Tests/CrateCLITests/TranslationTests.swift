import Foundation
import Testing

/// A real process in the pseudo-locale: the catalogue compiled from po/en@pseudo.po is found
/// through CRATE_LOCALE_DIR and the core's messages come out translated; without LANGUAGE they
/// stay English.
@Suite("Translated CLI output")
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
}
