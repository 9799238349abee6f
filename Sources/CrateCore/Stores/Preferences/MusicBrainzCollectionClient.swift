import Foundation

/// What the MusicBrainz collection page asks of the network, behind two functions so its store
/// is tested against the fixture service (live) or a script.
public struct MusicBrainzCollectionClient: Sendable {
    public var collections: @Sendable (HTTPCredentials) async throws -> [MusicBrainzCollection]
    /// Syncs the collection; the flag confirms the removals waiting.
    public var sync: @Sendable (HTTPCredentials, String, Bool) async throws -> CollectionSyncSummary

    public init(collections: @escaping @Sendable (HTTPCredentials) async throws -> [MusicBrainzCollection],
                sync: @escaping @Sendable (HTTPCredentials, String, Bool) async throws -> CollectionSyncSummary) {
        self.collections = collections
        self.sync = sync
    }

    /// MusicBrainz at the settings' endpoint, paced with every other Crate process.
    public static func live(_ environment: AppEnvironment) -> MusicBrainzCollectionClient {
        let client = { @Sendable () throws -> MusicBrainzClient in
            MusicBrainzClient.live(settings: try environment.settings(), transport: environment.transport, limiter: environment.limiter)
        }
        return MusicBrainzCollectionClient(
            collections: { account in try await client().collections(as: account) },
            sync: { account, collection, confirm in
                try await MusicBrainzCollectionSync(client: try client(), database: environment.database, account: account, collection: collection)
                    .run(confirmRemovals: confirm)
            })
    }
}
