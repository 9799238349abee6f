import Foundation

/// The window's composition root: the stores, built once from an `AppEnvironment`, and the one
/// place that rebuilds services when settings change and hands them to every store that uses them.
///
/// Stores refresh themselves from the database; nothing here reloads a store after a write.
@MainActor
public final class AppModel {
    public let environment: AppEnvironment
    public private(set) var services: AppServices
    /// Set when the settings file could not be read; the defaults are in use meanwhile.
    public private(set) var settingsProblem: String?
    public let library: LibraryStore
    public let history: HistoryStore
    public let detail: AlbumDetailStore
    /// The crate pane's record: release facts, owned copies, wanted, a scan's verdict.
    public let record: RecordStore
    /// "Tell Crate what it is": the form's MusicBrainz search.
    public private(set) lazy var identify = IdentifyStore(candidates: { [weak self] manual in
        guard let self else { throw CancellationError() }
        return try await self.candidates(for: manual)
    })
    /// "Not this pressing?" under the crate pane's record.
    public private(set) lazy var pressingsStore = PressingsStore(client: PressingsClient(
        list: { [weak self] albumID in
            guard let self else { throw CancellationError() }
            return try await self.pressings(ofAlbum: albumID)
        },
        switchTo: { [weak self] albumID, releaseID in
            guard let self else { throw CancellationError() }
            return try await self.switchPressing(albumID: albumID, releaseID: releaseID)
        }))
    /// The crate pane's Discogs account line: "In your Discogs collection", "Add to Wantlist".
    public private(set) lazy var discogsAccount = makeDiscogsAccountStore()
    public let scans: ScanStore
    public let playback: PlaybackStore
    /// The record on the user's turntable ("Spin This Record"), followed on the clock.
    public private(set) lazy var turntable = makeTurntable()
    /// The artist page (albums and EPs of one artist, oldest first).
    public let artists: ArtistStore
    /// The Crate Wall (the first page).
    public let wall: WallStore
    /// The detail pane beside the wall (a wall album, or the crate's own when it is in the crate).
    public let wallDetail: AlbumDetailStore
    /// The genre bar and its feed (on the wall's page).
    public let genres: GenreFeedStore
    /// The last automatic sync with the MusicBrainz collection (nil until one ran).
    public let collectionSync = ObservableValue<CollectionSyncSummary?>(nil)
    /// The detail pane beside the artist page (an album of the artist's catalogue).
    public let artistDetail: AlbumDetailStore
    /// Files dropped on the window wait in the library's queue until their scan is saved, so a
    /// killed session hands them to the next one.
    public private(set) var queue: QueuedScanner
    /// Converted and pasted photos, deleted once the scan queue no longer needs them.
    public let temporaryPhotos: TemporaryPhotos
    private(set) var pipeline: ScanPipeline
    private var scanToken: ObservationToken?
    /// Reports what plays as listens (AppModel+Listens.swift).
    private var listenRecorder: PlaybackListenRecorder?
    /// Sends waiting listens when they are due (AppModel+Listens).
    var listenResend: Task<Void, Never>?
    /// Conversions under way: their temporary photos are not in the queue yet, so no clean-up.
    private var conversions = 0
    private var backgroundWorkStarted = false
    private let retrySleep: @Sendable (TimeInterval) async -> Void
    private var retrySchedule = WaitingRetrySchedule()
    private var retryLoop: Task<Void, Never>?
    /// The files a previous session queued but never scanned, read at `start()`: files opened
    /// or dropped after it are queued too, and must not be scanned a second time as leftovers.
    private var leftoverFiles: [URL] = []
    /// Files this session has sent to the scanner (dropped, opened, pasted).
    private var scannedThisSession: Set<String> = []
    /// The ListenBrainz user and token the wall was last built for.
    private var listenBrainzAccount: ListenBrainzAccount
    private struct ListenBrainzAccount: Equatable {
        var user: String?
        var token: String?
    }

