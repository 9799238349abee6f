import CrateCore
import Foundation

/// Makes small real audio files at test time: `gst-launch-1.0 audiotestsrc ! flacenc` (one
/// encode per length, then copies), tagged with TagLib. Nothing is checked in.
public enum AudioFixtures {
    /// Samples per buffer at 44.1 kHz; `seconds` is rounded up to whole buffers.
    static let samplesPerBuffer = 1024

    public enum FixtureError: Error {
        case encoderFailed(String)
        case taggingFailed(String)
    }

    /// A FLAC file of `seconds` of sine at `path`, tagged with `tags` (property-map keys:
    /// TITLE, ARTIST, ALBUMARTIST, ALBUM, TRACKNUMBER, DISCNUMBER, MUSICBRAINZ_ALBUMID, …).
    @discardableResult
    public static func flac(at path: String, seconds: Double = 0.3, tags: [String: String] = [:]) throws -> String {
        let template = try encoded(seconds: seconds)
        let fm = FileManager.default
        try fm.createDirectory(atPath: (path as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
        if fm.fileExists(atPath: path) { try fm.removeItem(atPath: path) }
        try fm.copyItem(atPath: template, toPath: path)
        if !tags.isEmpty, !TagReader.write(tags, to: path) { throw FixtureError.taggingFailed(path) }
        return path
    }

    /// Tags for track `track` of an album.
    public static func tags(artist: String, album: String, title: String, track: Int, disc: Int? = nil, releaseID: String? = nil,
                            releaseGroupID: String? = nil) -> [String: String] {
        var tags = ["ARTIST": artist, "ALBUMARTIST": artist, "ALBUM": album, "TITLE": title, "TRACKNUMBER": String(track)]
        if let disc { tags["DISCNUMBER"] = String(disc) }
        if let releaseID { tags["MUSICBRAINZ_ALBUMID"] = releaseID }
        if let releaseGroupID { tags["MUSICBRAINZ_RELEASEGROUPID"] = releaseGroupID }
        return tags
    }

    /// The untagged encode for a length, made once per process.
    static func encoded(seconds: Double) throws -> String {
        let buffers = max(1, Int((seconds * 44_100 / Double(samplesPerBuffer)).rounded(.up)))
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("crate-audio-fixtures-\(getpid())")
        let path = directory.appendingPathComponent("sine-\(buffers).flac").path
        return try cache.withLock { made in
            if made.contains(path), FileManager.default.fileExists(atPath: path) { return path }
            try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
            let process = Process()
            process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
            process.arguments = ["gst-launch-1.0", "-q", "audiotestsrc", "num-buffers=\(buffers)", "samplesperbuffer=\(samplesPerBuffer)",
                                 "!", "audio/x-raw,rate=44100,channels=2", "!", "audioconvert", "!", "flacenc", "!", "filesink", "location=\(path)"]
            process.standardOutput = FileHandle.nullDevice
            process.standardError = FileHandle.nullDevice
            try process.run()
            process.waitUntilExit()
            guard process.terminationStatus == 0, FileManager.default.fileExists(atPath: path) else {
                throw FixtureError.encoderFailed("gst-launch-1.0 exited with \(process.terminationStatus)")
            }
            made.insert(path)
            return path
        }
    }

    private static let cache = LockedSet()
}

/// The encodes made so far (tests run in parallel).
private final class LockedSet: @unchecked Sendable {
    private let lock = NSLock()
    private var paths = Set<String>()

    func withLock<T>(_ body: (inout Set<String>) throws -> T) rethrows -> T {
        lock.lock()
        defer { lock.unlock() }
        return try body(&paths)
    }
}
