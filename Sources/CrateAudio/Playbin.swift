import CCratePlugins
import CrateCore
import Foundation

/// One GStreamer `playbin`, audio only, with the gapless fixes for MP3 and M4A, the ReplayGain
/// filter and an optional sink from `CRATE_AUDIO_SINK`: the pipeline calls `GStreamerPlayer`
/// makes, and nothing about its queue. Made on the main actor; `about-to-finish` and the bus
/// reach the player through `session` and `deliver`.
@MainActor
final class Playbin {
    /// The states Crate uses: stopped with both of playbin's groups disposed of (never READY,
    /// see `GStreamerPlayer`), paused and playing.
    enum State: Int32 {
        case null = 1
        case paused = 3, playing = 4
    }

    let session: GStreamerSession
    /// The named sink element inside `CRATE_AUDIO_SINK` (for measurements), if any.
    private(set) var sinkElement: UnsafeMutableRawPointer?
    private var replayGainFilter: ReplayGainFilter
    private let gst: GStreamerCalls
    private var element: UnsafeMutableRawPointer?
    private var bus: BusReader?

    /// Opens libCrateGStreamer.so and builds the playbin; bus events go to `deliver` (on a
    /// GStreamer thread, with the generation they were posted in).
    init(sinkDescription: String?, volume: Double, deliver: @escaping @Sendable (BusEvent, Int) -> Void) throws {
        let gst = try GStreamerRuntime.calls()
        guard let playbin = gst.table.element_factory_make("playbin", "crate-player") else {
            throw AudioPlaybackError.playerUnavailable
        }
        gst.table.set_audio_only(playbin)
        // MP3s and M4As from ffmpeg join without a gap too (docs/decisions/0046-replaygain-and-lossy-gapless.md).
        gst.table.read_lavc_gapless(playbin)
        gst.table.trim_m4a_gapless(playbin)
        if let sinkDescription, !sinkDescription.trimmingCharacters(in: .whitespaces).isEmpty {
            var errorText: UnsafeMutablePointer<CChar>?
            guard let sink = gst.table.sink_from_description(sinkDescription, &errorText) else {
                gst.table.free_string(errorText)
                gst.table.object_unref(playbin)
                throw AudioPlaybackError.invalidSink(sinkDescription)
            }
            gst.table.set_audio_sink(playbin, sink)
            sinkElement = gst.table.bin_get_by_name(sink, "cratesink")
        }
        if volume != 1 { gst.table.set_volume(playbin, volume) }
        guard let pipelineBus = gst.table.element_get_bus(playbin) else {
            if let sinkElement { gst.table.object_unref(sinkElement) }
            gst.table.object_unref(playbin)
            throw AudioPlaybackError.playerUnavailable
        }
        let session = GStreamerSession(gst: gst)
        replayGainFilter = ReplayGainFilter(gst: gst, playbin: playbin, session: session)
        // The signal holds its own reference: the session outlives any streaming thread.
        let unmanaged = Unmanaged.passRetained(session).toOpaque()
        _ = gst.table.signal_connect(playbin, "about-to-finish", unsafeBitCast(aboutToFinish, to: (@convention(c) () -> Void).self), unmanaged)
        bus = BusReader(gst: gst, bus: pipelineBus, session: session, deliver: deliver)
        self.gst = gst
        self.session = session
        self.element = playbin
    }

    /// Stops and releases the pipeline; every call after it does nothing.
    func close() {
        guard let element else { return }
        _ = gst.table.element_set_state(element, State.null.rawValue)
        bus?.stop()
        bus = nil
        if let sinkElement { gst.table.object_unref(sinkElement) }
        sinkElement = nil
        gst.table.object_unref(element)
        self.element = nil
    }

    func set(_ state: State) {
        guard let element else { return }
        _ = gst.table.element_set_state(element, state.rawValue)
    }

    func setURI(_ uri: String?) {
        guard let element else { return }
        gst.table.set_uri(element, uri)
    }

    func setVolume(_ volume: Double) {
        guard let element else { return }
        gst.table.set_volume(element, volume)
    }

    /// Changes the gain filter (only while stopped); false when the limiter is not installed.
    @discardableResult
    func applyReplayGain(_ mode: ReplayGainMode) -> Bool {
        replayGainFilter.apply(mode)
    }

    /// A flushing, accurate seek; false when the pipeline cannot seek yet.
    func seek(toMs positionMs: Int) -> Bool {
        guard let element else { return false }
        session.seekStarting()
        let made = gst.table.element_seek_ns(element, Int64(positionMs) * 1_000_000) != 0
        session.seekEnded(made: made)
        return made
    }

    /// Where playback is now, or nil before the pipeline knows.
    func positionMs() -> Int? {
        guard let element else { return nil }
        var position: Int64 = 0
        guard gst.table.query_position_ns(element, &position) != 0, position >= 0 else { return nil }
        return Int(position / 1_000_000)
    }

    func durationMs() -> Int? {
        guard let element else { return nil }
        var duration: Int64 = 0
        guard gst.table.query_duration_ns(element, &duration) != 0, duration > 0 else { return nil }
        return Int(duration / 1_000_000)
    }
}

/// `about-to-finish`, on a streaming thread: hand playbin the next file, if any.
private let aboutToFinish: @convention(c) (UnsafeMutableRawPointer?, UnsafeMutableRawPointer?) -> Void = { playbin, data in
    guard let playbin, let data else { return }
    let session = Unmanaged<GStreamerSession>.fromOpaque(data).takeUnretainedValue()
    if let uri = session.queueNext() {
        session.gst.table.set_uri(playbin, uri)
    }
}
