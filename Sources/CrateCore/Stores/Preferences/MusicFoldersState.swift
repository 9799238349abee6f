/// Preferences' Music page: the folders this session indexes.
public struct MusicFoldersState: Equatable, Sendable {
    /// Saved, or `$CRATE_MUSIC_DIRS`, else the default.
    public var folders: [String] = []
    /// True when none is saved and `xdg-user-dir MUSIC` is used.
    public var isDefault = true
    public var errorMessage: String?
    /// How albums play: at their album gain or as they are (`Settings.replayGain`).
    public var replayGain: ReplayGainMode = .default

    public init() {}
}
