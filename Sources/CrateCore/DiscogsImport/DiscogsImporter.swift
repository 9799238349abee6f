import Foundation

/// Where a running import stands: for the window's progress bar and the CLI's.
public struct DiscogsImportProgress: Equatable, Sendable {
    public var done: Int
    public var total: Int
    public var matched: Int
    public var discogsOnly: Int
    /// MusicBrainz requests this run made.
    public var requests: Int
    /// Estimated from the searches left at MusicBrainz's one request a second.
    public var secondsLeft: TimeInterval

    public var fraction: Double { total == 0 ? 1 : Double(done) / Double(total) }
}

/// What a run did.
public struct DiscogsImportSummary: Equatable, Sendable {
    public var progress: DiscogsImportProgress
    /// Why the run stopped before the queue was empty (MusicBrainz busy, offline); the rows left
    /// are still pending and the next run goes on with them.
    public var stoppedEarly: String?
}

/// Matches the staged Discogs records to MusicBrainz in batches and writes each batch's albums,
/// copies and wants in one transaction (docs/decisions/0045-discogs-import.md). Holds the
/// import's lease while it runs, so the window and a command never import at once; a killed run
/// leaves its rows pending and the next run goes on.
public final class DiscogsImporter: Sendable {
    public struct Options: Sendable {
        /// Rows a run searches one by one after the batched searches found nothing: each costs
        /// a request (a second), so the rest stay "Discogs only" for `crate repair`.
        public var singles = 20
        public var leaseDuration: TimeInterval = 120
        /// Seconds one MusicBrainz request takes at its pace, for the time left.
        public var secondsPerRequest: TimeInterval = RetryPolicy.musicBrainz.minimumInterval
        /// Pages read for one batched query when its answer was cut off at 100.
        public var maxPages = 3

        public init() {}
    }

    private let database: AppDatabase
    private let musicBrainz: MusicBrainzClient
    private let owner: BatchLeaseOwner
    private let options: Options

    public init(database: AppDatabase, musicBrainz: MusicBrainzClient, owner: BatchLeaseOwner? = nil, options: Options = Options()) {
        self.database = database
        self.musicBrainz = musicBrainz
        self.owner = owner ?? database.leaseOwner
        self.options = options
    }

    /// Imports every pending row. Throws `DiscogsImportError.importingElsewhere` when another
    /// process holds the import; a MusicBrainz outage ends the run early (`stoppedEarly`).
    public func run(progress report: @escaping @Sendable (DiscogsImportProgress) -> Void = { _ in }) async throws -> DiscogsImportSummary {
        guard try database.claimDiscogsImport(owner: owner, duration: options.leaseDuration) else { throw DiscogsImportError.importingElsewhere }
        var requests = 0, singlesLeft = options.singles
        var stopped: String?
        do {
            report(try progress(requests: requests, singlesLeft: singlesLeft))
            while true {
                try Task.checkCancellation()
                let singles = singlesLeft
                let batch = try database.nextDiscogsImportBatch { stage in
                    stage >= DiscogsReleaseMatcher.singleStage && singles <= 0 ? 500 : DiscogsReleaseMatcher.batchSize(stage)
                }
                if batch.items.isEmpty { break }
                var outcomes: [(id: Int64, outcome: DiscogsImportOutcome)] = []
                if batch.stage >= DiscogsReleaseMatcher.singleStage && singlesLeft <= 0 {
                    outcomes = batch.items.map { ($0.id, .discogsOnly) }
                } else {
                    if batch.stage >= DiscogsReleaseMatcher.singleStage { singlesLeft -= 1 }
                    let found = try await search(stage: batch.stage, items: batch.items.map(\.item), requests: &requests)
                    for staged in batch.items {
                        if let best = DiscogsReleaseMatcher.best(for: staged.item, stage: batch.stage, among: found) {
                            outcomes.append((staged.id, .matched(best)))
                        } else if batch.stage >= DiscogsReleaseMatcher.singleStage {
                            outcomes.append((staged.id, .discogsOnly))
                        } else {
                            outcomes.append((staged.id, .advance(toStage: DiscogsReleaseMatcher.nextStage(after: batch.stage, for: staged.item))))
                        }
                    }
                }
                do {
                    try database.applyDiscogsImport(outcomes, owner: owner, now: Date(), leaseDuration: options.leaseDuration)
                } catch is DiscogsImportLeaseLost {
                    throw DiscogsImportError.importingElsewhere
                }
                report(try progress(requests: requests, singlesLeft: singlesLeft))
            }
        } catch let error as MusicBrainzError where !Task.isCancelled {
            stopped = error.errorDescription ?? "MusicBrainz did not answer."
        } catch {
            try? database.releaseDiscogsImport(owner: owner)
            // A request cut short by a cancel (the window's Pause, Ctrl+C) is the cancel.
            throw Task.isCancelled ? CancellationError() : error
        }
        try? database.releaseDiscogsImport(owner: owner)
        return DiscogsImportSummary(progress: try progress(requests: requests, singlesLeft: singlesLeft), stoppedEarly: stopped)
    }

    /// The batch's query, page after page while the answer was cut off.
    private func search(stage: Int, items: [DiscogsImportItem], requests: inout Int) async throws -> [ReleaseCandidate] {
        guard let lucene = DiscogsReleaseMatcher.query(stage: stage, items: items) else { return [] }
        var found: [ReleaseCandidate] = []
        var offset = 0
        for _ in 0..<max(1, stage >= DiscogsReleaseMatcher.singleStage ? 1 : options.maxPages) {
            let page = try await musicBrainz.searchReleasePage(lucene: lucene, limit: stage >= DiscogsReleaseMatcher.singleStage ? 10 : 100, offset: offset)
            requests += 1
            found += page.releases
            offset += page.releases.count
            if page.releases.isEmpty || offset >= page.count { break }
        }
        return found
    }

    private func progress(requests: Int, singlesLeft: Int) throws -> DiscogsImportProgress {
        let counts = try database.discogsImportCounts(current: true)
        func batches(_ n: Double, _ stage: Int) -> Double { (n / Double(DiscogsReleaseMatcher.batchSize(stage))).rounded(.up) }
        let s0 = Double(counts.pendingByStage[0] ?? 0), s1 = Double(counts.pendingByStage[1] ?? 0)
        let s2 = Double(counts.pendingByStage[2] ?? 0), s3 = Double(counts.pendingByStage[3] ?? 0)
        // About a fifth of what the identifier searches miss goes on to the title search.
        let left = batches(s0, 0) + batches(s1, 1) + batches(s2 + 0.2 * (s0 + s1), 2) + min(Double(max(singlesLeft, 0)), s3 + 0.02 * (s0 + s1 + s2))
        return DiscogsImportProgress(done: counts.matched + counts.discogsOnly, total: counts.total, matched: counts.matched,
                                     discogsOnly: counts.discogsOnly, requests: requests, secondsLeft: left * options.secondsPerRequest)
    }
}
