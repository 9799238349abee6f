import ArgumentParser
import CrateCore
import Foundation

/// What `favorite`, `dislike` and `unrate` share: find the album (a crate album id, or a release
/// group MBID from `crate wall`), rate it, and send the feedback to ListenBrainz when a token is set.
enum Rating {
    static func apply(_ rating: AlbumRating?, to albumID: String) async throws {
        let environment: AppEnvironment
        let service: WallService
        let album: RatedAlbum
        do {
            environment = try openEnvironment()
            service = try environment.services().wallService()
            album = try resolve(albumID, in: environment.database)
            try service.rate(album, rating)
        } catch {
            throw fail(error)
        }
        let name = "\(Terminal.field(album.artist)) — \(Terminal.field(album.title))"
        switch rating {
        case .favourite: Terminal.say("♥ \(name) is a favourite.")
        case .dislike: Terminal.say("✕ \(name) is disliked; it will not appear on the wall.")
        case nil: Terminal.say("\(name) is no longer rated.")
        }
        guard service.sendsFeedback else { return }
        let summary = await service.sendFeedback()
        if summary.sent > 0 {
            Terminal.say("Sent to ListenBrainz.")
        } else if let error = summary.lastError {
            Terminal.warn("Kept to send to ListenBrainz later: \(error)")
        }
    }

    /// A crate album id (`crate history --json`) or a release group MBID (`crate wall`).
    static func resolve(_ text: String, in database: AppDatabase) throws -> RatedAlbum {
        let trimmed = text.trimmingCharacters(in: .whitespaces)
        if let id = Int64(trimmed), id >= 1 {
            guard let found = try database.read(RatedCrateAlbumRequest(albumID: id)) else { throw WallError.unknownAlbum(trimmed) }
            guard let rated = found.rated else { throw WallError.albumWithoutReleaseGroup(found.album.title) }
            return rated
        }
        guard let group = MBID(validating: trimmed), let rated = try database.read(RatedAlbumRequest(releaseGroupID: group)) else {
            throw WallError.unknownAlbum(Terminal.field(String(trimmed.prefix(80))))
        }
        return rated
    }
}

struct FavoriteCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(commandName: "favorite", abstract: "Heart an album (sent to ListenBrainz as love when a token is set).")

    @Argument(help: "An album id from `crate history --json`, or a release group id from `crate wall`.")
    var albumID: String

    func run() async throws { try await Rating.apply(.favourite, to: albumID) }
}

struct DislikeCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(commandName: "dislike", abstract: "Never show an album on the wall again (sent to ListenBrainz as hate when a token is set).")

    @Argument(help: "An album id from `crate history --json`, or a release group id from `crate wall`.")
    var albumID: String

    func run() async throws { try await Rating.apply(.dislike, to: albumID) }
}

struct UnrateCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(commandName: "unrate", abstract: "Clear an album's heart or ✕ (and its ListenBrainz feedback).")

    @Argument(help: "An album id from `crate history --json`, or a release group id from `crate wall`.")
    var albumID: String

    func run() async throws { try await Rating.apply(nil, to: albumID) }
}

/// `crate feedback status|send`: the outbox of ListenBrainz feedback.
struct FeedbackCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "feedback",
        abstract: "The favourites and dislikes waiting to be sent to ListenBrainz.",
        subcommands: [Status.self, Send.self]
    )

    struct Status: ParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Show what is waiting, sent and failed.")

        @Flag(help: "Print JSON.")
        var json = false

        func run() throws {
            let status: FeedbackStatus
            let token: Bool
            do {
                let environment = try openEnvironment()
                status = try environment.database.read(FeedbackStatusRequest())
                token = environment.keys.listenBrainzToken().token != nil
            } catch {
                throw fail(error)
            }
            if json {
                struct Out: Encodable {
                    let pending, sent, failed, superseded: Int
                    let token_set: Bool
                    let last_error: String?
                    let next_attempt_at: String?
                }
                let out = Out(pending: status.pending, sent: status.sent, failed: status.failed, superseded: status.superseded, token_set: token,
                              last_error: status.lastError, next_attempt_at: status.nextAttemptAt.map { ISO8601DateFormatter().string(from: $0) })
                let encoder = JSONEncoder()
                encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
                print(Terminal.json(try encoder.encode(out)))
                return
            }
            Terminal.say("Waiting: \(status.pending)  Sent: \(status.sent)  Failed: \(status.failed)  Replaced by a later rating: \(status.superseded)")
            if !token { Terminal.say("No ListenBrainz token is set, so ratings stay in Crate (set CRATE_LISTENBRAINZ_TOKEN or save it in Preferences).") }
            if let error = status.lastError { Terminal.say("Last problem: \(error)") }
        }
    }

    struct Send: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Send what is due now.")

        func run() async throws {
            let summary: FeedbackRunSummary
            do {
                let service = try openEnvironment().services().wallService()
                guard service.sendsFeedback else { throw ListenBrainzError.noToken }
                summary = await service.sendFeedback()
            } catch {
                throw fail(error)
            }
            Terminal.say("Sent \(summary.sent) album(s); \(summary.deferred) to retry later; \(summary.failed) failed.")
            if let error = summary.lastError { Terminal.warn(error) }
        }
    }
}
