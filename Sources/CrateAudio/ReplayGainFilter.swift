import CCratePlugins
import CrateCore
import Foundation

/// playbin's audio filter for ReplayGain: `rgvolume` in album mode, then `rglimiter` (a soft
/// knee above −6 dBFS, so a gain that would clip does not). `rgvolume` reads the stream's
/// REPLAYGAIN_* tags itself; an album without them plays at `fallbackGainDb` (the gain the
/// library stored, `crate music analyze`), 0 dB when none is known.
/// The filter can only be put in or taken out while the playbin is stopped (NULL): the player
/// applies the mode at each `load`.
struct ReplayGainFilter {
    static let description = "rgvolume name=crate-rgvolume album-mode=true ! rglimiter"

    private let gst: GStreamerCalls
    private let playbin: UnsafeMutableRawPointer
    private var applied: ReplayGainMode = .off
    private var volume: UnsafeMutableRawPointer?

    init(gst: GStreamerCalls, playbin: UnsafeMutableRawPointer) {
        self.gst = gst
        self.playbin = playbin
    }

    /// Whether the ReplayGain elements are installed (gstreamer1.0-plugins-good).
    static func available(_ gst: GStreamerCalls) -> Bool {
        gst.table.has_element("rgvolume") != 0 && gst.table.has_element("rglimiter") != 0
    }

    /// Puts the filter in (album) or takes it out (off); the playbin must be stopped. Returns
    /// false when the elements are missing (the album then plays without gain).
    @discardableResult
    mutating func apply(_ mode: ReplayGainMode, fallbackGainDb: Double?) -> Bool {
        if mode != applied {
            release()
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
                volume = gst.table.bin_get_by_name(bin, "crate-rgvolume")
                // The bin's reference is floating: playbin takes it.
                gst.table.set_audio_filter(playbin, bin)
            }
            applied = mode
        }
        setFallback(fallbackGainDb)
        return true
    }

    /// The gain for streams without ReplayGain tags (the next album's stored gain).
    func setFallback(_ gainDb: Double?) {
        guard let volume else { return }
        gst.table.set_double_property(volume, "fallback-gain", gainDb ?? 0)
    }

    mutating func release() {
        if let volume { gst.table.object_unref(volume) }
        volume = nil
    }
}
