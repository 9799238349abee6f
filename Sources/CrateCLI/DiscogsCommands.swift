import ArgumentParser
import CrateCore
import Foundation

/// `crate discogs status|add|send`: the album's standing in the user's Discogs account, and
/// additions through the library's outbox (docs/decisions/0044-discogs-account-and-outbox.md).
struct DiscogsCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "discogs",
        abstract: "Your Discogs collection and wantlist: status, additions, the outbox.",
        subcommands: [Status.self, Add.self, Send.self]
    )

    /// The library, the settings' account (nil without a token) and the token's key.
    static func open() throws -> (AppEnvironment, DiscogsAccount?, String?) {
        let environment = try openEnvironment()
        let token = environment.keys.discogsToken().token
        let account = DiscogsAccount.live(environment: environment, settings: try environment.settings(), token: token)
        return (environment, account, token.map(DiscogsAccount.tokenKey))
    }

    static func iso(_ date: Date?) -> String? { date.map { ISO8601DateFormatter().string(from: $0) } }

    struct Status: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Show an album's Discogs status (copies in your collection, on your wantlist), or the outbox without an album.")

        @Argument(help: "An album id from `crate collection --json` or `crate history --json`.")
        var albumID: String?

        @Flag(help: "Ask Discogs even when the cached status is recent.")
        var refresh = false

        @Flag(help: "Print JSON.")
        var json = false

        struct AlbumReport: Encodable {
            let album_id: Int64
            let discogs_release_id: Int?
            let copies: Int?
            let in_wantlist: Bool?
            let checked_at: String?
            let pending: [String]
            let problem: String?
        }

        struct OutboxReport: Encodable {
            let token: Bool
            let user: String?
            let queued, sent, failed: Int
            let last_error: String?
            let next_attempt_at: String?
        }

        func run() async throws {
            do {
                let (environment, account, key) = try DiscogsCommand.open()
                if let albumID {
                    try await albumStatus(albumID, environment: environment, account: account, key: key)
                } else {
                    try outboxStatus(environment: environment, key: key)
                }
            } catch let error as ValidationError {
                throw error
            } catch let error as ExitCode {
                throw error
            } catch {
                throw fail(error)
            }
        }

        private func albumStatus(_ text: String, environment: AppEnvironment, account: DiscogsAccount?, key: String?) async throws {
            let album = try Collection.album(text, in: environment.database)
            let id = album.id ?? -1
            var answer = try environment.database.read(DiscogsAlbumAccountRequest(albumID: id, tokenKey: key))
            var problem: String?
            if let account, let release = answer.releaseID {
                do {
                    answer.status = try await account.status(releaseID: release, force: refresh)
                } catch {
                    // Offline or refused: the cached status, and why it is not newer.
                    problem = UserMessage.text(for: error)
                    answer.status = try account.cachedStatus(releaseID: release)
                }
            } else if key == nil {
                problem = DiscogsAccountError.noToken.message
            } else if answer.releaseID == nil {
                problem = DiscogsAccountError.noRelease.message
            }
            let status = answer.status
            let report = AlbumReport(album_id: id, discogs_release_id: answer.releaseID, copies: status?.copies, in_wantlist: status?.inWantlist,
                                     checked_at: DiscogsCommand.iso(status?.copiesFetchedAt), pending: answer.pending.map(\.action.rawValue),
                                     problem: problem)
            if json { return try Terminal.printJSON(report) }
            Terminal.say("\(Collection.name(album)): Discogs release \(answer.releaseID.map(String.init) ?? "none")")
            if let line = status?.line {
                Terminal.say("  \(line)")
            } else if status?.copies != nil {
                Terminal.say("  Not in your Discogs collection or wantlist.")
            }
            for pending in answer.pending {
                let doing = pending.action == .addToCollection ? "Adding to your Discogs collection…" : "Adding to your wantlist…"
                Terminal.say("  \(doing)\(pending.error.map { " \(Terminal.field($0))" } ?? "")")
            }
            if let problem { Terminal.warn(problem) }
        }

        private func outboxStatus(environment: AppEnvironment, key: String?) throws {
            let outbox = try environment.database.read(DiscogsOutboxStatusRequest())
            let user = try key.flatMap { try environment.database.discogsUsername(tokenKey: $0) }
            let report = OutboxReport(token: key != nil, user: user, queued: outbox.queued, sent: outbox.sent, failed: outbox.failed,
                                      last_error: outbox.lastError, next_attempt_at: DiscogsCommand.iso(outbox.queued > 0 ? outbox.nextAttemptAt : nil))
            if json { return try Terminal.printJSON(report) }
            Terminal.say("Discogs: \(key == nil ? "no token" : "token set")\(user.map { " (\(Terminal.field($0)))" } ?? "")")
            Terminal.say("Outbox: queued \(outbox.queued), sent \(outbox.sent), failed \(outbox.failed)")
            if let error = outbox.lastError { Terminal.say("  Last problem: \(Terminal.field(error))") }
        }
    }

    struct Add: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Add an album's Discogs release to your Discogs collection or wantlist (queued, then sent).")

        @Argument(help: "An album id from `crate collection --json` or `crate history --json`.")
        var albumID: String

        @Flag(help: "Add a copy to your Discogs collection (a new copy each time).")
        var collection = false

        @Flag(help: "Put it on your Discogs wantlist.")
        var wantlist = false

        @Flag(help: "Print JSON.")
        var json = false

        func validate() throws {
            guard collection != wantlist else { throw ValidationError("Give one of --collection or --wantlist.") }
        }

        func run() async throws {
            struct Out: Encodable { let album_id: Int64; let discogs_release_id: Int; let action: String; let queued: Bool; let sent: Bool; let problem: String? }
            let action: DiscogsAction = collection ? .addToCollection : .addToWantlist
            let out: Out
            do {
                let (environment, account, key) = try DiscogsCommand.open()
                guard key != nil else { throw DiscogsAccountError.noToken }
                let album = try Collection.album(albumID, in: environment.database)
                let id = album.id ?? -1
                guard let release = try environment.database.read(DiscogsAlbumAccountRequest(albumID: id, tokenKey: key)).releaseID else {
                    throw DiscogsAccountError.noRelease
                }
                let queued = try environment.database.queueDiscogs(action, releaseID: release, albumID: id)
                let summary = await DiscogsOutboxSender(database: environment.database, account: account).run()
                let pending = try environment.database.read(DiscogsAlbumAccountRequest(albumID: id, tokenKey: key)).pending.first { $0.action == action }
                out = Out(album_id: id, discogs_release_id: release, action: action.rawValue, queued: queued, sent: pending == nil,
                          problem: pending == nil ? nil : (pending?.error ?? summary.lastError))
            } catch let error as ValidationError {
                throw error
            } catch {
                throw fail(error)
            }
            if json { return try Terminal.printJSON(out) }
            let target = action == .addToCollection ? "your Discogs collection" : "your Discogs wantlist"
            if out.sent {
                Terminal.say("Added to \(target) (release \(out.discogs_release_id)).")
            } else {
                Terminal.say("Queued for \(target); sent by `crate discogs send` or the window when Discogs can be reached.")
                if let problem = out.problem { Terminal.warn(problem) }
            }
        }
    }

    struct Send: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Send every queued Discogs addition now (waits after failures are skipped).")

        @Flag(help: "Print JSON.")
        var json = false

        func run() async throws {
            struct Out: Encodable { let sent, already_done, deferred, failed: Int; let token_refused: Bool; let last_error: String? }
            let summary: DiscogsOutboxSummary
            do {
                let (environment, account, _) = try DiscogsCommand.open()
                guard let account else { throw DiscogsAccountError.noToken }
                try environment.database.makeDiscogsActionsDue()
                let sender = DiscogsOutboxSender(database: environment.database, account: account)
                summary = try await Interrupt.cancellingOnSignal { await sender.run(limit: 500) }
            } catch {
                throw fail(error)
            }
            if json {
                try Terminal.printJSON(Out(sent: summary.sent, already_done: summary.alreadyDone, deferred: summary.deferred, failed: summary.failed,
                                                 token_refused: summary.tokenRefused, last_error: summary.lastError))
            } else {
                Terminal.say("Discogs: sent \(summary.sent); \(summary.alreadyDone) already there; \(summary.deferred) to retry later; \(summary.failed) failed.")
                if let error = summary.lastError { Terminal.warn(error) }
            }
            if summary.lastError != nil, summary.sent + summary.alreadyDone == 0, summary.deferred + summary.failed > 0 { throw ExitCode(1) }
        }
    }
}
