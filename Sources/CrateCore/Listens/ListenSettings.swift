import Foundation

/// Which services get listens, and Last.fm's application key. Off until the user turns a service
/// on: a listen history is personal, so nothing is reported unasked.
public struct ListenSettings: Equatable, Sendable, Codable {
    public var listenBrainz = false
    public var lastFM = false
    /// Last.fm's API key (public; the shared secret is kept like the other secrets).
    public var lastFMAPIKey: String?
    /// The Last.fm user the session belongs to, kept at sign-in (`auth.getSession` names it):
    /// read back when Crate checks what Last.fm already holds.
    public var lastFMUser: String?

    public init() {}

    public func isOn(_ service: ListenService) -> Bool {
        switch service {
        case .listenBrainz: return listenBrainz
        case .lastFM: return lastFM
        }
    }

    public mutating func set(_ service: ListenService, on: Bool) {
        switch service {
        case .listenBrainz: listenBrainz = on
        case .lastFM: lastFM = on
        }
    }

    /// `CRATE_LISTENS` ("listenbrainz,lastfm", or "none") and `CRATE_LASTFM_API_KEY`.
    public func applyingOverrides(from environment: [String: String]) -> ListenSettings {
        var settings = self
        if let list = environment["CRATE_LISTENS"] {
            let names = Set(list.lowercased().split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) })
            for service in ListenService.allCases { settings.set(service, on: names.contains(service.rawValue)) }
        }
        if let key = environment["CRATE_LASTFM_API_KEY"]?.trimmingCharacters(in: .whitespacesAndNewlines), !key.isEmpty {
            settings.lastFMAPIKey = key
        }
        return settings
    }

    public init(from decoder: Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        listenBrainz = try c.decodeIfPresent(Bool.self, forKey: .listenBrainz) ?? false
        lastFM = try c.decodeIfPresent(Bool.self, forKey: .lastFM) ?? false
        lastFMAPIKey = try c.decodeIfPresent(String.self, forKey: .lastFMAPIKey)
        lastFMUser = try c.decodeIfPresent(String.self, forKey: .lastFMUser)
    }
}