    /// `retrySleep` waits between tries of the photos that wait for the network (tests pass one
    /// they control).
    public init(environment: AppEnvironment, player: any Player, temporaryPhotos: TemporaryPhotos = TemporaryPhotos(),
                retrySleep: @escaping @Sendable (TimeInterval) async -> Void = { try? await Task.sleep(for: .seconds($0)) }) {
        self.environment = environment
        self.retrySleep = retrySleep
        let database = environment.database
        let services: AppServices
        do {
            services = try environment.services()
        } catch {
            settingsProblem = UserMessage.text(for: error)
            services = environment.services(settings: Settings())
        }
        self.services = services
        listenBrainzAccount = ListenBrainzAccount(user: services.settings.listenBrainzUser, token: environment.keys.listenBrainzToken().token)
        library = LibraryStore(database: database, sortFile: SortChoiceFile(paths: environment.paths))
        history = HistoryStore(database: database)
        detail = AlbumDetailStore(database: database, lookupReview: services.reviewLookup, generateReview: services.reviewGenerator)
        record = RecordStore(database: database)
        playback = PlaybackStore(database: database, player: player, trackLists: services.trackLists)
        artists = ArtistStore(database: database, service: services.artistCatalogue)
        pipeline = services.makeScanPipeline()
        queue = QueuedScanner(queue: BatchQueue(database: database), scanner: pipeline)
        scans = ScanStore(scanner: queue)
        let wallService = Self.wallService(services)
        wall = WallStore(database: database, service: wallService, table: try? CrateDialTable.standard(environment: environment.variables))
        wallDetail = AlbumDetailStore(database: database, lookupReview: services.reviewLookup, generateReview: services.reviewGenerator)
        artistDetail = AlbumDetailStore(database: database, lookupReview: services.reviewLookup, generateReview: services.reviewGenerator)
        genres = GenreFeedStore(database: database, taxonomy: Self.taxonomy(environment), builder: Self.genreBuilder(services), thumbnails: services.thumbnailFiles())
        self.temporaryPhotos = temporaryPhotos
        scanToken = scans.state.subscribe { [weak self] state in
            if !state.isBusy && state.total == 0 { self?.removeTemporaryPhotos() }
        }
        configureWallDetail(wallService)
        listenRecorder = makeListenRecorder()
    }

    /// The wall pane's functions: a wall album's details, and "Add to Crate" followed by the
    /// repair pass that fetches the new album's Cover Art Archive art.
    private func configureWallDetail(_ service: WallService?) {
        for store in [wallDetail, artistDetail] {
            guard let service else {
                store.configureWall(details: nil, add: nil)
                continue
            }
            store.configureWall(details: { try await service.details(of: $0) }, add: { [weak self] item, details in
                let id = try await Task.detached { try service.addToCrate(item, details: details) }.value
                await self?.finishPendingDetails()
                return id
            })
        }
    }

    /// Runs the repair pass (artwork and track lists left to fetch) in the background.
    public func finishPendingDetails() {
        let pipeline = self.pipeline
        Task { await pipeline.repairPendingDetails() }
    }

    /// Loads the stores, which from then on refresh themselves after every change to the library
    /// (from this process or another), and starts background work: artwork and track lists a
    /// killed or failed scan never got, and the files a previous session queued but never scanned.
    ///
    /// `deferringBackgroundWork`: leave the background work (a new wall, the repair pass, the
    /// queued files) to a later `startBackgroundWork()`, so the window's first frame does not
    /// share the cores with it.
    public func start(deferringBackgroundWork: Bool = false) {
        library.start()
        history.start()
        detail.start()
        record.start()
        discogsAccount.start()
        wallDetail.start()
        artistDetail.start()
        artists.start()
        // The stored wall at once (offline too), then a new one in the background.
        wall.start()
        do {
            leftoverFiles = try queue.unfinishedFiles()
        } catch {
            Log.error("could not read the scan queue: \(error.localizedDescription)")
        }
        if !deferringBackgroundWork { startBackgroundWork() }
    }

    /// A new wall, the repair pass (artwork and track lists a scan never got), and the photos a
    /// previous session queued but never scanned. Once per model.
    public func startBackgroundWork() {
        guard !backgroundWorkStarted else { return }
        backgroundWorkStarted = true
        keepRetryingWaitingPhotos()
        wall.refreshInBackground()
        Task { [weak self] in await self?.syncCollectionIfDue() }
        // Additions queued offline or before a quit go out now.
        discogsAccount.sendInBackground()
        let pipeline = self.pipeline
        Task {
            await pipeline.repairPendingDetails()
            // Release facts for albums saved before Crate kept them: in the background, leaving
            // MusicBrainz's pace mostly to the user's scans.
            await pipeline.repairReleaseFacts(spacing: .seconds(3))
        }
        // Still unfinished (another process may have scanned them meanwhile), still on disk,
        // and not already sent to the scanner by this session.
        let stillQueued = Set(((try? queue.unfinishedFiles()) ?? []).map(\.path))
        let leftovers = leftoverFiles.filter {
            stillQueued.contains($0.path) && !scannedThisSession.contains($0.path)
                && FileManager.default.fileExists(atPath: $0.path)
        }
        leftoverFiles = []
        if !leftovers.isEmpty { scans.scan(files: leftovers) }
    }

