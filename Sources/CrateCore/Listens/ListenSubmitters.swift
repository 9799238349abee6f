import Foundation

/// Builds the listen services a process uses from its settings and keys.
public enum ListenSubmitters {
    /// The services turned on in `settings`, set up or not (`isConfigured` tells).
    public static func live(environment: AppEnvironment, settings: Settings) -> [any ListenSubmitter] {
        ListenService.allCases.filter(settings.listens.isOn).map { make($0, environment: environment, settings: settings) }
    }

    /// One service's client, whether it is turned on or not (for signing in and `status`).
    public static func make(_ service: ListenService, environment: AppEnvironment, settings: Settings) -> any ListenSubmitter {
        switch service {
        case .listenBrainz:
            return ListenBrainzListens(http: environment.transport, baseURL: settings.endpoints.listenBrainz,
                                       token: environment.keys.listenBrainzToken().token, limiter: environment.limiter)
        case .lastFM:
            return lastFM(environment: environment, settings: settings)
        }
    }

    public static func lastFM(environment: AppEnvironment, settings: Settings) -> LastFMClient {
        let keys = environment.keys
        return LastFMClient(http: environment.transport, baseURL: settings.endpoints.lastFM, apiKey: settings.listens.lastFMAPIKey,
                            secret: keys.lastFMSecret().value, sessionKey: keys.lastFMSession().value, user: settings.listens.lastFMUser,
                            limiter: environment.limiter)
    }
}
