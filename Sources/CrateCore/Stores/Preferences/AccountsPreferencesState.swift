/// The MusicBrainz, Discogs and ListenBrainz groups of Preferences, as edited. The tokens'
/// status and tests are the `listenBrainz` and `discogs` stores'.
public struct AccountsPreferencesState: Equatable, Sendable {
    /// The contact sent to MusicBrainz and Discogs with every request.
    public var contact = ""
    /// The ListenBrainz user name as typed (empty: none).
    public var listenBrainzUser = ""
    public var errorMessage: String?

    public init() {}
}
