import ArgumentParser
import CrateCore
import Foundation

/// `crate identify --artist A --title T`: "Tell Crate what it is" from the command line. Lists
/// the MusicBrainz releases that fit, numbered; `--choose N` saves the N-th as a scan (method
/// manual) — of PHOTO when given, which then leaves History's list of photos without a scan.
struct IdentifyCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "identify",
        abstract: "Tell Crate what a record is: list the MusicBrainz releases that fit, and save the one you choose.",
        discussion: """
            Without --choose nothing is saved: the releases are listed, best first. With --choose N the N-th
            is saved as a scan (tier "manual") and its artwork, track list and review are fetched.
            """
    )

    @Option(help: "The artist, as on the sleeve.")
    var artist: String

    @Option(help: "The album's title.")
    var title: String

    @Option(help: "The year of release (four digits).")
    var year: String?

    @Option(help: "The label.")
    var label: String?

    @Option(name: .customLong("catno"), help: "The catalogue number (searched first).")
    var catalogNumber: String?

    @Option(help: "Save the N-th release listed (1 is the best).")
    var choose: Int?

    @Flag(help: "Print JSON.")
    var json = false

    @Argument(help: "The photo that was not identified (optional).")
    var photo: String?

    func run() async throws {
        let manual: ManualIdentification
        do {
            manual = try ManualIdentification(artist: artist, title: title, year: year, label: label, catalogNumber: catalogNumber)
        } catch {
            throw fail(error)
        }
        if let choose, choose < 1 { throw fail(ValidationError("--choose counts from 1.")) }
        let environment: AppEnvironment
        let pipeline: ScanPipeline
        let candidates: [ScanCandidate]
        do {
            environment = try openEnvironment()
            pipeline = try environment.services().makeScanPipeline()
            candidates = try await pipeline.candidates(for: manual)
        } catch {
            throw fail(error)
        }
        guard let choose else { return list(candidates) }
        guard candidates.indices.contains(choose - 1) else {
            Terminal.warn(candidates.isEmpty ? "MusicBrainz has no release that fits; check the spelling, or leave out the year or label."
                                             : "There are \(candidates.count) releases listed; choose 1 to \(candidates.count).")
            throw ExitCode(1)
        }
        let file = photo.map { URL(fileURLWithPath: $0).standardizedFileURL.path } ?? "manual"
        do {
            let unscanned = try photo.flatMap { try unscannedPhoto(at: $0, in: environment.database) }
            let result = try await pipeline.identify(as: candidates[choose - 1].album, unscannedPhoto: unscanned)
            let report = ScanReport(file: file, result: result)
            print(json ? report.jsonLine() : report.humanLine())
        } catch {
            throw fail(error)
        }
    }

    private func list(_ candidates: [ScanCandidate]) {
        if json {
            // Every key always present (null when unknown), as in the other commands' JSON.
            let items: [[String: Any]] = candidates.enumerated().map { index, candidate in
                let album = candidate.album
                return ["number": index + 1, "title": album.title, "artist": album.artist, "year": album.year ?? NSNull(),
                        "label": album.label ?? NSNull(), "musicbrainz_release_id": album.musicBrainzReleaseID ?? NSNull(),
                        "score": candidate.score ?? NSNull()]
            }
            if let data = try? JSONSerialization.data(withJSONObject: items, options: [.sortedKeys, .withoutEscapingSlashes]) {
                print(Terminal.json(data))
            }
            return
        }
        guard !candidates.isEmpty else {
            Terminal.say("MusicBrainz has no release that fits; check the spelling, or leave out the year or label.")
            return
        }
        for (index, candidate) in candidates.enumerated() {
            let album = candidate.album
            let score = candidate.score.map { " (\(Int(($0 * 100).rounded())) % match)" } ?? ""
            let details = [album.year, album.label].compactMap { $0 }.map(Terminal.field).joined(separator: " · ")
            print("\(index + 1). \(Terminal.field(album.artist)) — \(Terminal.field(album.title))\(details.isEmpty ? "" : " · \(details)")\(score)")
        }
        Terminal.say("Save one with --choose N.")
    }

    /// The queue item of a photo History lists without a scan, if PHOTO is one; a photo Crate
    /// never saw is only checked to be there.
    private func unscannedPhoto(at path: String, in database: AppDatabase) throws -> Int64? {
        let url = URL(fileURLWithPath: path).standardizedFileURL
        guard FileManager.default.fileExists(atPath: url.path) else { throw CrateError.notFound(path) }
        return try database.read(UnscannedPhotosRequest()).first { URL(fileURLWithPath: $0.path).standardizedFileURL == url }?.id
    }
}
