import ArgumentParser
import CrateCore
import Foundation

/// `crate repair`: fetches every track list and artwork still pending — left by a kill, an
/// outage or a full disk after a scan was saved — and retries the ones given up on
/// (docs/reliability.md #20, #21). `crate scan` and `crate batch run` run a short pass of the
/// same work after their own photos.
struct RepairCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "repair",
        abstract: "Fetch the track lists and album art that earlier scans could not get.",
        discussion: "Exit code 0 when every album is complete, 1 when some are still missing something."
    )

    /// Albums a scan or batch run finishes on the side: a few, so a scan is never held up long.
    static let passLimit = 10

    @Option(help: "Work on at most this many albums.")
    var limit: Int?

    @Flag(help: "Print the outcome as one JSON object.")
    var json = false

    func validate() throws {
        if let limit, limit < 1 { throw ValidationError("--limit must be at least 1.") }
    }

    func run() async throws {
        let database: AppDatabase
        let summary: RepairSummary
        let facts: ReleaseFactsSummary
        let left: DetailsCounts
        var discogs: (matched: Int, left: Int)?
        do {
            let environment = try openEnvironment()
            database = environment.database
            let pipeline = try environment.services().makeScanPipeline()
            try database.resetFailedDetails()
            summary = await pipeline.repairPendingDetails(limit: limit ?? Int.max)
            facts = summary.stoppedEarly == nil ? await pipeline.repairReleaseFacts(limit: limit ?? Int.max)
                : ReleaseFactsSummary(left: try database.countAlbumsAwaitingReleaseFacts())
            left = try database.detailsCounts()
            discogs = await Self.retryDiscogsOnly(environment)
        } catch {
            throw fail(error)
        }
        let unfinished = left.tracksPending + left.tracksFailed + left.artworkPending + left.artworkFailed
        if json {
            let object: [String: Any] = [
                "albums_tried": summary.tried, "albums_completed": summary.completed,
                "tracks": ["pending": left.tracksPending, "failed": left.tracksFailed],
                "artwork": ["pending": left.artworkPending, "failed": left.artworkFailed],
                "release_facts": ["looked_up": facts.looked, "stored": facts.stored, "pending": facts.left],
                "discogs_only": ["matched": discogs?.matched ?? 0, "left": discogs?.left ?? 0],
            ]
            let data = (try? JSONSerialization.data(withJSONObject: object, options: [.sortedKeys])) ?? Data("{}".utf8)
            print(Terminal.json(data))
        } else {
            print(Self.sentence(summary: summary, left: left))
            if facts.looked > 0 || facts.left > 0 {
                print("Release facts (barcode, catalogue numbers, formats): stored for \(facts.stored) of \(facts.looked) albums looked up; \(facts.left) still to look up.")
            }
            if let discogs {
                print("Discogs only records: \(discogs.matched) matched on MusicBrainz now, \(discogs.left) still Discogs only.")
            }
            if let reason = summary.stoppedEarly ?? facts.stoppedEarly { print("Stopped early: \(reason). Run `crate repair` again later.") }
        }
        if unfinished > 0 || facts.left > 0 { throw ExitCode(1) }
    }

    /// Searches MusicBrainz again for the records a Discogs import kept as "Discogs only"
    /// (batched, like the import); nil when there are none or another process is importing.
    static func retryDiscogsOnly(_ environment: AppEnvironment) async -> (matched: Int, left: Int)? {
        let database = environment.database
        guard let before = try? database.discogsImportCounts().discogsOnly, before > 0,
              let musicBrainz = try? environment.services().musicBrainz,
              (try? database.claimDiscogsImport(owner: database.leaseOwner)) == true else { return nil }
        do {
            try database.requeueDiscogsOnly()
            _ = try await DiscogsImporter(database: database, musicBrainz: musicBrainz).run()
            let after = try database.discogsImportCounts().discogsOnly
            return (before - after, after)
        } catch {
            try? database.releaseDiscogsImport(owner: database.leaseOwner)
            return nil
        }
    }

    /// What the pass did and what is still to fetch: "Finished 1 of 2 albums. Still missing: 1
    /// track list; ...". An album counts as finished only when nothing is left to fetch for it.
    static func sentence(summary: RepairSummary, left: DetailsCounts) -> String {
        func count(_ n: Int, _ one: String, _ many: String) -> String { "\(n) \(n == 1 ? one : many)" }
        var text = summary.tried == 0 ? "No album needed finishing."
            : "Finished \(summary.completed) of \(count(summary.tried, "album", "albums"))."
        var missing: [String] = []
        let tracks = left.tracksPending + left.tracksFailed, artwork = left.artworkPending + left.artworkFailed
        if tracks > 0 { missing.append(count(tracks, "track list", "track lists")) }
        if artwork > 0 { missing.append(count(artwork, "album cover", "album covers")) }
        if !missing.isEmpty {
            text += " Still missing: \(missing.joined(separator: " and ")); their services did not answer, and the next run tries again."
        }
        return text
    }

    /// The short pass `scan` and `batch run` make once their photos are done; says what it did on
    /// stderr (never in JSON output, whose lines are one per photo).
    static func pass(with pipeline: ScanPipeline, quiet: Bool) async {
        let summary = await pipeline.repairPendingDetails(limit: passLimit)
        guard !quiet, summary.tried > 0 else { return }
        let plural = summary.completed == 1 ? "" : "s"
        FileHandle.standardError.write(Data("crate: finished \(summary.completed) album\(plural) that an earlier run left incomplete.\n".utf8))
    }
}
