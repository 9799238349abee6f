import Foundation

/// The MusicBrainz user and the release collection the owned records are kept in. The user's
/// password lives with the other secrets (`KeyStore.musicBrainzPassword()`).
public struct MusicBrainzAccount: Equatable, Sendable, Codable {
    public var user: String?
    public var collectionID: String?
    public var collectionName: String?

    public init(user: String? = nil, collectionID: String? = nil, collectionName: String? = nil) {
        self.user = user
        self.collectionID = collectionID
        self.collectionName = collectionName
    }

    /// `CRATE_MUSICBRAINZ_USER` and `CRATE_MUSICBRAINZ_COLLECTION` for this process only.
    public func applyingOverrides(from environment: [String: String]) -> MusicBrainzAccount {
        var account = self
        if let user = environment["CRATE_MUSICBRAINZ_USER"]?.trimmingCharacters(in: .whitespacesAndNewlines), !user.isEmpty {
            account.user = user
        }
        if let id = environment["CRATE_MUSICBRAINZ_COLLECTION"]?.trimmingCharacters(in: .whitespacesAndNewlines), !id.isEmpty {
            account.collectionID = id
            account.collectionName = nil
        }
        return account
    }
}
