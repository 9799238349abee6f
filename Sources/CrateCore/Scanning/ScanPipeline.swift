import Foundation
import Synchronization

/// The live scan: prepare the photo (keeping its luma for the barcode reader), try a barcode the
/// crate knows, then tier 0, then the photo's barcodes on MusicBrainz, else the vision provider
/// and MusicBrainz; save the scan; then fetch artwork, track list and review side by side
/// (docs/ARCHITECTURE.md, "Data flow of a scan").
///
/// Partial success beats total failure: once the album is known it is saved, and artwork, tracks
/// and review each fail on their own.
public final class ScanPipeline: AlbumScanner {
    public struct Services: Sendable {
        public var identifier: CoverIdentifying?
        public var musicBrainz: MusicBrainzClient?
        public var coverArt: CoverArtClient?
        public var reviewer: AlbumReviewing?
        /// The monthly budget: a scan that needs the provider stops when it is used up.
        public var usage: UsageMeter?
        /// Discogs links (with a Discogs token): looked up in the background once the album is
        /// saved; the scan never waits for them and never fails because of them.
        public var discogs: DiscogsClient?

        public init(identifier: CoverIdentifying? = nil, musicBrainz: MusicBrainzClient? = nil, coverArt: CoverArtClient? = nil, reviewer: AlbumReviewing? = nil,
                    usage: UsageMeter? = nil, discogs: DiscogsClient? = nil) {
            self.identifier = identifier
            self.musicBrainz = musicBrainz
            self.coverArt = coverArt
            self.reviewer = reviewer
            self.usage = usage
            self.discogs = discogs
        }

        /// Tier 0 only: nothing leaves the machine.
        public static let offline = Services()
    }

    let database: AppDatabase
    let services: Services
    let preparer: ImagePreparer
    private let matcher: LocalMatcher
    private let verifier: CoverVerifier
    let hashes: CoverHashIndex
    let artworkCache: ArtworkCache
    /// Reads the barcodes in every photo scanned; nil: photos are not searched for barcodes.
    let barcodeReader: BarcodeReader?
    /// Discogs look-ups started by scans and not yet finished (see `discogsLinksSettled()`).
    private let discogsLookups = Mutex<(next: Int, tasks: [Int: Task<Void, Never>])>((0, [:]))

    public init(database: AppDatabase, paths: CratePaths, services: Services, hashes: CoverHashIndex? = nil,
                preparer: ImagePreparer = ImagePreparer(), matcher: LocalMatcher = .shortlist,
                verifier: CoverVerifier = .lightAware, barcodeReader: BarcodeReader? = BarcodeReader()) {
        self.database = database
        self.services = services
        self.preparer = preparer
        self.matcher = matcher
        self.verifier = verifier
        self.barcodeReader = barcodeReader
        self.hashes = hashes ?? CoverHashIndex(database: database)
        self.artworkCache = ArtworkCache(paths: paths)
    }

    public func scan(file: URL, events: @escaping @Sendable (ScanEvent) -> Void) async throws -> ScanResult {
        try await scan(file: file, batchItem: nil, events: events)
    }

