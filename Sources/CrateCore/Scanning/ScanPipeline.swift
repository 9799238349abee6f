import Foundation

/// The live scan: prepare the photo, try tier 0, else the vision provider and MusicBrainz; save
/// the scan; then fetch artwork, track list and review side by side (docs/ARCHITECTURE.md, "Data flow of a scan").
///
/// Partial success beats total failure: once the album is known it is saved, and artwork, tracks
/// and review each fail on their own.
public final class ScanPipeline: AlbumScanner {
    public struct Services: Sendable {
        public var identifier: CoverIdentifying?
        public var musicBrainz: MusicBrainzClient?
        public var coverArt: CoverArtClient?
        public var reviewer: AlbumReviewing?

        public init(identifier: CoverIdentifying? = nil, musicBrainz: MusicBrainzClient? = nil, coverArt: CoverArtClient? = nil, reviewer: AlbumReviewing? = nil) {
            self.identifier = identifier
            self.musicBrainz = musicBrainz
            self.coverArt = coverArt
            self.reviewer = reviewer
        }

        /// Tier 0 only: nothing leaves the machine.
        public static let offline = Services()
    }

    private let database: AppDatabase
    private let services: Services
    private let preparer: ImagePreparer
    private let matcher: LocalMatcher
    private let hashes: CoverHashIndex
    private let artworkCache: ArtworkCache

    public init(database: AppDatabase, paths: CratePaths, services: Services, hashes: CoverHashIndex? = nil,
                preparer: ImagePreparer = ImagePreparer(), matcher: LocalMatcher = .standard) {
        self.database = database
        self.services = services
        self.preparer = preparer
        self.matcher = matcher
        self.hashes = hashes ?? CoverHashIndex(database: database)
        self.artworkCache = ArtworkCache(paths: paths)
    }

    public func scan(file: URL, events: @escaping @Sendable (ScanEvent) -> Void) async throws -> ScanResult {
        try await scan(file: file, batchItem: nil, events: events)
    }

    /// A scan from the bulk queue: the scan is saved and `batchItem` marked done in one
    /// transaction (see `AppDatabase.saveScan(of:method:confidence:at:completingBatchItem:)`).
    public func scan(file: URL, batchItem: Int64?, events: @escaping @Sendable (ScanEvent) -> Void) async throws -> ScanResult {
        let photo: PreparedPhoto
        let preparer = self.preparer
        do {
            photo = try await BlockingWork.run { try preparer.preparePhoto(at: file) }
        } catch let error as ImageError {
            throw ScanFailure.badImage(error.message)
        }
        try Task.checkCancellation()

        let covers = try await hashes.all()
        let matcher = self.matcher
        let localMatch = try await BlockingWork.run { matcher.match(photo.hashes, in: covers) }
        if let match = localMatch,
           let album = try database.album(id: match.albumID) {
            let confidence = 1 - Double(match.distance) / 256
            let entry = try save(album, method: .localMatch, confidence: confidence, batchItem: batchItem)
            events(.identified(entry.album))
            return try await finishKnownAlbum(entry, events: events)
        }

        guard let identifier = services.identifier else { throw ScanFailure.notIdentified }
        // MusicBrainz asked for a long pause (here or in another Crate process): stop before
        // paying for an identification whose search could not be sent.
        try await checkMusicBrainzPause(queued: batchItem != nil)
        let answer: VisionAnswer
        do {
            guard let found = try await identifier.identify(photoJPEG: photo.visionJPEG) else { throw ScanFailure.notIdentified }
            answer = found
        } catch let problem as KeyProblem {
            throw ScanFailure.providerKey(problem.keyProblemMessage)
        }
        try Task.checkCancellation()

        let (album, candidates) = try await resolve(answer, queued: batchItem != nil)
        let entry = try save(album, method: answer.usedSearch ? .visionSearch : .vision, confidence: answer.confidence,
                             batchItem: batchItem, candidates: candidates)
        events(.identified(entry.album))
        var result = try await fetchDetails(for: entry, events: events)
        result.rankedCandidates = candidates
        return result
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
        return result
    }

    /// Fetches artwork (and track lists) that a killed or failed scan never got; returns how many
    /// albums it tried. Run in the background at start; each album fails on its own.
    @discardableResult
    public func repairArtwork(limit: Int = 50) async -> Int {
        guard services.coverArt != nil, let albums = try? database.albumsNeedingArtwork(limit: limit) else { return 0 }
        for album in albums {
            async let artwork: Void = fetchArtwork(for: album)
            let hasTracks = (try? database.tracks(forAlbum: album.id ?? -1).isEmpty == false) ?? false
            if !hasTracks { await fetchTracks(for: album) }
            await artwork
        }
        return albums.count
    }

    // MARK: - Private

