import Foundation

/// The shown album's standing in the user's Discogs account, and "Add to Discogs Collection" /
/// "Add to Wantlist". A tap queues the addition in the library's outbox (so it survives a quit or
/// an outage) and then sends the outbox; the line follows the library, whoever writes it.
@MainActor
public final class DiscogsAccountStore {
    public static let observedTables: Set<String> = ["discogs_link", "discogs_outbox", "discogs_identity", "discogs_release_status",
                                                     "discogs_wantlist", "discogs_wantlist_sync"]

    public let state = ObservableValue(DiscogsAccountState())
    private let database: AppDatabase
    private var account: DiscogsAccount?
    private var tokenKey: String?
    /// The album whose status is being asked of Discogs (one request at a time per album).
    private var refreshing: Int64?
    /// Its request: cancelled when another album is shown (it would only wait its turn for nothing).
    private var statusFetch: Task<DiscogsReleaseStatus, any Error>?
    /// The next pass, when rows wait (an outage, a pause Discogs asked for).
    private var retryTask: Task<Void, Never>?
    private let sleep: @Sendable (TimeInterval) async -> Void
    private lazy var query = ObservedQuery<Answer>(database: database, tables: Self.observedTables) { [weak self] in
        self?.makeRead()
    } deliver: { [weak self] in
        self?.apply($0)
    }

    /// `account` nil: no token, or offline (additions are queued and wait); `tokenKey` is the
    /// token's key whenever a token is set (`DiscogsAccount.tokenKey`).
    public init(database: AppDatabase, account: DiscogsAccount?, tokenKey: String?,
                sleep: @escaping @Sendable (TimeInterval) async -> Void = { try? await Task.sleep(for: .seconds($0)) }) {
        self.database = database
        self.sleep = sleep
        self.account = account
        self.tokenKey = tokenKey
        state.update {
            $0.hasToken = tokenKey != nil
            $0.canSend = account != nil
        }
    }

    public func start() {
        query.start()
    }

    public func stop() {
        query.stop()
    }

    /// New settings: another token, or online / offline. Sends what waited for them.
    public func configure(account: DiscogsAccount?, tokenKey: String?) {
        // A new token: what waited for one goes at once.
        if tokenKey != nil, tokenKey != self.tokenKey, !database.isReadOnly { try? database.makeDiscogsActionsDue() }
        self.account = account
        self.tokenKey = tokenKey
        state.update {
            $0.hasToken = tokenKey != nil
            $0.canSend = account != nil
        }
        Task { await refresh() }
        sendInBackground()
    }

    /// Shows `albumID`'s line: the cache at once, Discogs asked when the cache is stale.
    public func show(albumID: Int64?) async {
        guard albumID != state.value.albumID else { return }
        statusFetch?.cancel()
        var next = DiscogsAccountState()
        next.albumID = albumID
        next.hasToken = tokenKey != nil
        next.canSend = account != nil
        state.set(next)
        await refresh()
        await refreshStatusIfStale()
    }

    /// "Add to Discogs Collection".
    public func addToCollection() async {
        await add(.addToCollection)
    }

    /// "Add to Wantlist".
    public func addToWantlist() async {
        await add(.addToWantlist)
    }

    /// Queues, then sends. Offline, the row waits (the line says so) for the next pass.
    private func add(_ action: DiscogsAction) async {
        guard state.value.hasToken else {
            state.update { $0.errorMessage = DiscogsAccountError.noToken.message }
            return
        }
        guard let releaseID = state.value.releaseID else {
            state.update { $0.errorMessage = DiscogsAccountError.noRelease.message }
            return
        }
        let database = self.database
        let albumID = state.value.albumID
        do {
            try await Task.detached { _ = try database.queueDiscogs(action, releaseID: releaseID, albumID: albumID) }.value
            state.update { $0.errorMessage = nil }
        } catch {
            state.update { $0.errorMessage = UserMessage.text(for: error) }
            return
        }
        await refresh()
        await send()
    }

    /// One pass over the outbox (no-op without a token or offline); rows left waiting get
    /// another pass when they are due.
    public func send() async {
        guard let account else { return }
        let sender = DiscogsOutboxSender(database: database, account: account, now: account.now)
        _ = await Task.detached { await sender.run() }.value
        await refresh()
        let database = self.database
        guard let outbox = try? await Task.detached(operation: { try database.read(DiscogsOutboxStatusRequest()) }).value,
              outbox.queued > 0, let next = outbox.nextAttemptAt else { return }
        let delay = min(3600, max(5, next.timeIntervalSince(account.now())))
        retryTask?.cancel()
        let sleep = self.sleep
        retryTask = Task { [weak self] in
            await sleep(delay)
            guard !Task.isCancelled else { return }
            await self?.send()
        }
    }

    /// Sends what a previous session or an outage left, without waiting.
    public func sendInBackground() {
        guard account != nil else { return }
        Task { await send() }
    }

    func refresh() async {
        await query.refresh()
    }

    /// Asks Discogs for the shown release's status when the cache is older than the refresh window.
    private func refreshStatusIfStale() async {
        guard let account, let albumID = state.value.albumID, let releaseID = state.value.releaseID, refreshing != albumID else { return }
        if let cached = state.value.status, !cached.isStale(at: account.now(), interval: account.refreshInterval) { return }
        refreshing = albumID
        defer { if refreshing == albumID { refreshing = nil } }
        do {
            let fetch = Task.detached { try await account.status(releaseID: releaseID) }
            statusFetch = fetch
            _ = try await fetch.value
        } catch {
            // The line keeps the cached status; a token problem is worth saying.
            if state.value.albumID == albumID, DiscogsAccountError(error) == .tokenRejected {
                state.update { $0.errorMessage = DiscogsAccountError.tokenRejected.message }
            }
        }
        await refresh()
    }

    private typealias Answer = (albumID: Int64, answer: DiscogsAlbumAccountRequest.Answer)

    private func makeRead() -> ObservedQuery<Answer>.Read? {
        guard let id = state.value.albumID else { return nil }
        let database = self.database
        let request = DiscogsAlbumAccountRequest(albumID: id, tokenKey: tokenKey)
        return { (id, try database.read(request)) }
    }

    private func apply(_ result: Result<Answer, any Error>) {
        switch result {
        case .success(let answer):
            guard state.value.albumID == answer.albumID else { return }
            let releaseChanged = state.value.releaseID != answer.answer.releaseID
            state.update {
                $0.releaseID = answer.answer.releaseID
                $0.status = answer.answer.status
                $0.pending = answer.answer.pending
            }
            // The link arrived after the album was shown (the scan's Discogs step).
            if releaseChanged, answer.answer.releaseID != nil { Task { await refreshStatusIfStale() } }
        case .failure(let error):
            state.update { $0.errorMessage = UserMessage.text(for: error) }
        }
    }
}
