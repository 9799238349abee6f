import ArgumentParser
import CrateCore
import Foundation

/// `crate import`: a Discogs collection and wantlist, from the API or the CSV export
/// (docs/decisions/0045-discogs-import.md).
struct ImportCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "import", abstract: "Import your Discogs collection and wantlist.",
        subcommands: [ImportDiscogsCommand.self, ImportDiscogsCSVCommand.self, ImportStatusCommand.self])
}

/// Shared by both imports: stage (or preview), then match and write, printing progress.
enum DiscogsImportRun {
    static func run(items: [DiscogsImportItem], source: String, name: String, environment: AppEnvironment, dryRun: Bool, json: Bool) async throws {
        let database = environment.database
        if dryRun {
            let preview = try database.previewDiscogsImport(items)
            let owned = items.filter { $0.list == .collection }.count
            if json {
                print(Terminal.json(try encode(["dry_run": 1, "records": items.count, "new": preview.staged, "already_imported": preview.skipped,
                                                "collection": owned, "wantlist": items.count - owned])))
            } else {
                Terminal.say("Dry run: \(items.count) records (\(owned) owned, \(items.count - owned) wanted); \(preview.staged) new, \(preview.skipped) imported before. Nothing was written.")
            }
            return
        }
        let job = try database.stageDiscogsImport(items, source: source, name: name)
        if !json { Terminal.say("Staged \(job.staged) new records (\(job.skipped) imported before); matching them on MusicBrainz…") }
        try await match(environment: environment, json: json, job: job)
    }

    /// Runs the importer over every pending row (also what an interrupted import left).
    static func match(environment: AppEnvironment, json: Bool, job: DiscogsImportJob? = nil) async throws {
        guard let musicBrainz = try environment.services().musicBrainz else { throw ValidationError("MusicBrainz is needed to match the records.") }
        let importer = DiscogsImporter(database: environment.database, musicBrainz: musicBrainz)
        let interactive = isatty(2) == 1 && !json
        let summary: DiscogsImportSummary
        do {
            summary = try await Interrupt.cancellingOnSignal {
                try await importer.run { progress in
                    guard interactive else { return }
                    FileHandle.standardError.write(Data("\r\(line(progress))\u{1B}[K".utf8))
                }
            }
        } catch {
            if Interrupt.wasReceived {
                Terminal.warn("Interrupted; the records not imported yet stay queued: run `crate import status` or the same import again.")
                throw ExitCode(130)
            }
            throw error
        }
        if interactive { FileHandle.standardError.write(Data("\n".utf8)) }
        let p = summary.progress
        if json {
            var object: [String: Any] = ["records": p.total, "matched": p.matched, "discogs_only": p.discogsOnly, "pending": p.total - p.done,
                                         "musicbrainz_requests": p.requests]
            if let job { object["staged"] = job.staged; object["already_imported"] = job.skipped }
            if let stopped = summary.stoppedEarly { object["stopped_early"] = stopped }
            print(Terminal.json(try encode(object)))
        } else {
            Terminal.say("Imported: \(p.matched) matched on MusicBrainz, \(p.discogsOnly) kept as Discogs only, in \(p.requests) MusicBrainz requests.")
            if let stopped = summary.stoppedEarly {
                Terminal.say("Stopped early: \(stopped) \(p.total - p.done) records wait; run the import again to go on.")
            }
        }
        if summary.stoppedEarly != nil { throw ExitCode(1) }
    }

    static func line(_ progress: DiscogsImportProgress) -> String {
        let width = 30, filled = Int(progress.fraction * Double(width))
        let bar = String(repeating: "█", count: filled) + String(repeating: "░", count: width - filled)
        return "\(bar) \(progress.done)/\(progress.total) · about \(WaitDuration.spoken(progress.secondsLeft)) left"
    }

    static func encode(_ object: [String: Any]) throws -> Data {
        try JSONSerialization.data(withJSONObject: object, options: [.sortedKeys])
    }
}

