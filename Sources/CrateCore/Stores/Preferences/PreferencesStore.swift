/// Preferences as a few small stores over one settings file: the identification service
/// (`provider`), the accounts (`accounts`), usage and budget (`usage`) and the music folders
/// (`music`). This only builds and wires them (docs/decisions/0038-preferences-as-small-stores.md).
@MainActor
public final class PreferencesStore {
    public let settings: PreferencesSettings
    public let provider: ProviderPreferencesStore
    public let accounts: AccountsPreferencesStore
    public let usage: UsagePreferencesStore
    public let music: MusicFoldersStore
    /// "Scan photos that arrive in…" (docs/decisions/0041-watched-photo-folder.md).
    public let photos: PhotoFolderStore
    /// The MusicBrainz collection the owned records are kept in (docs/decisions/0047-musicbrainz-collection-sync.md).
    public let musicBrainzCollection: MusicBrainzCollectionStore
    /// Last.fm's desktop sign-in.
    public let lastFM: LastFMConnectStore

    /// - Parameters:
    ///   - onSaved: after every save, with the settings the process now runs with (saved +
    ///     overrides), so the app rebuilds its services in one place.
    ///   - onCredentialsChanged: after a save that changed the provider or stored a key.
    public init(environment: AppEnvironment, clients: PreferencesClients? = nil, collectionClient: MusicBrainzCollectionClient? = nil,
                onSaved: ((Settings) -> Void)? = nil, onCredentialsChanged: (() -> Void)? = nil) {
        let clients = clients ?? .live(environment)
        settings = PreferencesSettings(environment: environment)
        provider = ProviderPreferencesStore(settings: settings, client: clients.provider)
        accounts = AccountsPreferencesStore(settings: settings, listenBrainz: clients.listenBrainz, discogs: clients.discogs)
        usage = UsagePreferencesStore(settings: settings)
        music = MusicFoldersStore(settings: settings)
        photos = PhotoFolderStore(settings: settings)
        musicBrainzCollection = MusicBrainzCollectionStore(settings: settings, client: collectionClient ?? .live(environment))
        lastFM = LastFMConnectStore(settings: settings)
        // Connected: scrobbling is on, and its switch says so.
        lastFM.onConnected = { [weak accounts] in accounts?.setListens(.lastFM, on: true) }
        provider.onCredentialsChanged = onCredentialsChanged
        // Every save may change the budget line, so the usage group is read again.
        settings.onSaved = { [weak usage] saved in
            onSaved?(saved)
            Task { await usage?.refreshUsage() }
        }
    }
}
