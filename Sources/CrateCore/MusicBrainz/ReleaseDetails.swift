import Foundation

/// A looked-up release: everything Crate saves about the album, and its track list.
public struct ReleaseDetails: Equatable, Sendable {
    /// Ready to insert; `artworkStatus` is `.pending` until the Cover Art Archive answers.
    public var album: Album
    /// The playable tracks: a pregap first (position 0), video media's tracks left out.
    public var tracks: [ReleaseTrack]
    /// Barcode, catalogue numbers, labels, media … of this exact release.
    public var facts: ReleaseFacts

    public init(album: Album, tracks: [ReleaseTrack], facts: ReleaseFacts = ReleaseFacts()) {
        self.album = album
        self.tracks = tracks
        self.facts = facts
    }

    public var status: String? { facts.status }
    public var country: String? { facts.country }

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
        var media: [ReleaseMedium] = []
        for (mediumIndex, medium) in release.media.enumerated() {
            let disc = medium.position ?? mediumIndex + 1
            // A lookup without recordings lists no tracks, only their count.
            let audio = medium.tracks.isEmpty ? (medium.trackCount ?? 0) : medium.tracks.count
            media.append(ReleaseMedium(position: disc, format: medium.format, title: medium.title,
                                       trackCount: audio + (medium.pregap == nil ? 0 : 1)))
            // A video disc is listed, never queued: its "tracks" are chapters of a film.
            guard !ReleaseMedium.isVideoFormat(medium.format) else { continue }
            if let pregap = medium.pregap {
                tracks.append(ReleaseTrack(pregap, disc: disc, position: 0))
            }
            for (trackIndex, track) in medium.tracks.enumerated() {
                tracks.append(ReleaseTrack(track, disc: disc, position: track.position ?? trackIndex + 1))
            }
        }
        // Two tracks at one place (a malformed answer) would break the track table's key: the first stays.
        var seen = Set<[Int]>()
        self.tracks = tracks.sorted { ($0.disc, $0.position) < ($1.disc, $1.position) }.filter { seen.insert([$0.disc, $0.position]).inserted }
        facts = ReleaseFacts(
            releaseID: id.rawValue,
            barcode: release.barcode.flatMap { $0.trimmingCharacters(in: .whitespaces).isEmpty ? nil : $0 },
            catalogNumbers: Self.distinct(release.labelInfo.compactMap(\.catalogNumber)),
            labels: Self.distinct(release.labelInfo.compactMap(\.labelName)),
            country: release.country.flatMap { $0.isEmpty ? nil : $0 },
            date: release.date.flatMap { $0.isEmpty ? nil : $0 },
            packaging: release.packaging.flatMap { $0.isEmpty ? nil : $0 },
            status: release.status.flatMap { $0.isEmpty ? nil : $0 },
            media: media
        )
    }

    /// Non-empty values in their first order, each once ("[none]" catalogue numbers are MusicBrainz's "none" too).
    private static func distinct(_ values: [String]) -> [String] {
        var seen = Set<String>()
        return values.map { $0.trimmingCharacters(in: .whitespaces) }
            .filter { !$0.isEmpty && $0.lowercased() != "[none]" && seen.insert($0).inserted }
    }
}

extension ReleaseTrack {
    init(_ track: MBTrack, disc: Int, position: Int) {
        self.init(disc: disc, position: position, number: track.number, title: track.title ?? track.recordingTitle ?? "",
                  durationMs: track.length ?? track.recordingLength, recordingID: MBID(validating: track.recordingID))
    }
}
