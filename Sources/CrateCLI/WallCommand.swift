import ArgumentParser
import CrateCore
import Foundation

extension CrateDialPosition: ExpressibleByArgument {}

/// `crate wall`: builds a Crate Wall for a dial position, stores it as the wall the window shows
/// on its next launch, and prints it.
struct WallCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "wall",
        abstract: "Build a Crate Wall of albums from your listening, recommendations, charts, new releases and a wild card."
    )

    @Option(help: "The Crate Dial: my-crate, curated, mixed, deep-dig or mystery (default: the last one used, else mixed).")
    var dial: CrateDialPosition?

    @Option(help: "Albums on the wall.")
    var count: Int = WallService.pageSize

    @Flag(help: "Print JSON instead of lines.")
    var json = false

    @Flag(help: "Print the stored wall without asking any service.")
    var cached = false

    @Flag(help: "Also cache the wall's cover art (as the window does).")
    var artwork = false

    static let countRange = 1...500

    func validate() throws {
        try OptionRange.check(count, in: Self.countRange, name: "--count")
    }

    func run() async throws {
        let environment: AppEnvironment
        do {
            environment = try openEnvironment()
        } catch {
            throw fail(error)
        }
        let database = environment.database
        let table: CrateDialTable
        do {
            table = try CrateDialTable.standard(environment: environment.variables)
        } catch {
            throw fail(error)
        }
        if cached {
            guard let stored = try? database.read(StoredWallRequest()) else {
                Terminal.warn("No wall has been built yet. Run `crate wall` to build one.")
                throw ExitCode(1)
            }
            print(try WallJSON.render(stored: stored, table: table, asJSON: json))
            return
        }
        do {
            let service = try environment.services().wallService()
            let position = try dial ?? database.read(WallDialRequest())
            if database.isReadOnly, dial != nil { throw CrateError.databaseReadOnly }
            let built = try await service.refresh(dial: position, count: count)
            if built.items.isEmpty, let stored = try database.read(StoredWallRequest()), !stored.tiles.isEmpty {
                // Offline or every service down: the last wall stays.
                Terminal.warn("No source could be reached, so this is the last wall that was built.")
                for missing in built.unavailable { Terminal.warn("\(missing.signal.title): \(missing.reason)") }
                print(try WallJSON.render(stored: stored, table: table, asJSON: json))
                return
            }
            if artwork { await service.fetchArtwork() }
            print(try WallJSON.render(built: built, table: table, asJSON: json))
            if built.items.isEmpty {
                Terminal.warn("No source could be reached, and no wall was built before.")
                for missing in built.unavailable { Terminal.warn("\(missing.signal.title): \(missing.reason)") }
                throw ExitCode(1)
            }
            if !json {
                for missing in built.unavailable { Terminal.warn("Unavailable — \(missing.signal.title): \(missing.reason)") }
            }
        } catch let exit as ExitCode {
            throw exit
        } catch {
            throw fail(error)
        }
    }
}

/// The shapes `crate wall` prints.
enum WallJSON {
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

    struct Wall: Encodable {
        let dial: String
        let dial_title: String
        let dial_sentence: String
        let items: [Item]
        let unavailable: [Missing]
    }

    static func render(built: BuiltWall, table: CrateDialTable, asJSON: Bool) throws -> String {
        try render(dial: built.dial, items: built.items, unavailable: built.unavailable, table: table, asJSON: asJSON)
    }

    static func render(stored: StoredWall, table: CrateDialTable, asJSON: Bool) throws -> String {
        try render(dial: stored.dial, items: stored.tiles.map(\.item), unavailable: stored.unavailable, table: table, asJSON: asJSON)
    }

    static func render(dial: CrateDialPosition, items: [WallItem], unavailable: [WallUnavailable], table: CrateDialTable, asJSON: Bool) throws -> String {
        let entry = table.entry(dial)
        if asJSON {
            let wall = Wall(dial: dial.rawValue, dial_title: entry.title, dial_sentence: entry.sentence,
                            items: items.map { Item(signal: $0.signal.rawValue, title: $0.title, artist: $0.artist,
                                                    musicbrainz_release_group_id: $0.releaseGroupID.rawValue, art_url: $0.artURL?.absoluteString) },
                            unavailable: unavailable.map { Missing(signal: $0.signal.rawValue, reason: $0.reason) })
            let encoder = JSONEncoder()
            encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
            return Terminal.json(try encoder.encode(wall))
        }
        var lines = ["\(entry.displayTitle): \(entry.displaySentence)"]
        for item in items {
            lines.append("\(item.releaseGroupID.rawValue)\t\(item.signal.rawValue)\t\(Terminal.field(item.artist)) — \(Terminal.field(item.title))")
        }
        return lines.joined(separator: "\n")
    }
}