    /// Scans files dropped, opened or pasted: queued in the library first, so a kill loses none.
    public func scan(files: [URL]) {
        guard !files.isEmpty else { return }
        scannedThisSession.formUnion(files.map(\.path))
        do {
            try queue.remember(files)
        } catch {
            // Scanning still works; only the kill-proof bookkeeping is missing.
            Log.error("could not queue \(files.count) file(s): \(error.localizedDescription)")
        }
        scans.scan(files: files)
    }

    /// Scans what `convert` produces off the main actor (images in formats the core does not
    /// read, pasted pixels, written as temporary JPEGs), in the order the files came.
    public func scan(converting convert: @escaping @Sendable () throws -> [URL]) async throws {
        conversions += 1
        defer { conversions -= 1 }
        let files = try await BlockingWork.run(convert)
        scan(files: files)
    }

    /// Retry on photos without a scan (History's failed rows): back into the queue, then scanned.
    public func retry(unscannedPhotoIDs ids: [Int64]) async {
        let database = environment.database
        do {
            let files = try await Task.detached { try database.requeueUnscannedPhotos(ids: ids) }.value
            let queued = scans.queuedFiles
            scans.scan(files: files.filter { !queued.contains($0.standardizedFileURL) })
        } catch {
            Log.error("could not queue the photos again: \(UserMessage.text(for: error))")
        }
    }

    /// The network is back: scans the photos that waited for it (and any other waiting photo).
    /// Photos that wait for the network are tried again on a schedule (WaitingRetrySchedule),
    /// not only when the user presses Try Now or GLib reports the network back.
    func keepRetryingWaitingPhotos() {
        guard retryLoop == nil else { return }
        let database = environment.database
        let sleep = retrySleep
        retryLoop = Task { [weak self] in
            while !Task.isCancelled {
                guard let delay = self?.retrySchedule.delay else { return }
                await sleep(delay)
                guard let self, !Task.isCancelled else { return }
                let waiting = (try? await Task.detached { try database.waitingPhotos() }.value)?.count ?? 0
                // A scan under way may be one of them: wait for the next turn.
                guard !self.scans.state.value.isBusy else { continue }
                if self.retrySchedule.due(waiting: waiting) {
                    Log.debug("trying \(waiting) waiting photo(s) again; next in \(Int(self.retrySchedule.delay)) s")
                    await self.retryWaiting()
                }
            }
        }
    }

    /// The network came back (GLib's monitor): waiting photos now, and the schedule starts over.
    public func networkCameBack() async {
        retrySchedule.reset()
        await retryWaiting()
    }

    public func retryWaiting() async {
        let database = environment.database
        do {
            let files = try await Task.detached { try database.waitingPhotos() }.value
            let queued = scans.queuedFiles
            let missing = files.filter { !queued.contains($0.standardizedFileURL) && FileManager.default.fileExists(atPath: $0.path) }
            scans.scan(files: missing)
        } catch {
            Log.error("could not read the waiting photos: \(UserMessage.text(for: error))")
        }
    }

    /// After a new key or provider: every photo without a scan gets another try, the failed
    /// ones included (without a provider, a cover tier 0 did not know counts as not identified).
    public func retryAllUnscanned() async {
        let database = environment.database
        guard let photos = try? await Task.detached(operation: { try database.read(UnscannedPhotosRequest(limit: 10_000)) }).value else { return }
        await retry(unscannedPhotoIDs: photos.reversed().map(\.id))
    }

    /// "Not this album?" for an album already in the crate: its newest scan and the runners-up
    /// saved with it, best first. Nil when the album has no scan (added from the wall) or the
    /// database cannot be read; the candidates are empty when the scan kept none.
    public func reconsideration(albumID: Int64) async -> (entry: HistoryEntry, candidates: [ScanCandidate])? {
        let database = environment.database
        return try? await Task.detached {
            guard let album = try database.album(id: albumID), let scan = try database.read(AlbumScansRequest(albumID: albumID)).first,
                  let scanID = scan.id else { return nil }
            return (HistoryEntry(scan: scan, album: album), try database.candidates(forScan: scanID))
        }.value
    }

    /// One album of the crate, read off the main thread; nil when it is gone.
    public func album(id: Int64) async -> Album? {
        let database = environment.database
        return try? await Task.detached { try database.album(id: id) }.value
    }

    /// The newest scan of an album (History shows it), nil when it has none.
    public func newestScanID(albumID: Int64) async -> Int64? {
        let database = environment.database
        return try? await Task.detached { try database.read(AlbumScansRequest(albumID: albumID)).first?.id }.value
    }

