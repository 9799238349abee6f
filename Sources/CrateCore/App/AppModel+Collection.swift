import Foundation

extension AppModel {
    /// Syncs the owned records with the chosen MusicBrainz collection when signed in and the
    /// last sync is older than `MusicBrainzCollectionSync.automaticInterval` (in any process);
    /// publishes the summary in `collectionSync`. Failures wait for the next start, quietly:
    /// Preferences' Sync Now says why.
    public func syncCollectionIfDue(now: Date = Date()) async {
        let environment = self.environment
        guard let settings = try? environment.settings(), let collection = settings.musicBrainzAccount.collectionID,
              let account = try? environment.keys.musicBrainzCredentials(settings.musicBrainzAccount) else { return }
        let last = try? environment.database.collectionSyncedAt(collection)
        if let last, now.timeIntervalSince(last) < MusicBrainzCollectionSync.automaticInterval { return }
        let client = MusicBrainzCollectionClient.live(environment)
        guard let summary = try? await client.sync(account, collection, false) else { return }
        collectionSync.set(summary)
    }
}
