/// How loud albums play (docs/decisions/0046-replaygain-and-lossy-gapless.md): by their album
/// gain, so that two albums mastered at different levels play at about the same loudness, or as
/// they are. Never by track gain: an album plays whole, and its quiet songs stay quiet.
public enum ReplayGainMode: String, CaseIterable, Codable, Sendable {
    /// GStreamer's `rgvolume` (album mode) and `rglimiter` in playbin's audio filter: the files'
    /// REPLAYGAIN_ALBUM_* tags, or the album gain the library stored for albums without them.
    case album
    /// No gain, no limiter.
    case off

    public static let `default` = ReplayGainMode.album
}
