/// How loud albums play (docs/decisions/0046-replaygain-and-lossy-gapless.md): by their album
/// gain, so that two albums mastered at different levels play at about the same loudness, or as
/// they are. Never by track gain: an album plays whole, and its quiet songs stay quiet.
public enum ReplayGainMode: String, CaseIterable, Codable, Sendable {
    /// A gain per file then `rglimiter` in playbin's audio filter: the file's REPLAYGAIN_ALBUM_GAIN
    /// tag, or the album gain the library stored (`crate music analyze`).
    case album
    /// No gain, no limiter.
    case off

    public static let `default` = ReplayGainMode.album
}
