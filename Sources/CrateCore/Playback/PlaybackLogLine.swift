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

    static func timestamp(_ date: Date) -> String {
        let formatter = ISO8601DateFormatter()
        formatter.formatOptions = [.withInternetDateTime, .withFractionalSeconds]
        return formatter.string(from: date)
    }
}
