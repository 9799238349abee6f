import Foundation

/// What a sync did (or, dry, would do).
public struct CollectionSyncSummary: Equatable, Sendable, Codable {
    public var collection: String
    /// Releases in the collection now (read at the start).
    public var remoteCount = 0
    public var added = 0
    public var owned = 0
    public var removedThere = 0
    public var disowned = 0
    /// Records removed here that stay in the collection until the user confirms.
    public var awaitingConfirmation: [String] = []
    public var inSync = 0
    public var dryRun = false

    public init(collection: String) {
        self.collection = collection
    }

    /// One line for the CLI and the window's toast.
    public var text: String {
        var parts = [L10n.tr("%@ in sync", inSync)]
        if added > 0 { parts.append(L10n.tr("%@ added to MusicBrainz", added)) }
        if owned > 0 { parts.append(L10n.tr("%@ new from MusicBrainz", owned)) }
        if removedThere > 0 { parts.append(L10n.tr("%@ removed from MusicBrainz", removedThere)) }
        if disowned > 0 { parts.append(L10n.tr("%@ removed elsewhere, no longer owned here", disowned)) }
        if !awaitingConfirmation.isEmpty {
            parts.append(L10n.tr("%@ removed here but still in MusicBrainz", awaitingConfirmation.count))
        }
        return parts.joined(separator: ", ")
    }
}

/// Keeps the crate's owned records in one MusicBrainz release collection, both ways
/// (`CollectionSyncPlan`). Safe to run from several processes and to kill: the collection's
/// edits are idempotent and each local change commits with its ledger row.
public struct MusicBrainzCollectionSync: Sendable {
    private let client: MusicBrainzClient
    private let database: AppDatabase
    private let account: HTTPCredentials
    public let collection: String
    /// The window syncs by itself at most this often (a sync of 5 000 releases is 50 paced requests).
    public static let automaticInterval: TimeInterval = 6 * 3600

    public init(client: MusicBrainzClient, database: AppDatabase, account: HTTPCredentials, collection: String) throws {
        self.client = client
        self.database = database
        self.account = account
        self.collection = try MusicBrainzClient.collectionID(collection)
    }

    /// Every release in the collection, 100 a request.
    public func remoteReleases() async throws -> [String: ReleaseDetails] {
        var releases: [String: ReleaseDetails] = [:]
        var offset = 0
        while true {
            let page = try await client.collectionReleases(collection, offset: offset, as: account)
            for details in page.releases {
                if let id = details.album.musicBrainzReleaseID?.lowercased() { releases[id] = details }
            }
            offset += 100
            // An empty page ends it too, whatever the count says (a shrinking collection).
            if page.releases.isEmpty || offset >= page.total { break }
            try Task.checkCancellation()
        }
        return releases
    }

    /// Syncs once. With `confirmRemovals`, records removed here are removed from the collection
    /// too; without, they wait (listed in the summary). `dryRun` reads both sides and changes nothing.
    public func run(confirmRemovals: Bool = false, dryRun: Bool = false) async throws -> CollectionSyncSummary {
        let remote = try await remoteReleases()
        let local = try database.ownedReleaseIDs()
        var ledger = try database.collectionLedger(collection)
        if confirmRemovals && !dryRun {
            let waiting = CollectionSyncPlan.make(local: local, remote: Set(remote.keys), base: ledger.base, confirmed: ledger.confirmed).awaitingConfirmation
            try database.confirmCollectionRemovals(collection, releases: waiting)
            ledger = try database.collectionLedger(collection)
        }
        var plan = CollectionSyncPlan.make(local: local, remote: Set(remote.keys), base: ledger.base, confirmed: ledger.confirmed)
        if confirmRemovals && dryRun {
            plan.removeRemote += plan.awaitingConfirmation
            plan.awaitingConfirmation = []
        }
        var summary = CollectionSyncSummary(collection: collection)
        summary.remoteCount = remote.count
        summary.inSync = plan.inSync
        summary.awaitingConfirmation = plan.awaitingConfirmation
        summary.dryRun = dryRun
        if dryRun {
            summary.added = plan.push.count
            summary.owned = plan.pull.count
            summary.removedThere = plan.removeRemote.count
            summary.disowned = plan.removedElsewhere.count
            return summary
        }
        try database.recordInCollection(collection, releases: plan.newlyInSync)
        try database.forgetInCollection(collection, releases: plan.forgotten)
        // Sent a batch at a time, each recorded once MusicBrainz took it: a kill loses at most
        // a batch's record, and sending it again changes nothing there.
        for batch in Self.batches(plan.push) {
            try await client.add(batch.compactMap { MBID(validating: $0) }, to: collection, as: account)
            try database.recordInCollection(collection, releases: batch)
            summary.added += batch.count
        }
        for batch in Self.batches(plan.removeRemote) {
            try await client.remove(batch.compactMap { MBID(validating: $0) }, from: collection, as: account)
            try database.forgetInCollection(collection, releases: batch)
            summary.removedThere += batch.count
        }
        for release in plan.pull {
            guard let details = remote[release] else { continue }
            try database.ownFromCollection(details, collection: collection)
            summary.owned += 1
        }
        for release in plan.removedElsewhere {
            try database.disownRemovedElsewhere(release, collection: collection)
            summary.disowned += 1
        }
        try database.recordCollectionSync(collection)
        return summary
    }

    private static func batches(_ releases: [String]) -> [[String]] {
        stride(from: 0, to: releases.count, by: MusicBrainzClient.collectionBatchSize).map {
            Array(releases[$0..<min($0 + MusicBrainzClient.collectionBatchSize, releases.count)])
        }
    }
}
