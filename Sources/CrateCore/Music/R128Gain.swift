import Foundation

/// Opus's loudness tags (RFC 7845, 5.2.1): `R128_TRACK_GAIN` and `R128_ALBUM_GAIN` hold the text
/// of a signed 16-bit integer, a Q7.8 fixed-point gain in dB (256 is 1 dB) that brings the audio
/// to −23 LUFS (EBU R128), applied on top of the Opus header's output gain (which the decoder
/// applies itself). Crate's gains bring audio to ReplayGain's reference, −18 LUFS: 5 dB more.
/// The same names are read from FLAC and Vorbis comments.
public enum R128Gain {
    /// ReplayGain's reference (−18 LUFS) minus R128's (−23 LUFS).
    public static let referenceOffsetDb = 5.0

    /// The tag's gain at ReplayGain's reference: "-1280" (−5 dB to −23 LUFS) is 0 dB. Nil for
    /// anything but a decimal signed 16-bit integer ("abc", "-5.5", "99999999", "").
    public static func replayGainDb(fromTag text: String) -> Double? {
        let trimmed = text.trimmingCharacters(in: .whitespaces)
        guard let value = Int16(trimmed) else { return nil }
        return Double(value) / 256 + referenceOffsetDb
    }
}
