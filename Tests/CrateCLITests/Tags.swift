import Testing

/// Tags for a fast lane: `scripts/test-fast` skips them and leaves a core suite that runs in a
/// few minutes; `swift test` and `./scripts/test` run everything.
extension Tag {
    /// Takes more than a few seconds on an idle machine (campaigns, real-time playback, pacing).
    @Tag static var slow: Self
    /// Starts processes: the `crate` binary, the player process, a window under Xvfb.
    @Tag static var process: Self
    /// Loads GStreamer in the test process or in the player process.
    @Tag static var gstreamer: Self
}
