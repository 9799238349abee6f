/// The MusicBrainz, Discogs and ListenBrainz groups of Preferences, as edited. The tokens'
/// status and tests are the `listenBrainz` and `discogs` stores'.
public struct AccountsPreferencesState: Equatable, Sendable {
    /// The contact sent to MusicBrainz and Discogs with every request.
    public var contact = ""
    /// The ListenBrainz user name as typed (empty: none).
    public var listenBrainzUser = ""
    /// Whether listens go to ListenBrainz and to Last.fm (docs/decisions/0042-listens-and-the-turntable.md).
    public var listenBrainzListens = false
    public var lastFMListens = false
    public var errorMessage: String?

    public init() {}
}