    /// A scan from the bulk queue: the scan is saved and `batchItem` marked done in one
    /// transaction (see `AppDatabase.saveScan(of:method:confidence:at:completingBatchItem:)`).
    public func scan(file: URL, batchItem: Int64?, events: @escaping @Sendable (ScanEvent) -> Void) async throws -> ScanResult {
        // A library that cannot save (read-only, newer, damaged) says so before anything is paid for.
        try database.checkWritable()
        let photo: PreparedPhoto
        let preparer = self.preparer, keepLuma = barcodeReader != nil
        do {
            photo = try await BlockingWork.run { try preparer.preparePhoto(at: file, keepingLuma: keepLuma) }
        } catch let error as ImageError {
            throw ScanFailure.badImage(error.message)
        }
        try Task.checkCancellation()

        // A barcode names the exact release: one the crate has answers offline, before tier 0.
        let barcodes = await barcodes(in: photo)
        if let entry = try saveCrateAlbum(withBarcodeIn: barcodes, batchItem: batchItem) {
            events(.identified(entry.album))
            return withRecord(try await finishKnownAlbum(entry, events: events))
        }
        if let (album, match) = try await tierZero(photo) {
            let confidence = 1 - Double(match.distance) / 256
            let entry = try save(album, method: .localMatch, confidence: confidence, batchItem: batchItem)
            events(.identified(entry.album))
            return withRecord(try await finishKnownAlbum(entry, events: events))
        }
        // Then MusicBrainz, free, before the paid vision call.
        let search = try await scanOnMusicBrainz(barcodes, batchItem: batchItem, events: events)
        if case .found(let result) = search { return result }

        guard let identifier = services.identifier else {
            // A barcode MusicBrainz could not be asked about: the photo waits (offline) like any.
            if case .couldNotSearch(let error) = search { throw error }
            recordNotFound(.local)
            throw ScanFailure.notIdentified
        }
        // MusicBrainz asked for a long pause (here or in another Crate process): stop before
        // paying for an identification whose search could not be sent.
        try await checkMusicBrainzPause(queued: batchItem != nil)
        let answer: VisionAnswer
        do {
            answer = try await identify(photo, with: identifier)
        } catch ScanFailure.notIdentified {
            recordNotFound(.vision)
            throw ScanFailure.notIdentified
        } catch let error as UsageBudgetError {
            throw ScanFailure.budgetUsedUp(error.message(calendar: services.usage?.calendar ?? .current))
        }
        try Task.checkCancellation()

        let (album, candidates, lookup) = try await resolve(answer, queued: batchItem != nil)
        let entry = try save(album, method: answer.usedSearch ? .visionSearch : .vision, confidence: answer.confidence,
                             batchItem: batchItem, candidates: candidates, lookup: lookup)
        if case .pending(let problem) = lookup {
            // The search was just tried (with its retries): counted, and left to the repair pass.
            if let albumID = entry.album.id { _ = try? database.recordTrackListFailure(albumID: albumID, message: problem) }
        }
        events(.identified(entry.album))
        var result = try await fetchDetails(for: entry, searchRelease: false, events: events)
        result.rankedCandidates = candidates
        return withRecord(result)
    }

    /// "Not this album?": replaces a scan's album with one of its runners-up in one transaction
    /// (see `AppDatabase.replaceScan`), then fetches that album's artwork, track list and review
    /// like a new identification. Cancelled before the switch, nothing changes.
    public func choose(_ candidate: Album, replacing scanID: Int64, events: @escaping @Sendable (ScanEvent) -> Void = { _ in }) async throws -> ScanResult {
        try Task.checkCancellation()
        let entry = try database.replaceScan(id: scanID, with: candidate, method: .manual)
        events(.identified(entry.album))
        var result = try await fetchDetails(for: entry, events: events)
        result.rankedCandidates = try database.candidates(forScan: entry.id)
        return withRecord(result)
    }

