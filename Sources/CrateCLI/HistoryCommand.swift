import ArgumentParser
import CrateCore
import Foundation

struct HistoryCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "history",
        abstract: "List scans, newest first."
    )

    @Flag(help: "Print JSON instead of a table.")
    var json = false

    @Option(help: "Show at most this many scans.")
    var limit: Int = 50

    func validate() throws {
        try OptionRange.check(limit, in: OptionRange.limit, name: "--limit")
    }

    func run() throws {
        let entries: [HistoryEntry]
        do {
            entries = try openDatabase(paths: CratePaths()).read(HistoryPageRequest(limit: limit))
        } catch {
            throw fail(error)
        }
        if json {
            print(try HistoryJSON.render(entries))
        } else if entries.isEmpty {
            Terminal.say("No scans yet. Scan your first album to begin.")
        } else {
            for entry in entries {
                // Titles come from MusicBrainz and the provider: each is spelled safe for a terminal.
                let year = entry.album.year.map { " (\(Terminal.field($0)))" } ?? ""
                Terminal.say("\(entry.id)\t\(HistoryJSON.timestamp(entry.scan.scannedAt))\t\(Terminal.field(entry.album.artist)) — \(Terminal.field(entry.album.title))\(year)")
            }
        }
    }
}

/// The JSON shape of `crate history --json`: an array of scans with their album, newest first.
enum HistoryJSON {
    struct Item: Encodable {
        struct AlbumItem: Encodable {
            let id: Int64?
            let title: String
            let artist: String
            let year: String?
            let label: String?
            let genres: [String]
            let musicbrainz_release_id: String?
            let artwork_status: String
        }
        let scan_id: Int64
        let scanned_at: String
        let method: String
        let confidence: Double?
        let album: AlbumItem
    }

    static func render(_ entries: [HistoryEntry]) throws -> String {
        let items = entries.map { e in
            Item(
                scan_id: e.id,
                scanned_at: timestamp(e.scan.scannedAt),
                method: e.scan.method.rawValue,
                confidence: e.scan.confidence,
                album: .init(
                    id: e.album.id, title: e.album.title, artist: e.album.artist, year: e.album.year,
                    label: e.album.label, genres: e.album.genres,
                    musicbrainz_release_id: e.album.musicBrainzReleaseID,
                    artwork_status: e.album.artworkStatus.rawValue
                )
            )
        }
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        return Terminal.json(try encoder.encode(items))
    }

    static func timestamp(_ date: Date) -> String {
        let formatter = ISO8601DateFormatter()
        formatter.formatOptions = [.withInternetDateTime]
        return formatter.string(from: date)
    }
}
