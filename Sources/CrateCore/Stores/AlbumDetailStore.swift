import Foundation

/// What the detail pane shows for the selected album.
public struct AlbumDetailState: Equatable, Sendable {
    public enum ReviewStatus: Equatable, Sendable {
        /// No review was asked for yet (e.g. no provider configured).
        case none
        case loading
        case available(Review)
        /// Generation failed; `message` says why and what to do.
        case unavailable(message: String)
    }

    public var album: Album?
    public var tracks: [Track] = []
    /// The shown tracks (by disc and position) that have no file in the music folder; empty
    /// when all have one, or when playback needs no files (the simulated player).
    public var tracksWithoutFiles: Set<TrackSlot> = []
    public var review: ReviewStatus = .none
    public var errorMessage: String?
    /// A wall album that is not in the crate (the pane offers "Add to Crate"); nil for crate albums.
    public var wallItem: WallItem?
    /// "Add to Crate" is under way.
    public var isAddingToCrate = false
    /// The album's heart or ✕ (by release group; nil: neither, or no release group).
    public var rating: AlbumRating?
    /// The album's Discogs release, when a link is stored ("View on Discogs").
    public var discogs: DiscogsLink?

    public init() {}

    /// The Discogs page to open: only an https page on discogs.com (the link came from the network).
    public var discogsPage: URL? {
        guard let url = discogs?.url, url.scheme == "https", let host = url.host,
              host == "discogs.com" || host.hasSuffix(".discogs.com") else { return nil }
        return url
    }

    /// "match 92 %" under "View on Discogs".
    public var discogsMatchText: String? {
        guard let discogs, discogsPage != nil else { return nil }
        return L10n.tr("match %@ %%", Int((discogs.score * 100).rounded()))
    }

    /// The album as the rating intents name it (nil without a MusicBrainz release group).
    public var ratedAlbum: RatedAlbum? {
        if let wallItem { return RatedAlbum(releaseGroupID: wallItem.releaseGroupID, title: wallItem.title, artist: wallItem.artist, releaseID: wallItem.releaseID) }
        guard let album, let group = MBID(validating: album.musicBrainzReleaseGroupID) else { return nil }
        return RatedAlbum(releaseGroupID: group, title: album.title, artist: album.artist, releaseID: MBID(validating: album.musicBrainzReleaseID))
    }