    /// Finishes albums whose track list or artwork a killed, failed or interrupted scan left
    /// pending (docs/reliability.md #20, #21) — in this process or any other. Albums are claimed
    /// one at a time (`AppDatabase.claimNextPendingDetails`), so two processes never fetch the
    /// same one, and MusicBrainz is paced by the shared limiter like any scan.
    ///
    /// Bounded: at most `limit` albums, and the pass stops after `maxConsecutiveFailures` albums
    /// in a row fail (a service is down: the rest waits for the next run rather than spending
    /// every album's tries) or when a service asks for a long pause.
    @discardableResult
    public func repairPendingDetails(limit: Int = 50, maxConsecutiveFailures: Int = 2) async -> RepairSummary {
        var summary = RepairSummary()
        // Albums never asked about on Discogs, or due for a retry (each failure waits its turn).
        if let client = services.discogs {
            do {
                try await DiscogsLinker(client: client, database: database).linkPending(limit: limit)
            } catch {
                Log.error("repair: could not keep the Discogs links: \(UserMessage.text(for: error))")
            }
        }
        guard services.musicBrainz != nil || services.coverArt != nil else { return summary }
        // Artwork files removed behind Crate's back (a cleared cache) are fetched again.
        if services.coverArt != nil {
            do {
                let missing = try database.markMissingArtworkPending(in: artworkCache.directory)
                if missing > 0 { Log.notice("repair: \(missing) album covers were missing from the artwork cache; fetching them again") }
            } catch {
                Log.error("repair: could not check the artwork files: \(UserMessage.text(for: error))")
            }
        }
        var tried: Set<Int64> = []
        var failuresInARow = 0
        while tried.count < limit, !Task.isCancelled {
            let work: PendingDetails?
            do {
                work = try database.claimNextPendingDetails(skipping: tried)
            } catch {
                Log.error("repair: could not read the albums left to finish: \(error.localizedDescription)")
                summary.stoppedEarly = (error as? CrateError)?.message ?? error.localizedDescription
                break
            }
            guard let work, let albumID = work.album.id else { break }
            tried.insert(albumID)
            summary.tried += 1
            let (outcomes, finalID) = await completeDetails(of: work.album, tracks: work.needsTracks, artwork: work.needsArtwork)
            try? database.releaseDetailsClaim(albumID: albumID)
            if finalID != albumID { tried.insert(finalID) }
            if let album = try? database.album(id: finalID), Self.isComplete(album) {
                summary.completed += 1
            }
            if outcomes.contains(.mustWait) {
                summary.stoppedEarly = "a service asked Crate to pause"
                break
            }
            failuresInARow = outcomes.contains(.failed) ? failuresInARow + 1 : 0
            if failuresInARow >= maxConsecutiveFailures {
                summary.stoppedEarly = "\(failuresInARow) albums in a row could not be finished"
                break
            }
        }
        return summary
    }

    /// Nothing left to fetch: the track list and the artwork are each here or known not to exist.
    static func isComplete(_ album: Album) -> Bool {
        (album.tracksStatus == .ok || album.tracksStatus == .unavailable)
            && (album.artworkStatus == .available || album.artworkStatus == .unavailable)
    }

    // MARK: - Private

    /// Tier 0: the nearest covers by hash, each verified against the album's stored artwork
    /// (`CoverVerifier`), nearest first. An album without artwork on disk cannot be verified and is
    /// never answered from tier 0; nor is any album when verification is unavailable (its plugin
    /// is missing: `CoverVerifier.unavailable`, logged once), so the scan goes on to the vision
    /// provider or "not found".
    func tierZero(_ photo: PreparedPhoto) async throws -> (Album, LocalMatch)? {
        let covers = try await hashes.all()
        let matcher = self.matcher, verifier = self.verifier
        let shortlist = try await BlockingWork.run { matcher.shortlist(photo.hashes, in: covers) }
        var albums: [Int64: Album] = [:]
        var checks: [Int64: CoverCheck] = [:]
        for hit in shortlist {
            try Task.checkCancellation()
            guard let album = try database.album(id: hit.albumID), let coverHash = covers.hash(of: hit.albumID),
                  let url = album.artworkURL(in: artworkCache.directory) else { continue }
            guard FileManager.default.fileExists(atPath: url.path) else {
                // The cache was cleared: the repair pass fetches the artwork again.
                do {
                    try database.setArtwork(albumID: hit.albumID, status: .pending)
                } catch {
                    Log.error("could not mark missing artwork for fetching again: \(UserMessage.text(for: error))")
                }
                continue
            }
            let verdict: CoverCheck? = try await BlockingWork.run {
                guard let data = FileManager.default.contents(atPath: url.path),
                      let artwork = try? JPEGCodec.decode(data).0 else { return nil }
                return try? verifier.check(photo, against: artwork, coverHash: coverHash)
            }
            albums[hit.albumID] = album
            checks[hit.albumID] = verdict
            if verdict?.accepted == true { break }
        }
        let chosen = TierZeroRule.decide(shortlist) { checks[$0.albumID] }
        for hit in shortlist where hit.albumID != chosen?.albumID {
            if let verdict = checks[hit.albumID], let album = albums[hit.albumID] {
                Log.notice("tier 0: \(album.title) by \(album.artist) at \(hit.distance) bits did not pass verification "
                           + "(\(verdict.outcome), agreement \(String(format: "%.2f", verdict.agreement)))")
            }
        }
        guard let chosen, let album = albums[chosen.albumID] else { return nil }
        return (album, chosen)
    }

