import Foundation

/// Loads one album with its tracks and review for the detail pane.
///
/// After `start()` the shown album is read again whenever albums, tracks or reviews change
/// (track lists and reviews often arrive after the album is first shown, or from the CLI).
@MainActor
public final class AlbumDetailStore {
    public typealias ReviewLookup = @Sendable (Album) throws -> Review?
    public typealias ReviewGenerator = @Sendable (Album, _ regenerate: Bool) async throws -> Review
    /// A wall album's release and tracks (MusicBrainz); nil when offline or unknown.
    public typealias WallDetails = @Sendable (WallItem) async throws -> ReleaseDetails?
    /// Puts a wall album into the crate; returns its album id.
    public typealias WallAdd = @Sendable (WallItem, ReleaseDetails?) async throws -> Int64

    /// The tables the pane is read from. A table-level filter: a change to any album refreshes
    /// the shown one, which costs one small read (`AlbumDetailRequest`).
    public static let observedTables: Set<String> = [Album.databaseTableName, Track.databaseTableName, Review.databaseTableName, "album_rating", "discogs_link"]

    public let state = ObservableValue(AlbumDetailState())
    private let database: AppDatabase
    private var lookupReview: ReviewLookup
    private var generateReview: ReviewGenerator?
    private var wallDetails: WallDetails?
    private var wallAdd: WallAdd?
    /// Where real playback finds files: an album with no track list of its own shows the tracks
    /// of its files (what Play will play). Nil with the log player.
    public var albumFiles: AlbumFiles?
    /// The shown wall album's details once they arrived (what "Add to Crate" saves).
    private var shownWallDetails: ReleaseDetails?
    /// Bumped when an album is shown: results for the previous one (a wall album's details, a
    /// review being generated) are dropped.
    private var loadID = 0
    private var shownAlbumID: Int64?
    /// The next answer starts the pane afresh (an album was just shown) instead of updating it.
    private var startsAfresh = false
    /// The shown crate album, read again after every change (track lists and reviews often
    /// arrive after the album is first shown, or from the CLI).
    private lazy var query = ObservedQuery<ShownAlbum>(database: database, tables: Self.observedTables) { [weak self] in
        self?.makeRead()
    } deliver: { [weak self] in
        self?.apply($0)
    }
    /// The shown wall album's heart or ✕, read again when a rating changes (its tile, the CLI).
    private lazy var wallRating = ObservedQuery<(MBID, AlbumRating?)>(database: database, tables: ["album_rating"]) { [weak self] in
        self?.makeWallRatingRead()
    } deliver: { [weak self] in
        self?.apply(wallRating: $0)
    }
    /// Refreshes started so far (tests count them).
    var refreshCount: Int { query.readCount }

    /// `lookupReview` finds a cached review; `generateReview` (nil when no provider is set up)
    /// writes a new one for Regenerate / Retry.
    public init(database: AppDatabase, lookupReview: @escaping ReviewLookup = { _ in nil }, generateReview: ReviewGenerator? = nil) {
        self.database = database
        self.lookupReview = lookupReview
        self.generateReview = generateReview
    }

    /// Keeps the shown album current until `stop()`. Calling it again does nothing.
    public func start() {
        query.start()
        wallRating.start()
    }

    /// Stops following the database (the state keeps its last value).
    public func stop() {
        query.stop()
        wallRating.stop()
    }

    /// Swaps the review functions (after Preferences changed the provider).
    public func configure(lookupReview: @escaping ReviewLookup, generateReview: ReviewGenerator?) {
        self.lookupReview = lookupReview
        self.generateReview = generateReview
        let current = state.value
        state.set(current)  // Redraw: Regenerate may have become available.
    }

    public var canGenerateReviews: Bool { generateReview != nil }

    /// The wall's functions: details of a wall album and "Add to Crate" (nil: not offered).
    public func configureWall(details: WallDetails?, add: WallAdd?) {
        wallDetails = details
        wallAdd = add
    }

    public var canAddToCrate: Bool { wallAdd != nil }

    /// Shows a wall album: the crate's own album when the release group is in the crate,
    /// otherwise the wall's title, artist and cached art at once, then the release's year, label
    /// and tracks when MusicBrainz answers.
    public func show(wallItem item: WallItem, artworkPath: String?) async {
        let database = self.database
        let inCrate = try? await Task.detached(priority: .userInitiated, operation: { try database.read(CrateAlbumRequest(releaseGroupID: item.releaseGroupID)) }).value
        if let albumID = inCrate ?? nil {
            await show(albumID: albumID)
            return
        }
        loadID += 1
        let current = loadID
        shownAlbumID = nil
        query.invalidate()
        shownWallDetails = nil
        let rating = try? await Task.detached { try database.read(AlbumRatingsRequest())[item.releaseGroupID] }.value
        guard current == loadID else { return }
        state.set(AlbumDetailState(wallItem: item, artworkPath: artworkPath, rating: rating ?? nil))
        guard let wallDetails else { return }
        do {
            guard let details = try await wallDetails(item) else { return }
            guard current == loadID else { return }
            shownWallDetails = details
            state.update { $0.fill(from: details) }
        } catch {
            guard current == loadID else { return }
            // The pane still shows the album; only its tracks are missing.
            state.update { $0.album?.tracksStatus = .unavailable }
        }
    }

