import Foundation

/// Links identified albums to Discogs after the scan, never as part of it: whatever goes wrong
/// (offline, token refused, rate limited, a reply Crate cannot read) is recorded as "try again
/// later" and the scan is not affected.
public struct DiscogsLinker: Sendable {
    /// How long to wait before asking again after a failure that gives no time of its own.
    public static let retryDelay: TimeInterval = 6 * 3600
    /// A refused token waits longer: the user has to change it first.
    public static let rejectedTokenDelay: TimeInterval = 24 * 3600

    private let client: DiscogsClient
    private let database: AppDatabase
    private let clock: @Sendable () -> Date

    public init(client: DiscogsClient, database: AppDatabase, clock: @escaping @Sendable () -> Date = { Date() }) {
        self.client = client
        self.database = database
        self.clock = clock
    }

    /// Asks Discogs about one album and stores the answer; returns what was stored. Throws only
    /// when the library itself cannot be written.
    @discardableResult
    public func link(_ album: Album, barcode: String? = nil, catalogueNumber: String? = nil) async throws -> DiscogsLinkState? {
        guard let albumID = album.id else { return nil }
        let query = DiscogsQuery(artist: album.artist, title: album.title, year: album.year, barcode: barcode,
                                 catalogueNumber: catalogueNumber)
        let state: DiscogsLinkState
        do {
            state = try await client.bestMatch(for: query).map { .linked($0) } ?? .noMatch
        } catch let error as DiscogsError {
            state = .retry(after: clock().addingTimeInterval(Self.delay(after: error)))
            Log.notice("Discogs link for \(album.title) left for later: \(error.message)")
        } catch is CancellationError {
            return nil
        } catch {
            state = .retry(after: clock().addingTimeInterval(Self.retryDelay))
            Log.notice("Discogs link for \(album.title) left for later: \(UserMessage.text(for: error))")
        }
        try database.saveDiscogsState(state, forAlbum: albumID, at: clock())
        return state
    }

    /// Links up to `limit` albums never asked about or due for a retry; stops at the first
    /// failure (the next ones would fail the same way).
    @discardableResult
    public func linkPending(limit: Int = 20) async throws -> Int {
        var linked = 0
        for album in try database.albumsAwaitingDiscogs(now: clock(), limit: limit) {
            try Task.checkCancellation()
            let state = try await link(album)
            if case .retry = state { break }
            linked += 1
        }
        return linked
    }

    static func delay(after error: DiscogsError) -> TimeInterval {
        switch error {
        case .rateLimited(let seconds): return max(seconds, 60)
        case .tokenRejected, .noToken: return rejectedTokenDelay
        case .server, .malformedResponse, .network: return retryDelay
        }
    }
}