    private func identify(_ photo: PreparedPhoto, with identifier: CoverIdentifying) async throws -> VisionAnswer {
        let digest = PhotoDigest.of(photo.visionJPEG), identity = identifier.identity
        if let identity, let recorded = try database.journaledIdentification(photoDigest: digest, identity: identity) {
            return recorded
        }
        // The month's budget is used up: stop before anything is sent (the wrapped provider
        // refuses too, for a call that races past this check in another process).
        try services.usage?.checkProviderAllowed()
        let answer: VisionAnswer
        do {
            guard let found = try await identifier.identify(photoJPEG: photo.visionJPEG) else { throw ScanFailure.notIdentified }
            answer = found
        } catch let problem as KeyProblem {
            throw ScanFailure.providerKey(problem.keyProblemMessage)
        }
        guard let identity else { return answer }
        do {
            try database.journalIdentification(answer, photoDigest: digest, identity: identity)
        } catch {
            // The scan goes on; only the protection against paying twice after a kill is lost.
            Log.error("could not keep the identification: \(UserMessage.text(for: error))")
        }
        return answer
    }

    /// Counts a scan that found nothing under the last tier it tried. Counting never fails a scan.
    private func recordNotFound(_ tier: ScanTier) {
        do {
            try database.recordScanUsage(tier: tier, found: false)
        } catch {
            Log.error("could not count the scan for the usage meter: \(UserMessage.text(for: error))")
        }
    }

    func save(_ album: Album, method: IdentificationMethod, confidence: Double?, batchItem: Int64?,
                      candidates: [ScanCandidate] = [], lookup: SearchOutcome = .settled) throws -> HistoryEntry {
        let lookup = lookup.forSaving
        guard let batchItem else {
            return try database.saveScan(of: album, method: method, confidence: confidence, candidates: candidates, lookup: lookup)
        }
        return try database.saveScan(of: album, method: method, confidence: confidence, completingBatchItem: batchItem,
                                     candidates: candidates, lookup: lookup)
    }

    /// How the scan's MusicBrainz search went.
    enum SearchOutcome {
        case settled
        /// The search failed; the reason is counted against the album's tries.
        case pending(String)
        case resolved(title: String, artist: String)

        var forSaving: ReleaseLookup {
            switch self {
            case .settled: return .settled
            case .pending: return .pending
            case .resolved(let title, let artist): return .resolved(title: title, artist: artist)
            }
        }
    }

    /// Throws `ScanFailure.mustWait` while MusicBrainz's pause is longer than a request waits.
    private func checkMusicBrainzPause(queued: Bool) async throws {
        guard let musicBrainz = services.musicBrainz else { return }
        let wait = await musicBrainz.pendingWait()
        if wait > (RetryPolicy.musicBrainz.failFastAfter ?? .infinity) {
            throw ScanFailure.mustWait(service: "MusicBrainz", seconds: wait, queued: queued)
        }
    }

    /// Matches the provider's answer against MusicBrainz: the best release and the runners-up,
    /// best first. A failed or empty search still gives an album (from the answer alone), so the
    /// scan is saved — except when MusicBrainz asked for a long pause: then the scan waits for
    /// later (`ScanFailure.mustWait`) rather than save an album without its MusicBrainz match.
    /// A search that found nothing is settled; one that could not be made is *pending*: the album
    /// is saved waiting for it, and the repair pass searches again (and merges, never duplicates).
    private func resolve(_ answer: VisionAnswer, queued: Bool) async throws -> (Album, [ScanCandidate], SearchOutcome) {
        let fallback = Album(title: answer.album, artist: answer.artist, year: answer.year, label: answer.label)
        guard let musicBrainz = services.musicBrainz else { return (fallback, [], .settled) }
        do {
            let match = try await musicBrainz.findRelease(answer.releaseQuery)
            guard let best = match.best else { return (fallback, [], .settled) }
            let runnersUp = match.runnersUp.map { ScanCandidate(album: Self.album(from: $0, answer: nil), score: $0.score) }
            return (Self.album(from: best, answer: answer), runnersUp, .resolved(title: answer.album, artist: answer.artist))
        } catch MusicBrainzError.mustWait(let seconds) {
            throw ScanFailure.mustWait(service: "MusicBrainz", seconds: seconds, queued: queued)
        } catch {
            Log.error("MusicBrainz search failed: \(error.localizedDescription)")
            return (fallback, [], .pending(UserMessage.text(for: error)))
        }
    }

