import Foundation

/// Errors of real playback (the music folder and GStreamer); messages are decided here. No
/// GStreamer text reaches the user: the player maps each bus error to one of these.
public enum AudioPlaybackError: Error, Equatable, Sendable, Codable {
    /// The album has no files in the music folder.
    case notInMusicFolder(albumID: Int64)
    /// The album has files, but not this track (disc, position).
    case trackNotInMusicFolder(albumID: Int64, disc: Int, position: Int)
    /// Several albums in the music folder fit; Crate lists them instead of guessing.
    case ambiguousFiles(albumID: Int64, folders: [String])
    /// No GStreamer plugin decodes this format; `package` provides one.
    case missingPlugin(format: String, package: String)
    /// A file of the queue is gone (deleted or moved since the scan): skipped.
    case fileMissing(path: String)
    /// A file could not be decoded (damaged, truncated, not audio): skipped.
    case unreadableFile(path: String)
    /// No sound output could be opened (no sound card, no PulseAudio/PipeWire).
    case noAudioOutput
    /// `CRATE_AUDIO_SINK` is not a GStreamer sink description that can be built.
    case invalidSink(String)
    /// GStreamer's `playbin` is not installed.
    case playerUnavailable
    /// GStreamer failed in a way Crate does not know more about.
    case playbackFailed(path: String?)

    public var message: String {
        switch self {
        case .notInMusicFolder:
            return L10n.tr("Not in your music folder")
        case .trackNotInMusicFolder:
            return L10n.tr("This track is not in your music folder")
        case .ambiguousFiles(_, let folders):
            return L10n.tr("Several albums in your music folder could be this one (%@); Crate does not guess. Tag the files with their MusicBrainz release, or keep one copy.", folders.joined(separator: "; "))
        case .missingPlugin(let format, let package):
            return L10n.tr("Install %@ to play %@ files.", package, format)
        case .fileMissing(let path):
            return L10n.tr("%@ is no longer in your music folder; skipped to the next track.", PathBytes.displayName(path))
        case .unreadableFile(let path):
            return L10n.tr("%@ is damaged or not audio Crate can play; skipped to the next track.", PathBytes.displayName(path))
        case .noAudioOutput:
            return L10n.tr("Crate could not open a sound output. Check that a sound card (or PulseAudio/PipeWire) is available.")
        case .invalidSink(let description):
            return L10n.tr("CRATE_AUDIO_SINK=%@ is not a GStreamer audio sink Crate can use (try \"autoaudiosink\" or \"fakesink sync=true\").", description)
        case .playerUnavailable:
            return L10n.tr("GStreamer's player is not installed: install gstreamer1.0-plugins-base.")
        case .playbackFailed(let path):
            return path.map { "Crate could not play \(PathBytes.displayName($0)); skipped to the next track." } ?? "Crate could not play this track."
        }
    }

    /// The package that adds a decoder for caps a "missing-plugin" message names.
    public static func missingPlugin(forCaps caps: String) -> AudioPlaybackError {
        let lower = caps.lowercased()
        if lower.hasPrefix("audio/mpeg") && (lower.contains("mpegversion=(int)4") || lower.contains("mpegversion=(int)2")) {
            return .missingPlugin(format: "AAC", package: "gstreamer1.0-libav")
        }
        if lower.hasPrefix("audio/mpeg") { return .missingPlugin(format: "MP3", package: "gstreamer1.0-plugins-good") }
        if lower.hasPrefix("video/quicktime") || lower.hasPrefix("audio/x-m4a") {
            return .missingPlugin(format: "M4A", package: "gstreamer1.0-plugins-good")
        }
        if lower.hasPrefix("audio/x-flac") { return .missingPlugin(format: "FLAC", package: "gstreamer1.0-plugins-good") }
        if lower.hasPrefix("audio/x-opus") { return .missingPlugin(format: "Opus", package: "gstreamer1.0-plugins-base") }
        if lower.hasPrefix("audio/x-vorbis") || lower.hasPrefix("application/ogg") {
            return .missingPlugin(format: "Ogg Vorbis", package: "gstreamer1.0-plugins-base")
        }
        if lower.hasPrefix("audio/x-wav") || lower.hasPrefix("audio/x-raw") { return .missingPlugin(format: "WAV", package: "gstreamer1.0-plugins-good") }
        return .missingPlugin(format: "these", package: "gstreamer1.0-libav")
    }
}

extension AudioPlaybackError: LocalizedError {
    public var errorDescription: String? { message }
}

extension PathBytes {
    /// A path for a sentence: valid text as is, each raw byte shown as "\xFF".
    public static func displayName(_ path: String) -> String {
        var text = ""
        for scalar in path.unicodeScalars {
            if let byte = rawByte(scalar) { text += String(format: "\\x%02X", byte) } else { text.unicodeScalars.append(scalar) }
        }
        return text
    }
}
