/// A Preferences field that a `CRATE_*` variable can set for one session.
public enum PreferencesField: String, Hashable, Sendable, CaseIterable {
    case provider, model, endpoint, contact, advancedSearch, listenBrainzUser

    /// The variable that sets the field in `environment`, if one does (for `provider`'s endpoint).
    static func variable(for field: PreferencesField, provider: ProviderKind, in environment: [String: String]) -> String? {
        let candidates: [String]
        switch field {
        case .provider: candidates = ["CRATE_PROVIDER"]
        case .model: candidates = ["CRATE_MODEL"]
        case .endpoint:
            let own = Endpoints.environmentKeys.first { $0.keyPath == provider.endpointKeyPath }.map(\.name)
            candidates = ["CRATE_PROVIDER_URL"] + (own.map { [$0] } ?? [])
        case .contact: candidates = ["CRATE_CONTACT", "CRATE_MUSICBRAINZ_CONTACT"]
        case .advancedSearch: candidates = ["CRATE_ADVANCED_SEARCH"]
        case .listenBrainzUser: candidates = ["CRATE_LISTENBRAINZ_USER"]
        }
        return candidates.first { !(environment[$0] ?? "").isEmpty }
    }
}