    /// Searches MusicBrainz again for an album saved while its search could not be made, and
    /// gives it its release (merged into the crate's album for that release, if there is one).
    private func searchPendingRelease(_ album: Album) async -> (DetailsOutcome, Album?) {
        guard let albumID = album.id, let musicBrainz = services.musicBrainz else { return (.skipped, nil) }
        do {
            let match = try await musicBrainz.findRelease(ReleaseQuery(title: album.title, artist: album.artist, year: album.year))
            guard let best = match.best else {
                try database.settlePendingReleaseWithoutMatch(albumID: albumID)
                return (.done, nil)
            }
            var found = Self.album(from: best, answer: nil)
            found.year = found.year ?? album.year
            found.label = found.label ?? album.label
            return (.done, try database.resolvePendingRelease(albumID: albumID, to: found))
        } catch MusicBrainzError.mustWait {
            return (.mustWait, nil)
        } catch {
            Log.error("MusicBrainz search for \(album.title) failed again: \(error.localizedDescription)")
            _ = try? database.recordTrackListFailure(albumID: albumID, message: UserMessage.text(for: error))
            return (.failed, nil)
        }
    }

    static func album(from candidate: ReleaseCandidate, answer: VisionAnswer?) -> Album {
        Album(
            musicBrainzReleaseID: candidate.releaseID.rawValue,
            musicBrainzReleaseGroupID: candidate.releaseGroupID?.rawValue,
            title: candidate.title,
            artist: candidate.artist,
            year: candidate.year.map(String.init) ?? answer?.year,
            label: candidate.label ?? answer?.label
        )
    }

    /// A tier-0 match usually has its artwork and tracks, and only the review may be missing;
    /// whatever a kill or an outage left pending is fetched now (docs/reliability.md #20).
    func finishKnownAlbum(_ entry: HistoryEntry, events: @escaping @Sendable (ScanEvent) -> Void) async throws -> ScanResult {
        let album = entry.album
        let needsTracks = album.tracksStatus == .pending
        let needsArtwork = album.artworkStatus != .available
        if !needsTracks && !needsArtwork {
            let (review, failure) = await reviewOutcome(for: entry.album, events: events, announce: true)
            return ScanResult(entry: entry, review: review, reviewFailure: failure)
        }
        return try await fetchDetails(for: entry, tracks: needsTracks, artwork: needsArtwork, events: events)
    }

    /// Artwork, track list and review at the same time; each fails on its own. The album's
    /// details are claimed first: when another process is already fetching them, this scan
    /// leaves them to it (and reports them pending).
    func fetchDetails(for entry: HistoryEntry, tracks: Bool = true, artwork: Bool = true, searchRelease: Bool = true,
                              events: @escaping @Sendable (ScanEvent) -> Void) async throws -> ScanResult {
        let album = entry.album
        async let review = reviewOutcome(for: album, events: events, announce: false)
        startDiscogsLookup(for: album)
        if let albumID = album.id, (try? database.claimDetails(albumID: albumID)) == true {
            _ = await completeDetails(of: album, tracks: tracks, artwork: artwork, searchRelease: searchRelease)
            try? database.releaseDetailsClaim(albumID: albumID)
        }
        let refreshed = (try? database.album(id: album.id ?? -1)) ?? nil
        var updated = entry
        if let refreshed { updated.album = refreshed }
        if services.reviewer?.canGenerate == true { events(.loadingReview(updated.album)) }
        let (finished, failure) = await review
        return ScanResult(entry: updated, review: finished, reviewFailure: failure)
    }

