/// The services Preferences' "Test" buttons ask. `live` sends real requests through the
/// environment's transport; tests pass clients that answer at once (or when they are told to).
public struct PreferencesClients: Sendable {
    public var provider: CredentialClient<ProviderTarget>
    public var listenBrainz: CredentialClient<AccountTarget>
    public var discogs: CredentialClient<AccountTarget>

    public init(provider: CredentialClient<ProviderTarget>, listenBrainz: CredentialClient<AccountTarget>,
                discogs: CredentialClient<AccountTarget>) {
        self.provider = provider
        self.listenBrainz = listenBrainz
        self.discogs = discogs
    }

    public static func live(_ environment: AppEnvironment) -> PreferencesClients {
        PreferencesClients(provider: .provider(http: environment.transport),
                           listenBrainz: .listenBrainz(transport: environment.transport, limiter: environment.limiter),
                           discogs: .discogs(transport: environment.transport, limiter: environment.limiter))
    }
}
