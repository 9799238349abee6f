import Foundation

/// One album on disk: the files sharing a group key, in disc and track order.
public struct DiskAlbum: Equatable, Sendable {
    public var groupKey: String
    public var artist: String
    public var title: String
    /// The folder holding it (the first file's album folder).
    public var directory: String
    public var musicBrainzAlbumID: String?
    public var musicBrainzReleaseGroupID: String?
    /// Disc, then track, then path.
    public var files: [MusicFile]

    /// The album gain its files' `R128_ALBUM_GAIN` tags give, when every file has one and they
    /// agree (within 0.05 dB): half-tagged albums are not levelled by half their tags.
    public var r128AlbumGainDb: Double? {
        guard let first = files.first?.r128AlbumGainDb,
              files.allSatisfy({ $0.r128AlbumGainDb.map { abs($0 - first) <= 0.05 } ?? false }) else { return nil }
        return first
    }
}

/// How a crate album was tied to files.
public enum MatchMethod: String, Equatable, Sendable, Codable {
    case releaseID = "release-id"
    case releaseGroupID = "release-group-id"
    case name
}

/// What matching found for one crate album.
public enum AlbumFileMatch: Equatable, Sendable {
    case matched(DiskAlbum, MatchMethod)
    /// Several albums on disk fit equally well: listed for the user, never picked silently.
    case ambiguous([DiskAlbum], MatchMethod)
    case none
}

/// A crate album with what matching found for it.
public struct AlbumMatchResult: Equatable, Sendable {
    public var album: Album
    public var match: AlbumFileMatch
}

/// Ties crate albums to files of the music folder: by MusicBrainz release id, then release-group
/// id, then the album artist + title as `MusicText.albumKey` folds them. At each step exactly one album
/// on disk must fit; two or more is "ambiguous", reported with the candidates.
public struct AlbumMatcher: Sendable {
    public let diskAlbums: [DiskAlbum]
    private let byRelease: [String: [Int]]
    private let byReleaseGroup: [String: [Int]]
    private let byKey: [String: [Int]]

    public init(files: [MusicFile]) {
        var groups: [String: [MusicFile]] = [:]
        var order: [String] = []
        for file in files where file.status == .ok {
            if groups[file.groupKey] == nil { order.append(file.groupKey) }
            groups[file.groupKey, default: []].append(file)
        }
        var albums: [DiskAlbum] = []
        for key in order {
            let sorted = Self.trackOrder(groups[key] ?? [])
            guard let first = sorted.first else { continue }
            albums.append(DiskAlbum(
                groupKey: key, artist: first.albumArtist, title: first.album, directory: MusicFile.albumDirectory(of: first.path),
                musicBrainzAlbumID: first.musicBrainzAlbumID,
                musicBrainzReleaseGroupID: sorted.lazy.compactMap(\.musicBrainzReleaseGroupID).first,
                files: sorted))
        }
        diskAlbums = albums
        var byRelease: [String: [Int]] = [:]
        var byReleaseGroup: [String: [Int]] = [:]
        var byKey: [String: [Int]] = [:]
        for (index, album) in albums.enumerated() {
            if let id = album.musicBrainzAlbumID { byRelease[id, default: []].append(index) }
            if let id = album.musicBrainzReleaseGroupID { byReleaseGroup[id, default: []].append(index) }
            byKey[album.files[0].albumKey, default: []].append(index)
        }
        self.byRelease = byRelease
        self.byReleaseGroup = byReleaseGroup
        self.byKey = byKey
    }

    public func match(_ album: Album) -> AlbumFileMatch {
        if let id = album.musicBrainzReleaseID?.lowercased(), let hits = byRelease[id], !hits.isEmpty {
            return result(hits, .releaseID)
        }
        if let id = album.musicBrainzReleaseGroupID?.lowercased(), let hits = byReleaseGroup[id], !hits.isEmpty {
            return result(hits, .releaseGroupID)
        }
        let key = MusicText.albumKey(artist: album.artist, title: album.title)
        if let hits = byKey[key], !hits.isEmpty {
            return result(hits, .name)
        }
        return .none
    }

    private func result(_ hits: [Int], _ method: MatchMethod) -> AlbumFileMatch {
        hits.count == 1 ? .matched(diskAlbums[hits[0]], method) : .ambiguous(hits.map { diskAlbums[$0] }, method)
    }

    /// Disc, then track (files without a number after those with one), then path.
    public static func trackOrder(_ files: [MusicFile]) -> [MusicFile] {
        files.sorted {
            ($0.disc, $0.track ?? Int.max, $0.path) < ($1.disc, $1.track ?? Int.max, $1.path)
        }
    }

    /// The queue tracks of a matched album: the files in order, numbered per disc. Positions come
    /// from the track tags when they are distinct within the disc, else from the order.
    public static func tracks(of diskAlbum: DiskAlbum, albumID: Int64) -> [(track: Track, file: MusicFile)] {
        var result: [(Track, MusicFile)] = []
        let discs = Dictionary(grouping: diskAlbum.files, by: \.disc)
        for disc in discs.keys.sorted() {
            let files = trackOrder(discs[disc] ?? [])
            let numbers = files.compactMap(\.track)
            let useTags = numbers.count == files.count && Set(numbers).count == numbers.count
            for (offset, file) in files.enumerated() {
                let position = useTags ? (file.track ?? offset + 1) : offset + 1
                result.append((Track(albumID: albumID, disc: disc, position: position, number: file.track.map(String.init),
                                     title: file.title, durationMs: file.durationMs, recordingID: file.musicBrainzTrackID), file))
            }
        }
        return result
    }

    /// Every crate album with its match, from the index as it is now.
    public static func matchAll(database: AppDatabase) throws -> [AlbumMatchResult] {
        let matcher = AlbumMatcher(files: try database.readableMusicFiles())
        return try database.allAlbums().map { AlbumMatchResult(album: $0, match: matcher.match($0)) }
    }
}
