import Foundation

/// The Discogs account line of the crate pane (docs/decisions/0044-discogs-account-and-outbox.md).
extension AppModel {
    func makeDiscogsAccountStore() -> DiscogsAccountStore {
        let (account, key) = discogsAccount(settings: services.settings)
        return DiscogsAccountStore(database: environment.database, account: account, tokenKey: key)
    }

    /// New settings (a token set or removed, another endpoint): the store follows them.
    func reconfigureDiscogsAccount(settings: Settings) {
        let (account, key) = discogsAccount(settings: settings)
        discogsAccount.configure(account: account, tokenKey: key)
    }

    /// The account (nil offline or without a token) and the token's key (nil without a token).
    private func discogsAccount(settings: Settings) -> (DiscogsAccount?, String?) {
        let token = environment.keys.discogsToken().token
        // Offline (`AppServices` built without clients): additions are queued and wait.
        let offline = services.musicBrainz == nil
        return (DiscogsAccount.live(environment: environment, settings: settings, token: token, offline: offline), token.map(DiscogsAccount.tokenKey))
    }
}
