import CCratePlugins
import CrateCore
import Foundation

/// playbin's audio filter for ReplayGain (docs/decisions/0046-replaygain-and-lossy-gapless.md):
/// a `volume` element set per file to its album's gain, then `rglimiter` (a soft knee above
/// −6 dBFS, so a gain that would clip does not).
///
/// The gain follows the stream, on the streaming thread (`follow_album_gain`): at each file's
/// stream-start it becomes the library's stored gain for that file's album (`QueueEntry
/// .albumGainDb`, 0 dB when none), and the file's own REPLAYGAIN_ALBUM_GAIN tag, when GStreamer
/// reads one, replaces it. So gapless playback from one album into the next changes the gain at
/// the first sample of the new album, not when the main thread hears of it.
/// The filter can only be put in or taken out while the playbin is stopped (NULL): the player
/// applies the mode at each `load`.
struct ReplayGainFilter {
    static let description = "volume name=crate-album-gain ! rglimiter"

    private let gst: GStreamerCalls
    private let playbin: UnsafeMutableRawPointer
    private let session: GStreamerSession
    private var applied: ReplayGainMode = .off

    init(gst: GStreamerCalls, playbin: UnsafeMutableRawPointer, session: GStreamerSession) {
        self.gst = gst
        self.playbin = playbin
        self.session = session
    }

    /// Whether the limiter is installed (gstreamer1.0-plugins-good; `volume` is in -base).
    static func available(_ gst: GStreamerCalls) -> Bool {
        gst.table.has_element("volume") != 0 && gst.table.has_element("rglimiter") != 0
    }

    /// Puts the filter in (album) or takes it out (off); the playbin must be stopped. Returns
    /// false when the elements are missing (the album then plays without gain).
    @discardableResult
    mutating func apply(_ mode: ReplayGainMode) -> Bool {
        guard mode != applied else { return true }
        switch mode {
        case .off:
            gst.table.set_audio_filter(playbin, nil)
        case .album:
            guard Self.available(gst) else { return false }
            var errorText: UnsafeMutablePointer<CChar>?
            guard let bin = gst.table.sink_from_description(Self.description, &errorText) else {
                gst.table.free_string(errorText)
                return false
            }
            guard let volume = gst.table.bin_get_by_name(bin, "crate-album-gain") else {
                gst.table.object_unref(bin)
                return false
            }
            // The probe holds its own reference to the session, like about-to-finish.
            gst.table.follow_album_gain(volume, storedGain, Unmanaged.passRetained(session).toOpaque())
            gst.table.object_unref(volume)
            // The bin's reference is floating: playbin takes it.
            gst.table.set_audio_filter(playbin, bin)
        }
        applied = mode
        return true
    }
}

/// At a stream-start in the filter, on the streaming thread: the stored gain of the file starting.
private let storedGain: @convention(c) (UnsafeMutableRawPointer?) -> Double = { data in
    guard let data else { return 0 }
    return Unmanaged<GStreamerSession>.fromOpaque(data).takeUnretainedValue().startingGainDb()
}
