import Foundation

/// A looked-up release: everything Crate saves about the album, and its track list.
public struct ReleaseDetails: Equatable, Sendable {
    /// Ready to insert; `artworkStatus` is `.pending` until the Cover Art Archive answers.
    public var album: Album
    public var tracks: [ReleaseTrack]
    public var status: String?
    public var country: String?

    public init(album: Album, tracks: [ReleaseTrack], status: String? = nil, country: String? = nil) {
        self.album = album
        self.tracks = tracks
        self.status = status
        self.country = country
    }

    /// The tracks as rows for `albumID`, in canonical order.
    public func makeTracks(albumID: Int64) -> [Track] {
        tracks.map {
            Track(albumID: albumID, disc: $0.disc, position: $0.position, number: $0.number, title: $0.title, durationMs: $0.durationMs, recordingID: $0.recordingID?.rawValue)
        }
    }
}

/// One track of a looked-up release.
public struct ReleaseTrack: Equatable, Sendable {
    /// The medium's position (disc 1, side/disc 2, …).
    public var disc: Int
    public var position: Int
    /// As printed: "A1", "3".
    public var number: String?
    public var title: String
    public var durationMs: Int?
    public var recordingID: MBID?

    public init(disc: Int, position: Int, number: String?, title: String, durationMs: Int?, recordingID: MBID?) {
        self.disc = disc
        self.position = position
        self.number = number
        self.title = title
        self.durationMs = durationMs
        self.recordingID = recordingID
    }
}

extension ReleaseDetails {
    /// Genres are MusicBrainz's curated list; when a release has none, its most-voted tags stand in.
    static let maxGenres = 5

    init(_ release: MBRelease, id: MBID) {
        let ranked = { (tags: [MBTag]) -> [String] in
            tags.sorted { ($0.count ?? 0, $1.name) > ($1.count ?? 0, $0.name) }.map(\.name)
        }
        var genres = ranked(release.genres)
        if genres.isEmpty { genres = ranked(release.tags) }
        album = Album(
            musicBrainzReleaseID: id.rawValue,
            musicBrainzReleaseGroupID: MBID(validating: release.releaseGroup?.id)?.rawValue,
            title: release.title ?? release.releaseGroup?.title ?? "",
            artist: release.artistName,
            year: release.year ?? release.releaseGroup?.firstReleaseDate.flatMap { $0.count >= 4 ? String($0.prefix(4)) : nil },
            genres: Array(genres.prefix(Self.maxGenres)),
            label: release.labelInfo.lazy.compactMap(\.labelName).first,
            artworkStatus: .pending
        )
        var tracks: [ReleaseTrack] = []
        for (mediumIndex, medium) in release.media.enumerated() {
            for (trackIndex, track) in medium.tracks.enumerated() {
                tracks.append(ReleaseTrack(
                    disc: medium.position ?? mediumIndex + 1,
                    position: track.position ?? trackIndex + 1,
                    number: track.number,
                    title: track.title ?? track.recordingTitle ?? "",
                    durationMs: track.length ?? track.recordingLength,
                    recordingID: MBID(validating: track.recordingID)
                ))
            }
        }
        self.tracks = tracks.sorted { ($0.disc, $0.position) < ($1.disc, $1.position) }
        status = release.status
        country = release.country
    }
}
