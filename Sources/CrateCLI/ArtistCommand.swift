import ArgumentParser
import CrateCore
import Foundation

/// `crate artist`: an artist's albums and EPs from MusicBrainz, oldest first, cached in the
/// library (a second run reads the cache and needs no network).
struct ArtistCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "artist",
        abstract: "List an artist's albums and EPs, oldest first (live albums, compilations and the like in their own section).",
        discussion: "When several artists share the name, they are listed with their MusicBrainz scores: run again with --mbid."
    )

    @Argument(help: "The artist's name.")
    var name: String?

    @Option(help: "The artist's MusicBrainz identifier (from a list of namesakes).")
    var mbid: String?

    @Flag(help: "Fetch the catalogue from MusicBrainz again even if it is saved.")
    var refresh = false

    @Flag(help: "Print JSON.")
    var json = false

    func validate() throws {
        switch (name?.trimmingCharacters(in: .whitespacesAndNewlines).isEmpty == false, mbid) {
        case (true, .some): throw ValidationError("Give a name or --mbid, not both.")
        case (false, nil): throw ValidationError("Give the artist's name, or --mbid.")
        default: break
        }
        if let mbid, MBID(validating: mbid) == nil {
            throw ValidationError("--mbid \(Terminal.field(mbid)) is not a MusicBrainz identifier (8-4-4-4-12 hexadecimal digits).")
        }
    }

    func run() async throws {
        // The library once; a complete cached catalogue is printed from it without the Secret
        // Service probe, the settings or any client (a cached run is SQLite only, offline too).
        let paths = CratePaths()
        let database: AppDatabase
        let cache: ArtistCatalogueService
        do {
            database = try openDatabase(paths: paths)
            cache = ArtistCatalogueService(client: nil, database: database)
            if !refresh, let catalogue = try cachedCatalogue(cache) {
                try show(catalogue)
                return
            }
        } catch {
            throw fail(error)
        }
        // Otherwise MusicBrainz: only its client is built, on the library already open.
        let service: ArtistCatalogueService
        do {
            let environment = AppEnvironment.live(database: database, paths: paths)
            let client = MusicBrainzClient.live(settings: try environment.settings(), transport: environment.transport, limiter: environment.limiter)
            service = ArtistCatalogueService(client: client, database: database)
        } catch {
            throw fail(error)
        }

        var artistID = mbid.flatMap { MBID(validating: $0) }
        var chosen: ArtistCandidate?
        if artistID == nil, let name {
            let wanted = name.trimmingCharacters(in: .whitespacesAndNewlines)
            do {
                switch try await service.resolve(name: wanted) {
                case .unique(let artist):
                    chosen = artist
                    artistID = artist.id
                case .ambiguous(let candidates):
                    if json {
                        print(try ArtistJSON.render(candidates: candidates, name: wanted))
                    } else {
                        Terminal.say("Several artists could be \u{201C}\(Terminal.field(wanted))\u{201D}. Choose one with --mbid:")
                        for candidate in candidates {
                            let details = candidate.details.isEmpty ? "" : " \u{2014} \(Terminal.field(candidate.details))"
                            Terminal.say("  \(candidate.score)\t\(candidate.id)\t\(Terminal.field(candidate.name))\(details)")
                        }
                    }
                    throw ExitCode(2)
                }
            } catch let exit as ExitCode {
                throw exit
            } catch {
                throw fail(error)
            }
        }
        guard let artistID else { throw fail(ArtistCatalogueError.notCached) }

        let catalogue: ArtistCatalogue
        do {
            catalogue = try await service.catalogue(artistID, name: chosen?.name, disambiguation: chosen?.disambiguation, refresh: refresh)
        } catch {
            throw fail(error)
        }
        try show(catalogue)
    }

    /// The complete cached catalogue asked for: by --mbid, or the one cached artist with exactly
    /// this name (several cached namesakes, or none: nil, and MusicBrainz is asked).
    private func cachedCatalogue(_ cache: ArtistCatalogueService) throws -> ArtistCatalogue? {
        let id: MBID?
        if let mbid {
            id = MBID(validating: mbid)
        } else if let name {
            id = try cache.cachedArtist(name: name.trimmingCharacters(in: .whitespacesAndNewlines), releaseGroup: nil)?.id
        } else {
            id = nil
        }
        guard let id, let catalogue = try cache.cached(id), catalogue.isComplete else { return nil }
        return catalogue
    }

    private func show(_ catalogue: ArtistCatalogue) throws {
        if json {
            print(try ArtistJSON.render(catalogue))
        } else {
            Terminal.say(Self.text(catalogue))
        }
    }

    static func text(_ catalogue: ArtistCatalogue) -> String {
        let name = catalogue.name.map(Terminal.field) ?? catalogue.artistID.rawValue
        let count = catalogue.releaseGroups.count
        var lines = ["\(name) \u{2014} \(count) album\(count == 1 ? "" : "s") and EPs on MusicBrainz"]
        if count == 0 { lines.append("MusicBrainz lists no albums or EPs for this artist.") }
        for (section, entries) in catalogue.sections {
            lines.append("")
            lines.append(section.title)
            for entry in entries {
                let date = entry.firstReleaseDate ?? "undated"
                let kinds = ([entry.primaryType].compactMap { $0 } + entry.secondaryTypes).joined(separator: ", ")
                lines.append("  \(date.padding(toLength: 10, withPad: " ", startingAt: 0))  \(Terminal.field(entry.title))  [\(Terminal.field(kinds))]")
            }
        }
        return lines.joined(separator: "\n")
    }
}

/// The JSON shapes of `crate artist --json`.
enum ArtistJSON {
    struct ReleaseGroup: Encodable {
        let id: String
        let title: String
        let first_release_date: String?
        let primary_type: String?
        let secondary_types: [String]
        let section: String
    }

    struct Catalogue: Encodable {
        let artist_id: String
        let name: String?
        let disambiguation: String?
        let complete: Bool
        let release_group_count: Int
        /// Oldest first, undated last.
        let release_groups: [ReleaseGroup]
    }

    struct Candidate: Encodable {
        let id: String
        let name: String
        let score: Int
        let disambiguation: String?
        let type: String?
        let country: String?
    }

    struct Ambiguous: Encodable {
        let ambiguous: Bool
        let query: String
        let candidates: [Candidate]
    }

    static func render(_ catalogue: ArtistCatalogue) throws -> String {
        try encode(Catalogue(
            artist_id: catalogue.artistID.rawValue, name: catalogue.name, disambiguation: catalogue.disambiguation,
            complete: catalogue.isComplete, release_group_count: catalogue.total,
            release_groups: catalogue.releaseGroups.map {
                ReleaseGroup(id: $0.id.rawValue, title: $0.title, first_release_date: $0.firstReleaseDate, primary_type: $0.primaryType,
                             secondary_types: $0.secondaryTypes, section: $0.section.rawValue)
            }
        ))
    }

    static func render(candidates: [ArtistCandidate], name: String) throws -> String {
        try encode(Ambiguous(ambiguous: true, query: name, candidates: candidates.map {
            Candidate(id: $0.id.rawValue, name: $0.name, score: $0.score, disambiguation: $0.disambiguation, type: $0.type, country: $0.country)
        }))
    }

    private static func encode<T: Encodable>(_ value: T) throws -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        return Terminal.json(try encoder.encode(value))
    }
}
