import ArgumentParser
import CrateCore
import Foundation

/// `crate genres`: the genre bar's super-genres and subcategories, with the MusicBrainz genres
/// and tags each one searches.
struct GenresCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "genres",
        abstract: "List the genres and their subcategories, with the MusicBrainz genres behind them."
    )

    @Flag(help: "Print JSON instead of a list.")
    var json = false

    func run() throws {
        let taxonomy: GenreTaxonomy
        do {
            taxonomy = try GenreTaxonomy.load()
        } catch {
            throw fail(error)
        }
        if json {
            print(try GenresJSON.render(taxonomy))
            return
        }
        for genre in taxonomy.genres {
            Terminal.say("\(genre.displayName) [\(genre.id)]: \(Self.tags(genre.entry))")
            for sub in genre.subcategories {
                Terminal.say("  \(sub.displayName) [\(sub.id)]: \(Self.tags(sub))")
            }
        }
    }

    static func tags(_ entry: GenreEntry) -> String {
        entry.searchTags.joined(separator: ", ")
    }
}

/// The JSON shape of `crate genres --json`.
enum GenresJSON {
    struct Entry: Encodable {
        let id: String
        let name: String
        let musicbrainz_genres: [String]
        let tags: [String]
        let subcategories: [Entry]?
    }

    static func render(_ taxonomy: GenreTaxonomy) throws -> String {
        let items = taxonomy.genres.map { genre in
            Entry(id: genre.id, name: genre.name, musicbrainz_genres: genre.entry.musicBrainz, tags: genre.entry.tags,
                  subcategories: genre.subcategories.map { Entry(id: $0.id, name: $0.name, musicbrainz_genres: $0.musicBrainz, tags: $0.tags, subcategories: nil) })
        }
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        return Terminal.json(try encoder.encode(items))
    }
}
