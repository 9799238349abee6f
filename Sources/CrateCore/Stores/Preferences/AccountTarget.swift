/// What a ListenBrainz or Discogs token is tested against: the settings this session would use
/// (endpoints with the `CRATE_*` overrides, the contact) and the ListenBrainz user name typed.
public struct AccountTarget: Equatable, Sendable {
    public var settings: Settings
    /// Empty when none is typed.
    public var user: String

    public init(settings: Settings, user: String = "") {
        self.settings = settings
        self.user = user
    }
}
