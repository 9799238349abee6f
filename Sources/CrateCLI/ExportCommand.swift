import ArgumentParser
import CrateCore
import Foundation

/// `crate export csv FILE` and `crate export discogs-csv FILE`: the collection as a CSV file.
struct ExportCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "export",
        abstract: "Write what you own and want to a CSV file.",
        discussion: """
            csv: one row per owned copy and per wanted album (artist, title, year, format, label, catalogue
            number, barcode, MusicBrainz and Discogs release ids, state, note).
            discogs-csv: your owned copies in the columns of Discogs' collection export, for Discogs' import
            (copies whose Discogs release is not known yet are left out and counted).
            FILE "-" writes to standard output.
            """
    )

    enum Kind: String, ExpressibleByArgument, CaseIterable {
        case csv
        case discogsCSV = "discogs-csv"
    }

    @Argument(help: "csv or discogs-csv.")
    var kind: Kind

    @Argument(help: "The file to write (replaced whole), or - for standard output.")
    var file: String

    func run() async throws {
        do {
            let environment = try openEnvironment()
            let rows = try await environment.database.reader.read { db in try CollectionExport.rows(in: db) }
            let text: String
            let summary: String
            switch kind {
            case .csv:
                text = CollectionExport.csv(rows)
                let owned = rows.filter { $0.state == .owned }.count
                summary = "\(rows.count) rows: \(owned) owned \(owned == 1 ? "copy" : "copies"), \(rows.count - owned) wanted."
            case .discogsCSV:
                let result = CollectionExport.discogsCSV(rows)
                text = result.text
                summary = "\(result.written) owned \(result.written == 1 ? "copy" : "copies")"
                    + (result.skipped > 0 ? "; \(result.skipped) without a Discogs release yet were left out (`crate repair` links albums to Discogs when a token is set)." : ".")
            }
            if file == "-" {
                FileHandle.standardOutput.write(Data(text.utf8))
                return
            }
            let url = URL(fileURLWithPath: file)
            try CollectionExport.write(text, to: url)
            Terminal.say("Wrote \(url.path): \(summary)")
        } catch {
            throw fail(error)
        }
    }
}
