import Foundation

/// An album's ReplayGain: the gain that brings it to the reference loudness (89 dB SPL, the
/// ReplayGain 1 reference, −18 LUFS for EBU R128) and its highest sample (1 = full scale).
public struct AlbumGain: Equatable, Sendable {
    public var gainDb: Double
    public var peak: Double

    public init(gainDb: Double, peak: Double) {
        self.gainDb = gainDb
        self.peak = peak
    }

    /// An R128_ALBUM_GAIN tag (Opus, Q7.8 fixed point in 1/256 dB, relative to −23 LUFS) as a
    /// ReplayGain gain (relative to −18 LUFS): 5 dB louder. Nil for text that is not an integer.
    public static func fromR128(_ text: String) -> Double? {
        guard let value = Int(text.trimmingCharacters(in: .whitespaces)), abs(value) <= 32_768 else { return nil }
        return Double(value) / 256 + 5
    }

    /// A REPLAYGAIN_ALBUM_GAIN tag ("-7.21 dB", "+2.5 dB", "-7.21") as dB; nil when unreadable.
    public static func fromReplayGain(_ text: String) -> Double? {
        var text = text.trimmingCharacters(in: .whitespaces)
        if text.lowercased().hasSuffix("db") { text = String(text.dropLast(2)).trimmingCharacters(in: .whitespaces) }
        if text.hasPrefix("+") { text.removeFirst() }
        guard let value = Double(text), value.isFinite, abs(value) <= 64 else { return nil }
        return value
    }
}