struct ImportDiscogsCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(commandName: "discogs", abstract: "Import your collection and wantlist from the Discogs API (needs a Discogs token).")

    @Option(help: "The Discogs user (default: the token's own).")
    var user: String?

    @Flag(help: "Read and count, write nothing.")
    var dryRun = false

    @Flag(help: "Print the outcome as one JSON object.")
    var json = false

    func run() async throws {
        do {
            let environment = try openEnvironment()
            guard let discogs = try environment.services().discogs else { throw DiscogsError.noToken }
            let name: String
            if let user = user?.trimmingCharacters(in: .whitespaces), !user.isEmpty { name = user } else { name = try await discogs.identity() }
            let quiet = json
            let report: @Sendable (Int, Int) -> Void = { page, pages in
                if !quiet, isatty(2) == 1 { FileHandle.standardError.write(Data("\rReading Discogs page \(page) of \(pages)…\u{1B}[K".utf8)) }
            }
            let items: [DiscogsImportItem]
            do {
                items = try await discogs.collection(user: name, onPage: report) + discogs.wantlist(user: name, onPage: report)
            } catch DiscogsError.tokenRejected where user != nil {
                Terminal.warn("Discogs refused to show the collection of \(Terminal.field(name)): it is private, or the token is not that user's.")
                throw ExitCode(1)
            } catch DiscogsError.server(status: 404) {
                Terminal.warn("Discogs has no user \(Terminal.field(name)).")
                throw ExitCode(1)
            }
            if !quiet, isatty(2) == 1 { FileHandle.standardError.write(Data("\n".utf8)) }
            try await DiscogsImportRun.run(items: items, source: "api", name: name, environment: environment, dryRun: dryRun, json: json)
        } catch let error as ExitCode {
            throw error
        } catch let error as ValidationError {
            throw error
        } catch {
            throw fail(error)
        }
    }
}

struct ImportDiscogsCSVCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(commandName: "discogs-csv", abstract: "Import a Discogs collection or wantlist CSV export.",
                                                    discussion: "Running it again goes on with what an interrupted import left, and adds nothing twice.")

    @Argument(help: "The CSV file Discogs exported.")
    var file: String

    @Flag(help: "Read and check the file, write nothing.")
    var dryRun = false

    @Flag(help: "Print the outcome as one JSON object.")
    var json = false

    func run() async throws {
        do {
            let url = URL(fileURLWithPath: file)
            let items = try DiscogsCSVReader.read(file: url)
            let environment = try openEnvironment()
            try await DiscogsImportRun.run(items: items, source: "csv", name: url.lastPathComponent, environment: environment, dryRun: dryRun, json: json)
        } catch let error as ExitCode {
            throw error
        } catch let error as ValidationError {
            throw error
        } catch {
            throw fail(error)
        }
    }
}

struct ImportStatusCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(commandName: "status", abstract: "Where the Discogs import stands, and the records kept as Discogs only.")

    @Option(help: "Only the Discogs-only records whose artist, title, label or catalogue number contain this.")
    var search: String?

    @Flag(help: "Go on with an interrupted import now.")
    var resume = false

    @Flag(help: "Print JSON.")
    var json = false

    func run() async throws {
        do {
            let environment = try openEnvironment()
            if resume { try await DiscogsImportRun.match(environment: environment, json: json) }
            let counts = try environment.database.discogsImportCounts()
            let entries = try environment.database.discogsOnlyItems(search: search)
            if json {
                let list = entries.map { entry -> [String: Any] in
                    var object: [String: Any] = ["discogs_release_id": entry.item.releaseID, "artist": entry.item.artist, "title": entry.item.title,
                                                 "list": entry.item.list.rawValue]
                    if let id = entry.albumID { object["album_id"] = id }
                    if let value = entry.item.catalogNumber { object["catalog_number"] = value }
                    if let value = entry.item.label { object["label"] = value }
                    if let value = entry.item.format { object["format"] = value }
                    return object
                }
                print(Terminal.json(try DiscogsImportRun.encode(["records": counts.total, "matched": counts.matched, "discogs_only": counts.discogsOnly,
                                                                 "pending": counts.pending, "discogs_only_records": list])))
                return
            }
            Terminal.say("Discogs import: \(counts.matched) matched · \(counts.discogsOnly) Discogs only · \(counts.pending) waiting")
            for entry in entries {
                let catno = entry.item.catalogNumber.map { " [\(Terminal.field($0))]" } ?? ""
                print("\(entry.albumID.map(String.init) ?? "-")\t\(Terminal.field(entry.item.artist)) — \(Terminal.field(entry.item.title))\(catno)\tdiscogs:\(entry.item.releaseID)")
            }
            if counts.pending > 0 && !resume { Terminal.say("Run `crate import status --resume` to go on with the waiting records.") }
        } catch let error as ExitCode {
            throw error
        } catch {
            throw fail(error)
        }
    }
}
