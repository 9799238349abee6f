import ArgumentParser
import CrateCore
import Foundation

/// `own`, `unown`, `want`, `unwant` and `collection`: the records the user owns and wants.
enum Collection {
    /// A crate album by its id (`crate history --json`, `crate collection --json`).
    static func album(_ text: String, in database: AppDatabase) throws -> Album {
        let trimmed = text.trimmingCharacters(in: .whitespaces)
        guard let id = Int64(trimmed), id >= 1, let album = try database.album(id: id) else {
            throw ValidationError("No album \(Terminal.field(String(trimmed.prefix(80)))) in the crate (see `crate collection --json` for ids).")
        }
        return album
    }

    static func name(_ album: Album) -> String { "\(Terminal.field(album.artist)) — \(Terminal.field(album.title))" }

    /// Runs `body` on the library with the album `text` names; a usage problem stays a usage
    /// problem (exit 64), anything else is the core's message (exit 1).
    static func withAlbum(_ text: String, _ body: (AppDatabase, Album) throws -> Void) throws {
        do {
            let database = try openEnvironment().database
            try body(database, try album(text, in: database))
        } catch let error as ValidationError {
            throw error
        } catch {
            throw fail(error)
        }
    }
}

struct OwnCommand: ParsableCommand {
    static let configuration = CommandConfiguration(commandName: "own", abstract: "Add a copy of an album to what you own.")

    @Argument(help: "An album id from `crate collection --json` or `crate history --json`.")
    var albumID: String

    @Option(help: "The copy's format, e.g. \"12\\\" Vinyl\", \"CD\", \"Cassette\" (default: the release's).")
    var format: String?

    @Option(help: "The MusicBrainz release id of this copy (default: the album's release).")
    var release: String?

    @Option(help: "A note about this copy.")
    var note: String?

    func validate() throws {
        if let release, MBID(validating: release) == nil { throw ValidationError("--release must be a MusicBrainz release id.") }
    }

    func run() throws {
        try Collection.withAlbum(albumID) { database, album in
            let copy = try database.own(albumID: album.id ?? -1, format: format, releaseID: release.flatMap { MBID(validating: $0)?.rawValue }, note: note)
            let count = try database.read(CollectionStateRequest(albumID: album.id ?? -1)).copies.count
            Terminal.say("Owned: \(Collection.name(album))\(copy.format.map { " on \(Terminal.field($0))" } ?? "") (copy \(copy.id ?? 0); \(count) in all).")
        }
    }
}

struct UnownCommand: ParsableCommand {
    static let configuration = CommandConfiguration(commandName: "unown", abstract: "Remove a copy of an album from what you own.")

    @Argument(help: "An album id.")
    var albumID: String

    @Option(help: "The copy to remove (its id in `crate collection --json`); default: the newest.")
    var copy: Int64?

    func run() throws {
        try Collection.withAlbum(albumID) { database, album in
            guard let removed = try database.unown(albumID: album.id ?? -1, copyID: copy) else {
                throw ValidationError(copy == nil ? "You own no copy of \(Collection.name(album))." : "\(Collection.name(album)) has no copy \(copy ?? 0).")
            }
            Terminal.say("Removed copy \(removed.id ?? 0) of \(Collection.name(album)).")
        }
    }
}

struct WantCommand: ParsableCommand {
    static let configuration = CommandConfiguration(commandName: "want", abstract: "Put an album on your wantlist.")

    @Argument(help: "An album id.")
    var albumID: String

    func run() throws {
        try Collection.withAlbum(albumID) { database, album in
            try database.want(albumID: album.id ?? -1)
            Terminal.say("Wanted: \(Collection.name(album)).")
        }
    }
}

struct UnwantCommand: ParsableCommand {
    static let configuration = CommandConfiguration(commandName: "unwant", abstract: "Take an album off your wantlist.")

    @Argument(help: "An album id.")
    var albumID: String

    func run() throws {
        try Collection.withAlbum(albumID) { database, album in
            let was = try database.unwant(albumID: album.id ?? -1)
            Terminal.say(was == nil ? "\(Collection.name(album)) was not on your wantlist." : "No longer wanted: \(Collection.name(album)).")
        }
    }
}

struct CollectionCommand: ParsableCommand {
    static let configuration = CommandConfiguration(commandName: "collection", abstract: "List the albums you own, want, or have seen.")

    @Flag(help: "Which albums: every album you have seen (the default), the ones you own, or the ones you want.")
    var filter: CollectionFilter = .seen

    @Flag(help: "Print JSON: one object with the counts and the albums.")
    var json = false

    func run() throws {
        do {
            let database = try openEnvironment().database
            let albums = try database.read(CollectionAlbumsRequest(filter))
            let counts = try database.read(CollectionCountsRequest())
            if json {
                struct AlbumOut: Encodable {
                    let id: Int64?
                    let title, artist: String
                    let year, label: String?
                    let musicbrainz_release_id, musicbrainz_release_group_id: String?
                    let owned, wanted: Bool
                    let copies: [CopyJSON]
                    let release: ReleaseJSON
                }
                struct Out: Encodable {
                    let filter: String
                    let counts: [String: Int]
                    let albums: [AlbumOut]
                }
                var out: [AlbumOut] = []
                for album in albums {
                    let state = try database.read(CollectionStateRequest(albumID: album.id ?? -1))
                    out.append(AlbumOut(id: album.id, title: album.title, artist: album.artist, year: album.year, label: album.label,
                                        musicbrainz_release_id: album.musicBrainzReleaseID, musicbrainz_release_group_id: album.musicBrainzReleaseGroupID,
                                        owned: state.isOwned, wanted: state.isWanted, copies: state.copies.map { CopyJSON(copy: $0) },
                                        release: ReleaseJSON(facts: try database.releaseFacts(albumID: album.id ?? -1))))
                }
                let encoder = JSONEncoder()
                encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
                print(Terminal.json(try encoder.encode(Out(filter: filter.rawValue, counts: ["seen": counts.seen, "owned": counts.owned, "wanted": counts.wanted],
                                                          albums: out))))
                return
            }
            Terminal.say("Seen \(counts.seen) · Owned \(counts.owned) · Wanted \(counts.wanted)")
            for album in albums {
                let state = try database.read(CollectionStateRequest(albumID: album.id ?? -1))
                var marks: [String] = []
                if state.isOwned { marks.append(state.copies.count == 1 ? "owned" : "owned ×\(state.copies.count)") }
                if state.isWanted { marks.append("wanted") }
                let year = album.year.map { " (\(Terminal.field($0)))" } ?? ""
                print("\(album.id ?? 0)\t\(Collection.name(album))\(year)\(marks.isEmpty ? "" : "\t[\(marks.joined(separator: ", "))]")")
            }
        } catch {
            throw fail(error)
        }
    }
}

extension CollectionFilter: EnumerableFlag {}
