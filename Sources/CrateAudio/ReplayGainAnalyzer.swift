import CCratePlugins
import CrateCore
import Foundation

/// An album's gain measured with GStreamer's `rganalysis` (`crate music analyze`): the album's
/// files decoded one after another through `concat` into one stream, so the analysis sees the
/// album as a whole (an album gain, not an average of track gains). Nothing is written into the
/// files; the caller stores the result in the library.
public final class ReplayGainAnalyzer {
    private let gst: GStreamerCalls

    /// Throws when the playback engine or gstreamer1.0-plugins-good's ReplayGain elements are missing.
    public init() throws {
        gst = try GStreamerRuntime.calls()
        guard gst.table.has_element("rganalysis") != 0, gst.table.has_element("concat") != 0 else {
            throw AlbumGainError.analysisUnavailable
        }
    }

    /// The gst-launch description: each file decoded, converted and resampled to one rate, then
    /// joined. URIs are percent-encoded (`MusicFile.uri`), so quoting them is safe.
    static func description(files: [String]) -> String {
        var text = "concat name=album ! audioconvert ! rganalysis ! fakesink sync=false"
        for file in files {
            text += " uridecodebin uri=\"\(MusicFile.uri(forPath: file))\" ! audioconvert ! audioresample ! audio/x-raw,rate=44100 ! album."
        }
        return text
    }

    /// The album gain and peak of `files` (in play order). Throws `AlbumGainError.unreadable`
    /// with the failing file, `noResult` when nothing was measured in time.
    public func albumGain(files: [String], timeoutSeconds: Double = 600) throws -> AlbumGain {
        guard !files.isEmpty else { throw PlaybackError.nothingToPlay }
        var errorText: UnsafeMutablePointer<CChar>?
        guard let pipeline = gst.table.pipeline_from_description(Self.description(files: files), &errorText) else {
            gst.table.free_string(errorText)
            throw AlbumGainError.unreadable(path: files[0])
        }
        defer {
            _ = gst.table.element_set_state(pipeline, Int32(CRATE_GST_STATE_NULL))
            gst.table.object_unref(pipeline)
        }
        guard let bus = gst.table.element_get_bus(pipeline) else { throw AlbumGainError.analysisUnavailable }
        defer { gst.table.object_unref(bus) }
        _ = gst.table.element_set_state(pipeline, Int32(CRATE_GST_STATE_PLAYING))
        var gain: Double?, peak: Double?
        let deadline = DispatchTime.now().uptimeNanoseconds + UInt64(timeoutSeconds * 1e9)
        while DispatchTime.now().uptimeNanoseconds < deadline {
            guard let message = gst.table.bus_timed_pop(bus, 200_000_000) else { continue }
            defer { gst.table.message_unref(message) }
            switch Int(gst.table.message_type(message)) {
            case CRATE_GST_MESSAGE_TAG:
                var value = 0.0
                if gst.table.message_tag_double(message, "replaygain-track-gain", &value) != 0 { gain = value }
                if gst.table.message_tag_double(message, "replaygain-track-peak", &value) != 0 { peak = value }
            case CRATE_GST_MESSAGE_EOS:
                guard let gain else { throw AlbumGainError.noResult(path: files[0]) }
                return AlbumGain(gainDb: gain, peak: peak ?? 1)
            case CRATE_GST_MESSAGE_ERROR:
                let source = gst.table.message_source_uri(message).map { uri -> String in
                    defer { gst.table.free_string(uri) }
                    return String(cString: uri)
                }
                let path = source.flatMap { uri in files.first { MusicFile.uri(forPath: $0) == uri } } ?? files[0]
                throw AlbumGainError.unreadable(path: path)
            default:
                break
            }
        }
        throw AlbumGainError.noResult(path: files[0])
    }
}