    /// Starts the album's Discogs look-up, the first time it is identified, in a task of its own:
    /// the scan returns without waiting for it (Discogs pacing or a 429 can hold a request for up
    /// to a minute). When the process ends first, nothing is stored and the album stays "never
    /// asked", which the repair pass (`DiscogsLinker.linkPending`) picks up; a retry after a
    /// failure is left to it too. Whatever happens, the scan goes on.
    private func startDiscogsLookup(for album: Album) {
        guard let client = services.discogs, let albumID = album.id,
              (try? database.discogsState(forAlbum: albumID)) == nil else { return }
        let database = self.database
        discogsLookups.withLock { lookups in
            lookups.next += 1
            let key = lookups.next
            // The task removes itself under the same lock, so never before it is stored.
            lookups.tasks[key] = Task { [weak self] in
                do {
                    try await DiscogsLinker(client: client, database: database).link(album)
                } catch {
                    Log.error("could not keep the Discogs link: \(UserMessage.text(for: error))")
                }
                _ = self?.discogsLookups.withLock { $0.tasks.removeValue(forKey: key) }
            }
        }
    }

    /// Waits for the Discogs look-ups started by earlier scans (for tests, and for a caller that
    /// wants the links before it ends); a scan itself never waits for them.
    public func discogsLinksSettled() async {
        while let task = discogsLookups.withLock({ $0.tasks.values.first }) {
            await task.value
        }
    }

    /// The track list and the artwork side by side, for an album this process has claimed. An
    /// album still waiting for its MusicBrainz search is searched first (when `searchRelease`);
    /// it may then be merged into the crate's album for that release, whose id is returned.
    private func completeDetails(of album: Album, tracks: Bool, artwork: Bool, searchRelease: Bool = true) async -> ([DetailsOutcome], Int64) {
        var album = album, tracks = tracks, artwork = artwork
        let claimedID = album.id ?? -1
        // An album with a track list of its own (added by hand, from files) has nothing to search for.
        if AppDatabase.isAwaitingRelease(album), (try? database.tracks(forAlbum: claimedID).isEmpty) ?? true {
            guard searchRelease else { return ([.skipped], claimedID) }
            let (outcome, resolved) = await searchPendingRelease(album)
            guard let resolved, let resolvedID = resolved.id else { return ([outcome], claimedID) }
            if resolvedID != claimedID {
                // Merged into an album another scan saved: finish what it lacks if nobody else is.
                guard (try? database.claimDetails(albumID: resolvedID)) == true else { return ([outcome], resolvedID) }
                defer { try? database.releaseDetailsClaim(albumID: resolvedID) }
                let merged = await completeDetails(of: resolved, tracks: resolved.tracksStatus == .pending,
                                                   artwork: resolved.artworkStatus != .available, searchRelease: false)
                return (merged.0, resolvedID)
            }
            album = resolved
            tracks = true
            artwork = resolved.artworkStatus != .available
        }
        async let artworkOutcome = artwork ? fetchArtwork(for: album) : .skipped
        async let tracksOutcome = tracks ? fetchTracks(for: album) : .skipped
        return (await [artworkOutcome, tracksOutcome], claimedID)
    }

    private func reviewOutcome(for album: Album, events: @escaping @Sendable (ScanEvent) -> Void, announce: Bool) async -> (Review?, String?) {
        guard let reviewer = services.reviewer else { return (nil, nil) }
        if let cached = try? reviewer.cachedReview(for: album) { return (cached, nil) }
        guard reviewer.canGenerate else { return (nil, nil) }
        if announce { events(.loadingReview(album)) }
        do {
            return (try await reviewer.review(for: album, regenerate: false), nil)
        } catch let problem as KeyProblem {
            return (nil, problem.keyProblemMessage)
        } catch {
            Log.error("review failed: \(error.localizedDescription)")
            return (nil, ReviewFailureText.message(for: error))
        }
    }
}
