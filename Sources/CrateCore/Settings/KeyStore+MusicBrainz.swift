import Foundation

/// The MusicBrainz password (for collections, which need HTTP Digest), kept like the other
/// secrets: `CRATE_MUSICBRAINZ_PASSWORD`, then the Secret Service, then
/// `keys/musicbrainz-password.key` (0600). Never printed or logged.
extension KeyStore {
    public static let musicBrainzPasswordName = "musicbrainz-password"
    public static let musicBrainzPasswordVariable = "CRATE_MUSICBRAINZ_PASSWORD"

    /// A password is taken as typed (spaces included), unlike a key.
    public func musicBrainzPassword() -> (source: KeySource, value: String?) {
        if let value = environment[Self.musicBrainzPasswordVariable], !value.isEmpty {
            return (.environment(Self.musicBrainzPasswordVariable), value)
        }
        if let value = secrets?.lookup(secret: Self.musicBrainzPasswordName), !value.isEmpty {
            return (.secretService, value)
        }
        let file = readKeyFile(namedSecretURL(Self.musicBrainzPasswordName), isPassword: true)
        return (file.source, file.key)
    }

    public func saveMusicBrainzPassword(_ value: String) throws -> KeySource {
        try saveNamedSecret(value, name: Self.musicBrainzPasswordName)
    }

    /// The user's credentials, or `MusicBrainzCollectionError.noAccount`.
    public func musicBrainzCredentials(_ account: MusicBrainzAccount) throws -> HTTPCredentials {
        guard let user = account.user, !user.isEmpty, let password = musicBrainzPassword().value, !password.isEmpty else {
            throw MusicBrainzCollectionError.noAccount
        }
        return HTTPCredentials(user: user, password: password)
    }
}