    /// "Released 1977 · Rock · Warner Bros." — only the parts that are known.
    public var subtitle: String {
        guard let album else { return "" }
        var parts: [String] = []
        if let year = album.year, !year.isEmpty { parts.append(L10n.tr("Released %@", year)) }
        if let genre = album.genres.first { parts.append(genre.capitalized) }
        if let label = album.label, !label.isEmpty { parts.append(label) }
        return parts.joined(separator: " · ")
    }
}

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
    /// the shown one, which costs three small reads.
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
    /// Bumped when an album is shown: results for the previous one (reads, a review being
    /// generated) are dropped.
    private var loadID = 0
    /// Bumped by every refresh, so an older refresh never overwrites a newer one.
    private var refreshID = 0
    private var shownAlbumID: Int64?
    /// A `show` is reading its album: a refresh waits for it instead of racing it.
    private var isShowing = false
    private var refreshAfterShow = false
    private let observation = StoreObservation()
    /// Refreshes started so far (tests count them).
    private(set) var refreshCount = 0

    /// `lookupReview` finds a cached review; `generateReview` (nil when no provider is set up)
    /// writes a new one for Regenerate / Retry.
    public init(database: AppDatabase, lookupReview: @escaping ReviewLookup = { _ in nil }, generateReview: ReviewGenerator? = nil) {
        self.database = database
        self.lookupReview = lookupReview
        self.generateReview = generateReview
    }

    /// Keeps the shown album current until `stop()`. Calling it again does nothing.
    public func start() {
        observation.start(self, on: database.changes(in: Self.observedTables)) { await $0.refresh() }
    }

    /// Stops following the database (the state keeps its last value).
    public func stop() {
        observation.stop()
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
        let inCrate = try? await Task.detached(priority: .userInitiated, operation: { try database.crateAlbumID(releaseGroupID: item.releaseGroupID) }).value
        if let albumID = inCrate ?? nil {
            await show(albumID: albumID)
            return
        }
        loadID += 1
        let current = loadID
        shownAlbumID = nil
        isShowing = false
        shownWallDetails = nil
        var next = AlbumDetailState()
        next.wallItem = item
        next.album = Album(musicBrainzReleaseID: item.releaseID?.rawValue, musicBrainzReleaseGroupID: item.releaseGroupID.rawValue,
                           title: item.title, artist: item.artist, artworkStatus: artworkPath == nil ? .pending : .available,
                           artworkPath: artworkPath, thumbnailPath: artworkPath, tracksStatus: .pending)
        next.rating = try? await Task.detached { try database.albumRatings()[item.releaseGroupID] }.value
        guard current == loadID else { return }
        state.set(next)
        guard let wallDetails else { return }
        do {
            guard let details = try await wallDetails(item) else { return }
            guard current == loadID else { return }
            shownWallDetails = details
            state.update {
                $0.album?.year = details.album.year
                $0.album?.label = details.album.label
                $0.album?.genres = details.album.genres
                $0.album?.musicBrainzReleaseID = details.album.musicBrainzReleaseID
                $0.tracks = details.makeTracks(albumID: 0)
                $0.album?.tracksStatus = .ok
            }
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

    /// Shows an album (nil clears the pane).
    public func show(albumID: Int64?) async {
        loadID += 1
        let current = loadID
        shownAlbumID = albumID
        isShowing = albumID != nil
        refreshAfterShow = false
        guard let albumID else {
            state.set(AlbumDetailState())
            return
        }
        do {
            let read = try await read(albumID: albumID)
            let rating = await readRating(read.album)
            guard current == loadID else { return }
            isShowing = false
            var next = AlbumDetailState()
            next.album = read.album
            next.tracks = read.tracks
            next.tracksWithoutFiles = read.withoutFiles
            next.rating = rating
            next.discogs = read.discogs
            next.review = read.review.map { .available($0) } ?? .none
            state.set(next)
        } catch {
            guard current == loadID else { return }
            isShowing = false
            state.update { $0.errorMessage = UserMessage.text(for: error) }
        }
        // Something changed while the album was being read: read it once more.
        if refreshAfterShow {
            refreshAfterShow = false
            await refresh()
        }
    }

    /// The album's heart or ✕, by release group.
    private func readRating(_ album: Album?) async -> AlbumRating? {
        guard let group = MBID(validating: album?.musicBrainzReleaseGroupID) else { return nil }
        let database = self.database
        return try? await Task.detached { try database.albumRatings()[group] }.value
    }

    /// What the pane shows of an album, read together.
    private struct Read: Sendable {
        var album: Album?
        var tracks: [Track] = []
        var withoutFiles: Set<TrackSlot> = []
        var review: Review?
        var discogs: DiscogsLink?
    }

    /// The album with its tracks (and which have no file), cached review and Discogs link, read
    /// off the main actor.
    private func read(albumID: Int64) async throws -> Read {
        let database = self.database
        let lookup = lookupReview
        let files = albumFiles
        return try await Task.detached(priority: .userInitiated) { () throws -> Read in
            guard let album = try database.album(id: albumID) else { return Read() }
            var read = Read(album: album)
            // A library the Discogs migration has not reached yet, or any read failure, just hides the button.
            if case .linked(let found) = (try? database.discogsState(forAlbum: albumID)) ?? nil { read.discogs = found }
            read.tracks = try database.tracks(forAlbum: albumID)
            if let files {
                let slots = Set(read.tracks.map { TrackSlot(disc: $0.disc, position: $0.position) })
                do {
                    let found = try files.resolve(album)
                    // No track list, but files in the music folder: those are what Play plays.
                    if read.tracks.isEmpty { read.tracks = found.tracks } else { read.withoutFiles = slots.subtracting(found.files.keys) }
                } catch AudioPlaybackError.notInMusicFolder {
                    read.withoutFiles = slots
                } catch {
                    // Two candidate folders, or an unreadable index: Play says which; nothing is marked.
                }
            }
            read.review = try lookup(album)
            return read
        }.value
    }

    /// Reads the shown album again after a change. A review being generated keeps its spinner;
    /// one that failed during the scan keeps its message until a review is found.
    func refresh() async {
        guard let albumID = shownAlbumID else {
            await refreshWallRating()
            return
        }
        guard !isShowing else {
            refreshAfterShow = true
            return
        }
        refreshID += 1
        refreshCount += 1
        let (shown, current) = (loadID, refreshID)
        do {
            let read = try await read(albumID: albumID)
            let rating = await readRating(read.album)
            guard shown == loadID, current == refreshID else { return }
            guard let album = read.album else {
                state.set(AlbumDetailState())  // The album left the crate.
                return
            }
            var next = state.value
            next.album = album
            next.tracks = read.tracks
            next.tracksWithoutFiles = read.withoutFiles
            next.rating = rating
            next.discogs = read.discogs
            switch (next.review, read.review) {
            case (.loading, _): break  // Regenerate is writing a new one; it sets the result.
            case (_, let review?): next.review = .available(review)
            case (.available, nil): next.review = .none
            case (.none, nil), (.unavailable, nil): break
            }
            // Most changes concern other albums: leave the pane alone when nothing it shows changed.
            if next != state.value { state.set(next) }
        } catch {
            guard shown == loadID, current == refreshID else { return }
            state.update { $0.errorMessage = UserMessage.text(for: error) }
        }
    }

    /// A wall album's rating changed elsewhere (its tile, the CLI).
    private func refreshWallRating() async {
        guard let group = state.value.wallItem?.releaseGroupID else { return }
        let shown = loadID
        let database = self.database
        guard let ratings = try? await Task.detached(operation: { try database.albumRatings() }).value, shown == loadID else { return }
        if ratings[group] != state.value.rating { state.update { $0.rating = ratings[group] } }
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

/// The seed's failure wording, in one place.
public enum ReviewFailureText {
    public static let title = L10n.tr("Review Temporarily Unavailable")
    public static let tip = "Tip: scan this album again (or press Regenerate) to retry generating the review."

    /// Errors that carry their own user message (e.g. a wrong key pointing to settings) keep it.
    public static func message(for error: Error) -> String {
        if let problem = error as? KeyProblem { return problem.keyProblemMessage }
        if let budget = error as? UsageBudgetError { return budget.message }
        if let review = error as? ReviewError { return [review.message, review.tip].compactMap { $0 }.joined(separator: " ") }
        if let described = error as? LocalizedError, let text = described.errorDescription { return "\(text) \(tip)" }
        return tip
    }
}