    /// The cover of a "Not this album?" candidate, for its thumbnail: the file already in the
    /// artwork cache, else fetched from the Cover Art Archive into it (the album itself is not
    /// touched). Nil offline, without a release id, or when the release has no art.
    public func candidateCover(for album: Album) async -> URL? {
        guard let id = MBID(validating: album.musicBrainzReleaseID) else { return nil }
        let cache = ArtworkCache(paths: environment.paths)
        if let files = await cache.files(for: id) { return files.thumbnail ?? files.artwork }
        guard let coverArt = services.coverArt else { return nil }
        let group = MBID(validating: album.musicBrainzReleaseGroupID)
        do {
            guard case .image(let cover) = try await coverArt.frontCover(release: id, releaseGroup: group) else { return nil }
            return try await cache.store(cover.data, for: id).artwork
        } catch {
            Log.notice("no cover for a candidate: \(UserMessage.text(for: error))")
            return nil
        }
    }

    /// Deletes converted and pasted photos the queue no longer needs (after a kill, the next
    /// session scans what was left and then deletes it).
    public func removeTemporaryPhotos() {
        guard conversions == 0 else { return }
        let pending = Set(((try? queue.unfinishedFiles()) ?? []).map(\.path))
        temporaryPhotos.removeAll(except: pending)
    }

    /// A Preferences store whose save rebuilds this model's services.
    /// The monthly budget's notice when one is due (80 %, 100 %), once per month for every
    /// process; read off the main actor.
    public func budgetNotice() async -> String? {
        let meter = services.usage
        return await Task.detached {
            do {
                return try meter.noticeToShow()
            } catch {
                Log.error("usage meter could not be read: \(UserMessage.text(for: error))")
                return nil
            }
        }.value
    }

    public func makePreferences() -> PreferencesStore {
        PreferencesStore(environment: environment, onSaved: { [weak self] settings in self?.apply(settings: settings) },
                         // A new provider or key: the photos that failed or waited get another try.
                         onCredentialsChanged: { [weak self] in
                             guard let self else { return }
                             Task { await self.retryAllUnscanned() }
                         })
    }

    /// Rebuilds every service from `settings` and gives each store its new ones: the next scan,
    /// review and track-list lookup use them.
    public func apply(settings: Settings) {
        let account = ListenBrainzAccount(user: settings.listenBrainzUser, token: environment.keys.listenBrainzToken().token)
        let listenBrainzChanged = account != listenBrainzAccount
        listenBrainzAccount = account
        services = environment.services(settings: settings)
        settingsProblem = nil
        pipeline = services.makeScanPipeline()
        queue = QueuedScanner(queue: BatchQueue(database: environment.database), scanner: pipeline)
        scans.replaceScanner(queue)
        detail.configure(lookupReview: services.reviewLookup, generateReview: services.reviewGenerator)
        playback.replaceTrackLists(services.trackLists)
        artists.replaceService(services.artistCatalogue)
        let wallService = Self.wallService(services)
        wall.replaceService(wallService)
        wallDetail.configure(lookupReview: services.reviewLookup, generateReview: services.reviewGenerator)
        artistDetail.configure(lookupReview: services.reviewLookup, generateReview: services.reviewGenerator)
        genres.replaceServices(builder: Self.genreBuilder(services), thumbnails: services.thumbnailFiles())
        configureWallDetail(wallService)
        reconfigureDiscogsAccount(settings: settings)
        // A new ListenBrainz account: the wall is built again for it.
        if listenBrainzChanged { wall.refreshInBackground() }
    }

    /// The genre list, or nil when `genres.json` is missing or invalid (the bar shows only "Wall").
    private static func taxonomy(_ environment: AppEnvironment) -> GenreTaxonomy? {
        do {
            return try GenreTaxonomy.load(environment: environment.variables)
        } catch {
            Log.error("the genre list cannot be read: \(UserMessage.text(for: error))")
            return nil
        }
    }

    /// The genre feeds' builder, or nil offline or without the dial's data file.
    private static func genreBuilder(_ services: AppServices) -> GenreFeedBuilder? {
        guard services.musicBrainz != nil else { return nil }
        do {
            return try services.genreFeedBuilder()
        } catch {
            Log.error("genre feeds cannot be built: \(UserMessage.text(for: error))")
            return nil
        }
    }

    /// The wall's service, or nil when its data files are missing (the stored wall still shows).
    private static func wallService(_ services: AppServices) -> WallService? {
        do {
            return try services.wallService()
        } catch {
            Log.error("the Crate Wall cannot be built: \(UserMessage.text(for: error))")
            return nil
        }
    }
}
