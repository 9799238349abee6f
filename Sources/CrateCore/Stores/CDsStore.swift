import Foundation

/// What the CDs page and the Diagnostics view show.
public struct CDsState: Equatable, Sendable {
    public enum Phase: Equatable, Sendable {
        case loading
        case loaded
        case failed(String)
    }

    public var phase: Phase = .loading
    public var diagnostics: MusicDiagnostics?
    /// A problem with the last intent (adding a disc to the crate), in plain words.
    public var message: String?

    public var wallet: CDWallet? { diagnostics?.wallet }

    public init() {}
}

/// The "CDs" wallet and the music diagnostics for the window. Widgets read `state`; after
/// `start()` the store rebuilds itself whenever the music index or the crate changes (from this
/// process or another, e.g. `crate music scan`); `reload()` re-reads the playlist files, which
/// the database does not see.
@MainActor
public final class CDsStore {
    /// The tables the wallet and the diagnostics are read from.
    public static let observedTables: Set<String> = [MusicFile.databaseTableName, Album.databaseTableName]

    public let state = ObservableValue(CDsState())
    private let database: AppDatabase
    private let folders: @MainActor () -> [String]
    private let formats: @Sendable () -> [FormatSupport]
    /// Where a disc added to the crate keeps the art of its folder or files (nil: no artwork).
    private let artwork: ArtworkCache?
    /// The wallet and the diagnostics, rebuilt after every change.
    private lazy var query = ObservedQuery<MusicDiagnostics>(database: database, tables: Self.observedTables) { [weak self] in
        self?.makeRead()
    } deliver: { [weak self] in
        self?.apply($0)
    }
    /// Loads started so far (tests count them).
    var reloadCount: Int { query.readCount }

    /// `folders` is read at every load (Preferences may change it); `formats` asks GStreamer
    /// (off the main thread) which formats it can play.
    public init(database: AppDatabase, folders: @escaping @MainActor () -> [String],
                formats: @escaping @Sendable () -> [FormatSupport] = { [] }, artwork: ArtworkCache? = nil) {
        self.database = database
        self.folders = folders
        self.formats = formats
        self.artwork = artwork
    }

    /// Whether `start()` was called (and `stop()` not since).
    public var isStarted: Bool { query.isRunning }

    /// Loads now and again after every change to the music index or the crate. Calling it again
    /// does nothing.
    public func start() {
        query.start()
    }

    public func stop() {
        query.stop()
    }

    /// Rebuilds the wallet and the diagnostics off the main thread.
    public func reload() async {
        await query.refresh()
    }

    /// `folders` is asked at every load: Preferences may have changed them.
    private func makeRead() -> ObservedQuery<MusicDiagnostics>.Read {
        let (folders, database, formats) = (self.folders(), self.database, self.formats)
        return { try MusicDiagnostics.build(folders: folders, database: database, formats: formats()) }
    }

    private func apply(_ result: Result<MusicDiagnostics, any Error>) {
        state.update {
            switch result {
            case .success(let diagnostics):
                $0.diagnostics = diagnostics
                $0.phase = .loaded
            case .failure(let error):
                $0.phase = .failed(UserMessage.text(for: error))
            }
        }
    }

    /// Adds a wallet disc that is not in the crate yet (its whole album, tracks from the files);
    /// the wallet rebuilds itself from the change. Returns the new album's id, or nil with the
    /// reason in `state.message`.
    @discardableResult
    public func addToCrate(discID: String) async -> Int64? {
        let database = self.database
        let artwork = self.artwork
        let result = await Task.detached(priority: .userInitiated) {
            Result { try MusicAlbumAdder.add(database: database, groupKey: discID, artwork: artwork).first?.id }
        }.value
        switch result {
        case .success(let id):
            state.update { $0.message = id == nil ? L10n.tr("This album is already in your crate.") : nil }
            return id
        case .failure(let error):
            state.update { $0.message = UserMessage.text(for: error) }
            return nil
        }
    }

    /// The crate album ids of the wallet's discs that are in the crate, in wallet order: what
    /// plays after a disc (album after album, like the grid).
    public var playableAlbumIDs: [Int64] {
        state.value.wallet?.discs.compactMap(\.crateAlbumID) ?? []
    }
}
