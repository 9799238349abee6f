import ArgumentParser
import CrateCore
import Foundation

/// `crate genre NAME [--sub SUB…]`: a genre feed blending six signals (personal history,
/// recommendations, trending, new releases, subcategory rotation, seed expansion) by the dial.
struct GenreCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "genre",
        abstract: "Show a genre's feed of albums (see `crate genres` for the names).",
        discussion: "Several --sub options search those subcategories side by side and merge the answers."
    )

    @Argument(help: "The genre, by id or name (\"rock\", \"Hip-Hop\").")
    var name: String

    @Option(name: .customLong("sub"), help: "A subcategory of the genre (repeatable).")
    var subcategories: [String] = []

    @Option(help: "The Crate Dial: my-crate, curated, mixed, deep-dig or mystery (default: the wall's last one, else mixed).")
    var dial: CrateDialPosition?

    @Option(help: "Albums in the feed.")
    var count: Int = WallService.pageSize

    @Flag(help: "Print JSON instead of lines.")
    var json = false

    func validate() throws {
        try OptionRange.check(count, in: WallCommand.countRange, name: "--count")
    }

    func run() async throws {
        do {
            // The name is checked before anything is opened: a typo answers at once.
            let scope = try GenreScope(taxonomy: try GenreTaxonomy.load(), genre: name, subcategories: subcategories)
            let environment = try openEnvironment()
            let position = try dial ?? environment.database.read(WallDialRequest())
            let feed = try await environment.services().genreFeed(scope, dial: position, count: count)
            print(try GenreFeedJSON.render(feed, asJSON: json))
            if feed.items.isEmpty {
                for (signal, reason) in feed.unavailable.sorted(by: { $0.key < $1.key }) { Terminal.warn("\(signal.title): \(reason)") }
                throw fail(GenreFeedError.noResults(scope.displayTitle))
            }
            if !json {
                for (signal, reason) in feed.unavailable.sorted(by: { $0.key < $1.key }) { Terminal.warn("Unavailable — \(signal.title): \(reason)") }
            }
        } catch let exit as ExitCode {
            throw exit
        } catch {
            throw fail(error)
        }
    }
}

/// The shapes `crate genre` prints.
enum GenreFeedJSON {
    struct Item: Encodable {
        let signal: String
        let title: String
        let artist: String
        let musicbrainz_release_group_id: String
        let art_url: String?
    }

    struct Missing: Encodable {
        let signal: String
        let reason: String
    }

    struct Feed: Encodable {
        let genre: String
        let subcategories: [String]
        let title: String
        let dial: String
        let items: [Item]
        let unavailable: [Missing]
    }

    static func render(_ feed: GenreFeed, asJSON: Bool) throws -> String {
        let missing = feed.unavailable.sorted { $0.key < $1.key }
        if asJSON {
            let value = Feed(genre: feed.scope.genre.id, subcategories: feed.scope.selected.map(\.id), title: feed.scope.title, dial: feed.dial.rawValue,
                             items: feed.items.map { Item(signal: $0.signal.rawValue, title: $0.item.title, artist: $0.item.artist,
                                                          musicbrainz_release_group_id: $0.item.releaseGroupID.rawValue, art_url: $0.item.artURL?.absoluteString) },
                             unavailable: missing.map { Missing(signal: $0.key.rawValue, reason: $0.value) })
            let encoder = JSONEncoder()
            encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
            return Terminal.json(try encoder.encode(value))
        }
        var lines = ["\(feed.scope.displayTitle) (\(feed.dial.rawValue))"]
        for entry in feed.items {
            lines.append("\(entry.item.releaseGroupID.rawValue)\t\(entry.signal.rawValue)\t\(Terminal.field(entry.item.artist)) — \(Terminal.field(entry.item.title))")
        }
        return lines.joined(separator: "\n")
    }
}
