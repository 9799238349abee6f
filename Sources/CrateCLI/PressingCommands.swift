import ArgumentParser
import CrateCore
import Foundation

/// `crate pressings ALBUM_ID`: the releases of an album's release group, with what tells them
/// apart; the album's own release is marked `*`.
struct PressingsCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "pressings",
        abstract: "List the pressings (releases) of an album: format, country, year, label, catalogue number, barcode.",
        discussion: "The album's current pressing is marked with *. Switch with `crate pressing ALBUM_ID --release MBID`."
    )

    @Argument(help: "An album id from `crate collection --json` or `crate history --json`.")
    var albumID: String

    @Flag(help: "Print JSON: the album id, its current release id and the pressings.")
    var json = false

    func run() async throws {
        let album: Album
        let pressings: [Pressing]
        do {
            let environment = try openEnvironment()
            album = try Collection.album(albumID, in: environment.database)
            pressings = try await environment.services().makeScanPipeline().pressings(ofAlbum: album.id ?? -1)
        } catch let error as ValidationError {
            // Bad input is exit 1 here, like every other refusal of these commands.
            Terminal.warn(error.message)
            throw ExitCode(1)
        } catch {
            throw fail(error)
        }
        let current = album.musicBrainzReleaseID
        if json {
            print(Terminal.json(try Self.json(albumID: album.id ?? -1, current: current, pressings: pressings)))
            return
        }
        Terminal.say("\(Collection.name(album)): \(pressings.count) \(pressings.count == 1 ? "pressing" : "pressings") on MusicBrainz.")
        for pressing in pressings {
            let mark = pressing.releaseID.rawValue == current ? "*" : " "
            let facts = pressing.distinguishing.map(Terminal.field) ?? "(no details on MusicBrainz)"
            print("\(mark) \(pressing.releaseID.rawValue)\t\(Terminal.field(pressing.title))\t\(facts)")
        }
    }

    static func json(albumID: Int64, current: String?, pressings: [Pressing]) throws -> Data {
        // Written by hand: nil values are written as null (every key always present).
        struct Item: Encodable {
            let musicbrainz_release_id: String
            let title: String
            let current: Bool
            let release: ReleaseJSON
            let distinguishing: String?

            func encode(to encoder: Encoder) throws {
                var c = encoder.container(keyedBy: AnyCodingKey.self)
                try c.encode(musicbrainz_release_id, forKey: "musicbrainz_release_id")
                try c.encode(title, forKey: "title")
                try c.encode(current, forKey: "current")
                try c.encode(release, forKey: "release")
                try c.encode(distinguishing, forKey: "distinguishing")
            }
        }
        struct Out: Encodable {
            let album_id: Int64
            let current_release_id: String?
            let pressings: [Item]

            func encode(to encoder: Encoder) throws {
                var c = encoder.container(keyedBy: AnyCodingKey.self)
                try c.encode(album_id, forKey: "album_id")
                try c.encode(current_release_id, forKey: "current_release_id")
                try c.encode(pressings, forKey: "pressings")
            }
        }
        let items = pressings.map {
            Item(musicbrainz_release_id: $0.releaseID.rawValue, title: $0.title, current: $0.releaseID.rawValue == current,
                 release: ReleaseJSON(facts: $0.facts), distinguishing: $0.distinguishing)
        }
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return try encoder.encode(Out(album_id: albumID, current_release_id: current, pressings: items))
    }
}

/// `crate pressing ALBUM_ID --release MBID`: switches the album to another pressing (its track
/// list, release facts and artwork follow).
struct PressingCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "pressing",
        abstract: "Switch an album to another pressing (a release listed by `crate pressings`)."
    )

    @Argument(help: "An album id.")
    var albumID: String

    @Option(help: "The MusicBrainz release id of the pressing (from `crate pressings ALBUM_ID`).")
    var release: String

    func run() async throws {
        do {
            let environment = try openEnvironment()
            let album = try Collection.album(albumID, in: environment.database)
            let switched = try await environment.services().makeScanPipeline().switchPressing(albumID: album.id ?? -1, releaseID: release)
            let switchedID = switched.id ?? -1
            let facts = try environment.database.releaseFacts(albumID: switchedID)
            let line = facts?.distinguishing
            let merged = switchedID != album.id ? " (the crate already had this pressing as album \(switchedID); the two are one album now)" : ""
            Terminal.say("\(Collection.name(switched)) is now \(Terminal.field(switched.musicBrainzReleaseID ?? release))\(merged).")
            if let line { Terminal.say(Terminal.field(line)) }
            if switched.artworkStatus != .available { Terminal.say("Its cover is still to fetch: `crate repair` gets it.") }
        } catch let error as ValidationError {
            // Bad input is exit 1 here, like every other refusal of these commands.
            Terminal.warn(error.message)
            throw ExitCode(1)
        } catch {
            throw fail(error)
        }
    }
}

/// A coding key from a string literal, for the hand-written encoders above.
private struct AnyCodingKey: CodingKey, ExpressibleByStringLiteral {
    let stringValue: String
    var intValue: Int? { nil }
    init(stringValue: String) { self.stringValue = stringValue }
    init?(intValue: Int) { nil }
    init(stringLiteral value: String) { stringValue = value }
}
