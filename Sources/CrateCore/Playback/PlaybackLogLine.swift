import Foundation

/// One line of `playback.log`: a command the player received or a state it entered.
///
/// Encoded as one JSON object per line with sorted keys, so logs diff cleanly between runs.
public struct PlaybackLogLine: Codable, Equatable, Sendable {
    /// The track a line refers to.
    public struct TrackInfo: Codable, Equatable, Sendable {
        public var disc: Int
        public var position: Int
        public var title: String
        public var duration_ms: Int?

        public init(disc: Int, position: Int, title: String, duration_ms: Int?) {
            self.disc = disc
            self.position = position
            self.title = title
            self.duration_ms = duration_ms
        }
    }

    /// Wall-clock time (ISO 8601, milliseconds).
    public var time: String
    /// Milliseconds on the playback clock.
    public var elapsed_ms: Int
    /// Set on command lines: load, play, pause, stop, seek, next, previous.
    public var command: String?
    /// Set on state lines: stopped, playing, paused.
    public var state: String?
    /// Why a state was entered when it is not obvious ("end_of_queue").
    public var reason: String?
    public var album_id: Int64?
    /// Index of the entry in the loaded queue.
    public var entry: Int?
    public var track: TrackInfo?
    public var position_ms: Int?
    /// The file played (real playback), as a `file://` URI.
    public var uri: String?
    /// What went wrong, in the user's words (a skipped file, a missing plugin).
    public var message: String?

    public init(time: String, elapsed_ms: Int, command: String? = nil, state: String? = nil, reason: String? = nil, album_id: Int64? = nil,
                entry: Int? = nil, track: TrackInfo? = nil, position_ms: Int? = nil, uri: String? = nil, message: String? = nil) {
        self.time = time
        self.elapsed_ms = elapsed_ms
        self.command = command
        self.state = state
        self.reason = reason
        self.album_id = album_id
        self.entry = entry
        self.track = track
        self.position_ms = position_ms
        self.uri = uri
        self.message = message
    }

    /// The line as compact JSON.
    public func encoded() -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        do {
            return String(decoding: try encoder.encode(self), as: UTF8.self)
        } catch {
            // Plain strings and numbers always encode; keep a marker rather than crash if not.
            Log.error("playback log line could not be encoded: \(error)")
            return "{\"error\":\"unencodable log line\"}"
        }
    }

    public static func timestamp(_ date: Date) -> String {
        let formatter = ISO8601DateFormatter()
        formatter.formatOptions = [.withInternetDateTime, .withFractionalSeconds]
        return formatter.string(from: date)
    }
}
