import ArgumentParser
import CrateCore
import Foundation

extension ListensCommand {
    /// Last.fm's desktop sign-in: a token, the user approves it in the browser, then the session
    /// key, saved like the other secrets (never printed).
    struct ConnectLastFM: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "connect-lastfm",
            abstract: "Let Crate scrobble to your Last.fm account (opens an approval page).",
            discussion: """
            Needs a Last.fm API account: the API key in CRATE_LASTFM_API_KEY (or settings.json, \
            "listens": {"lastFMAPIKey": …}) and the shared secret in CRATE_LASTFM_API_SECRET or \
            keys/lastfm-secret.key (mode 0600).
            """
        )

        func run() async throws {
            do {
                let environment = try openEnvironment()
                let settings = try environment.settings()
                let client = ListenSubmitters.lastFM(environment: environment, settings: settings)
                guard client.hasApplication else { throw ListenSubmitError.notConfigured(.lastFM) }
                let token = try await client.requestToken()
                guard let url = client.approvalURL(token: token) else { throw ListenSubmitError.notConfigured(.lastFM) }
                Terminal.say("Open this page, allow Crate, then press Enter here:\n\(url.absoluteString)")
                _ = readLine()
                let session = try await client.session(token: token)
                _ = try environment.keys.saveLastFMSession(session.key)
                var saved = try environment.savedSettings()
                saved.listens.lastFM = true
                saved.listens.lastFMUser = session.user.isEmpty ? nil : session.user
                try saved.save(paths: environment.paths)
                Terminal.say("Crate scrobbles to Last.fm as \(Terminal.field(session.user)).")
            } catch {
                throw fail(error)
            }
        }
    }
}
