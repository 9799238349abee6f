/// An album's ReplayGain: the gain that brings it to the reference loudness (89 dB SPL, the
/// ReplayGain 1 reference, −18 LUFS for EBU R128) and its highest sample (1 = full scale).
public struct AlbumGain: Equatable, Sendable {
    public var gainDb: Double
    public var peak: Double

    public init(gainDb: Double, peak: Double) {
        self.gainDb = gainDb
        self.peak = peak
    }
}