    /// "Add to Crate": the shown wall album becomes a crate album (no photo scan), then the pane
    /// shows it from the crate.
    public func addShownToCrate() async {
        guard let item = state.value.wallItem, let wallAdd, !state.value.isAddingToCrate else { return }
        let current = loadID
        state.update {
            $0.isAddingToCrate = true
            $0.errorMessage = nil
        }
        do {
            let albumID = try await wallAdd(item, shownWallDetails)
            guard current == loadID else { return }
            await show(albumID: albumID)
        } catch {
            guard current == loadID else { return }
            state.update {
                $0.isAddingToCrate = false
                $0.errorMessage = UserMessage.text(for: error)
            }
        }
    }

    /// Hearts, ✕s or clears the shown album (mutually exclusive; the rating function queues the
    /// ListenBrainz feedback). Shown at once, then read back from the library.
    public func rateShown(_ rating: AlbumRating?, using rate: @MainActor (RatedAlbum, AlbumRating?) async -> Void) async {
        guard let album = state.value.ratedAlbum else { return }
        state.update { $0.rating = rating }
        await rate(album, rating)
        // The store that wrote it reports failures; the pane shows what the library holds.
        await refresh()
    }

    /// Shows an album just scanned: a review that failed during the scan shows as unavailable.
    public func show(scanResult: ScanResult) async {
        await show(albumID: scanResult.entry.album.id)
        if case .none = state.value.review, let failure = scanResult.reviewFailure {
            state.update { $0.review = .unavailable(message: failure) }
        }
    }

    /// Shows an album (nil clears the pane). Returns once the pane shows it.
    public func show(albumID: Int64?) async {
        loadID += 1
        shownAlbumID = albumID
        startsAfresh = true
        guard albumID != nil else {
            query.invalidate()
            state.set(AlbumDetailState())
            return
        }
        await query.refresh()
    }

    /// Reads the shown album again. A review being generated keeps its spinner; one that failed
    /// during the scan keeps its message until a review is found.
    func refresh() async {
        if shownAlbumID == nil { await wallRating.refresh() } else { await query.refresh() }
    }

    /// The shown album's read, made with the review lookup and music files in effect now.
    private func makeRead() -> ObservedQuery<ShownAlbum>.Read? {
        guard let albumID = shownAlbumID else { return nil }
        let (database, lookup, files) = (self.database, lookupReview, albumFiles)
        return { try ShownAlbum.read(albumID: albumID, from: database, files: files, review: lookup) }
    }

    private func apply(_ result: Result<ShownAlbum, any Error>) {
        let shown: ShownAlbum
        switch result {
        case .success(let answer): shown = answer
        case .failure(let error): return state.update { $0.errorMessage = UserMessage.text(for: error) }
        }
        guard shown.albumID == shownAlbumID else { return }
        let afresh = startsAfresh
        startsAfresh = false
        guard let album = shown.read.album else {
            state.set(AlbumDetailState())  // Not in the crate (any more).
            return
        }
        var next = afresh ? AlbumDetailState() : state.value
        next.album = album
        next.tracks = shown.read.tracks
        next.tracksWithoutFiles = shown.withoutFiles
        next.rating = shown.read.rating
        next.discogs = shown.read.discogs
        switch (next.review, shown.review) {
        case (.loading, _): break  // Regenerate is writing a new one; it sets the result.
        case (_, let review?): next.review = .available(review)
        case (.available, nil): next.review = .none
        case (.none, nil), (.unavailable, nil): break
        }
        // Most changes concern other albums: leave the pane alone when nothing it shows changed.
        if next != state.value { state.set(next) }
    }

    private func makeWallRatingRead() -> ObservedQuery<(MBID, AlbumRating?)>.Read? {
        guard shownAlbumID == nil, let group = state.value.wallItem?.releaseGroupID else { return nil }
        let database = self.database
        return { (group, try database.read(AlbumRatingsRequest())[group]) }
    }

    private func apply(wallRating result: Result<(MBID, AlbumRating?), any Error>) {
        guard case .success(let (group, rating)) = result, shownAlbumID == nil, state.value.wallItem?.releaseGroupID == group,
              rating != state.value.rating else { return }
        state.update { $0.rating = rating }
    }

    /// Regenerate (or Retry after a failure): replaces the cached review.
    public func regenerateReview() async {
        guard let album = state.value.album, let generateReview else { return }
        let current = loadID
        state.update { $0.review = .loading }
        do {
            let review = try await generateReview(album, true)
            guard current == loadID else { return }
            state.update { $0.review = .available(review) }
        } catch {
            guard current == loadID else { return }
            state.update { $0.review = .unavailable(message: ReviewFailureText.message(for: error)) }
        }
    }
}