    private func save(_ album: Album, method: IdentificationMethod, confidence: Double?, batchItem: Int64?,
                      candidates: [ScanCandidate] = []) throws -> HistoryEntry {
        guard let batchItem else { return try database.saveScan(of: album, method: method, confidence: confidence, candidates: candidates) }
        return try database.saveScan(of: album, method: method, confidence: confidence, completingBatchItem: batchItem, candidates: candidates)
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
    private func resolve(_ answer: VisionAnswer, queued: Bool) async throws -> (Album, [ScanCandidate]) {
        let fallback = Album(title: answer.album, artist: answer.artist, year: answer.year, label: answer.label)
        guard let musicBrainz = services.musicBrainz else { return (fallback, []) }
        do {
            let match = try await musicBrainz.findRelease(ReleaseQuery(title: answer.album, artist: answer.artist, year: answer.year))
            guard let best = match.best else { return (fallback, []) }
            let runnersUp = match.runnersUp.map { ScanCandidate(album: Self.album(from: $0, answer: nil), score: $0.score) }
            return (Self.album(from: best, answer: answer), runnersUp)
        } catch MusicBrainzError.mustWait(let seconds) {
            throw ScanFailure.mustWait(service: "MusicBrainz", seconds: seconds, queued: queued)
        } catch {
            Log.error("MusicBrainz search failed: \(error.localizedDescription)")
            return (fallback, [])
        }
    }

    private static func album(from candidate: ReleaseCandidate, answer: VisionAnswer?) -> Album {
        Album(
            musicBrainzReleaseID: candidate.releaseID.rawValue,
            musicBrainzReleaseGroupID: candidate.releaseGroupID?.rawValue,
            title: candidate.title,
            artist: candidate.artist,
            year: candidate.year.map(String.init) ?? answer?.year,
            label: candidate.label ?? answer?.label
        )
    }

    /// A tier-0 match already has its artwork and tracks; only the review may be missing.
    private func finishKnownAlbum(_ entry: HistoryEntry, events: @escaping @Sendable (ScanEvent) -> Void) async throws -> ScanResult {
        if entry.album.artworkStatus == .available {
            let (review, failure) = await reviewOutcome(for: entry.album, events: events, announce: true)
            return ScanResult(entry: entry, review: review, reviewFailure: failure)
        }
        return try await fetchDetails(for: entry, events: events)
    }

    /// Artwork, track list and review at the same time; each fails on its own.
    private func fetchDetails(for entry: HistoryEntry, events: @escaping @Sendable (ScanEvent) -> Void) async throws -> ScanResult {
        let album = entry.album
        async let review = reviewOutcome(for: album, events: events, announce: false)
        async let artwork: Void = fetchArtwork(for: album)
        async let tracks: Void = fetchTracks(for: album)
        _ = await (artwork, tracks)
        let refreshed = (try? database.album(id: album.id ?? -1)) ?? nil
        var updated = entry
        if let refreshed { updated.album = refreshed }
        if services.reviewer?.canGenerate == true { events(.loadingReview(updated.album)) }
        let (finished, failure) = await review
        return ScanResult(entry: updated, review: finished, reviewFailure: failure)
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

    private func fetchArtwork(for album: Album) async {
        guard let albumID = album.id else { return }
        guard let coverArt = services.coverArt, let releaseID = album.musicBrainzReleaseID.flatMap(MBID.init(validating:)) else {
            try? database.setArtwork(albumID: albumID, status: .unavailable)
            return
        }
        do {
            let groupID = album.musicBrainzReleaseGroupID.flatMap(MBID.init(validating:))
            switch try await coverArt.frontCover(release: releaseID, releaseGroup: groupID) {
            case .unavailable:
                try database.setArtwork(albumID: albumID, status: .unavailable)
            case .image(let image):
                let preparer = self.preparer
                let prepared = try await BlockingWork.run { try preparer.prepareArtwork(image.data) }
                let files = try await artworkCache.store(prepared.large, thumbnail: prepared.thumbnail, for: releaseID)
                try database.saveCoverHash(prepared.hash, forAlbum: albumID)
                await hashes.add(prepared.hash, albumID: albumID)
                try database.setArtwork(albumID: albumID, status: .available, artworkPath: artworkCache.storedPath(for: files.artwork),
                                        thumbnailPath: files.thumbnail.map(artworkCache.storedPath(for:)))
            }
        } catch {
            // Marked failed (not unavailable) so a later scan or a retry fetches it again.
            Log.error("artwork for \(releaseID.rawValue) failed: \(error.localizedDescription)")
            try? database.setArtwork(albumID: albumID, status: .failed)
        }
    }

    private func fetchTracks(for album: Album) async {
        guard let albumID = album.id, let musicBrainz = services.musicBrainz,
              let releaseID = album.musicBrainzReleaseID.flatMap(MBID.init(validating:)) else { return }
        do {
            let details = try await musicBrainz.release(releaseID)
            try database.saveReleaseDetails(
                albumID: albumID, genres: details.album.genres, label: details.album.label, year: details.album.year,
                releaseGroupID: details.album.musicBrainzReleaseGroupID, tracks: details.makeTracks(albumID: albumID))
        } catch {
            Log.error("track list for \(releaseID.rawValue) failed: \(error.localizedDescription)")
        }
    }
}
