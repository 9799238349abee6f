import Foundation

/// What a listen says about a track: the names both services need, and the MusicBrainz ids when
/// the library knows them (ListenBrainz links the listen to the recording with them).
public struct ListenTrack: Equatable, Hashable, Codable, Sendable {
    public var artist: String
    public var title: String
    public var release: String?
    public var durationMs: Int?
    /// The printed number ("A1", "3"), else the position.
    public var trackNumber: String?
    public var discNumber: Int?
    public var recordingID: String?
    public var releaseID: String?
    public var releaseGroupID: String?

    public init(artist: String, title: String, release: String? = nil, durationMs: Int? = nil, trackNumber: String? = nil,
                discNumber: Int? = nil, recordingID: String? = nil, releaseID: String? = nil, releaseGroupID: String? = nil) {
        self.artist = artist
        self.title = title
        self.release = release
        self.durationMs = durationMs
        self.trackNumber = trackNumber
        self.discNumber = discNumber
        self.recordingID = recordingID
        self.releaseID = releaseID
        self.releaseGroupID = releaseGroupID
    }

    /// A library track of `album`.
    public init(track: Track, album: Album) {
        self.init(artist: album.artist, title: track.title, release: album.title, durationMs: track.durationMs,
                  trackNumber: track.number ?? String(track.position), discNumber: track.disc, recordingID: track.recordingID,
                  releaseID: album.musicBrainzReleaseID, releaseGroupID: album.musicBrainzReleaseGroupID)
    }

    /// The track's identity in the outbox's unique key: the recording when known, else the
    /// names (folded, so "The Cure" and "the cure" are one track).
    public var identity: String {
        if let recordingID, !recordingID.isEmpty { return "mbid:" + recordingID.lowercased() }
        return [artist, title, release ?? ""].map { $0.lowercased().trimmingCharacters(in: .whitespaces) }.joined(separator: "\u{1F}")
    }
}
