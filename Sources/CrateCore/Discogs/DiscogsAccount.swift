import Foundation

/// The token owner's Discogs account as the library knows it
/// (docs/decisions/0044-discogs-account-and-outbox.md): the user name, asked once per token
/// (`GET /oauth/identity`) and kept; and per release, the copies in the collection and whether
/// it is wanted, read again at most every `refreshInterval`.
public struct DiscogsAccount: Sendable {
    /// How long a release's status is trusted before Discogs is asked again.
    public static let defaultRefreshInterval: TimeInterval = 4 * 3600

    /// One request a second (every process), `Retry-After` honoured (the host waits, in every
    /// process), and nothing asked again after an answer: a collection POST repeated could add a
    /// second copy, and the outbox retries what Discogs turned away. Only a request that got no
    /// answer goes once more: a read that timed out or lost its connection (one slow moment left
    /// the pane's status line empty until the album was shown again), or any request whose
    /// connection was refused (it never arrived). `ResilientHTTPClient` never repeats a POST that
    /// may have arrived.
    public static var retryPolicy: RetryPolicy {
        var policy = DiscogsClient.retryPolicy
        policy.maxAttempts = 2
        // Every retry after an answer waits at least the backoff's first second: none is made.
        policy.maxRetryWait = 0
        return policy
    }

    public let client: DiscogsClient
    public let database: AppDatabase
    /// SHA-256 of the token: the cached user name is the owner of this token only.
    public let tokenKey: String
    public var refreshInterval: TimeInterval = DiscogsAccount.defaultRefreshInterval
    public var now: @Sendable () -> Date

    public init(client: DiscogsClient, token: String, database: AppDatabase, now: @escaping @Sendable () -> Date = { Date() }) {
        self.client = client
        self.database = database
        self.tokenKey = Self.tokenKey(token)
        self.now = now
    }

    /// The key the library files the token's user under (never the token itself).
    public static func tokenKey(_ token: String) -> String {
        ContentHash.sha256(of: Data("discogs-token:\(token)".utf8))
    }

    /// The account for the configured token; nil without one, or offline.
    public static func live(environment: AppEnvironment, settings: Settings, token: String?, offline: Bool = false) -> DiscogsAccount? {
        guard !offline, let token else { return nil }
        let http = ResilientHTTPClient(base: environment.transport, policy: retryPolicy, limiter: environment.limiter)
        let client = DiscogsClient(http: http, limiter: environment.limiter, baseURL: settings.endpoints.discogs, token: token,
                                   contact: settings.musicBrainzContact)
        return DiscogsAccount(client: client, token: token, database: environment.database)
    }

    /// The token's user: the library's copy, else Discogs's answer (then kept). A refused token
    /// forgets its user.
    public func username() async throws -> String {
        if let cached = try database.discogsUsername(tokenKey: tokenKey) { return cached }
        do {
            let name = try await client.identity()
            if !database.isReadOnly { try database.saveDiscogsIdentity(username: name, tokenKey: tokenKey, at: now()) }
            return name
        } catch {
            let mapped = DiscogsAccountError(error)
            if mapped == .tokenRejected, !database.isReadOnly { try? database.forgetDiscogsIdentity(tokenKey: tokenKey) }
            throw mapped ?? error
        }
    }

    /// What the library knows of `releaseID`, without asking Discogs (nil before the user name is known).
    public func cachedStatus(releaseID: Int) throws -> DiscogsReleaseStatus? {
        guard let user = try database.discogsUsername(tokenKey: tokenKey) else { return nil }
        return try database.read(DiscogsReleaseStatusRequest(username: user, releaseID: releaseID))
    }

    /// The release's status, each part read from Discogs when older than `refreshInterval`
    /// (or always with `force`): one request for the copies, the wantlist's pages for "wanted".
    public func status(releaseID: Int, force: Bool = false) async throws -> DiscogsReleaseStatus {
        do {
            let user = try await username()
            var status = try database.read(DiscogsReleaseStatusRequest(username: user, releaseID: releaseID))
            if force || isStale(status.copiesFetchedAt) {
                let copies = try await client.collectionCopies(username: user, releaseID: releaseID)
                let at = now()
                if !database.isReadOnly { try database.saveDiscogsCopies(copies, releaseID: releaseID, username: user, at: at) }
                status.copies = copies
                status.copiesFetchedAt = at
            }
            if force || isStale(status.wantlistFetchedAt) {
                let wants = try await client.wantlist(username: user)
                let at = now()
                if !database.isReadOnly { try database.saveDiscogsWantlist(wants.releaseIDs, complete: wants.complete, username: user, at: at) }
                status.inWantlist = wants.releaseIDs.contains(releaseID) ? true : (wants.complete ? false : nil)
                status.wantlistFetchedAt = at
            }
            return status
        } catch {
            throw DiscogsAccountError(error) ?? error
        }
    }

    /// Never read, read more than `refreshInterval` ago, or "in the future" (the clock went back).
    func isStale(_ fetchedAt: Date?) -> Bool {
        guard let fetchedAt else { return true }
        let age = now().timeIntervalSince(fetchedAt)
        return age >= refreshInterval || age < 0
    }
}
