import Foundation

/// What the detail pane shows for the selected album.
public struct AlbumDetailState: Equatable, Sendable {
    public enum ReviewStatus: Equatable, Sendable {
        /// No review was asked for yet (e.g. no provider configured).
        case none
        case loading
        case available(Review)
        /// Generation failed; `message` says why and what to do.
        case unavailable(message: String)
    }

    public var album: Album?
    public var tracks: [Track] = []
    /// The shown tracks (by disc and position) that have no file in the music folder; empty
    /// when all have one, or when playback needs no files (the simulated player).
    public var tracksWithoutFiles: Set<TrackSlot> = []
    public var review: ReviewStatus = .none
    public var errorMessage: String?
    /// A wall album that is not in the crate (the pane offers "Add to Crate"); nil for crate albums.
    public var wallItem: WallItem?
    /// "Add to Crate" is under way.
    public var isAddingToCrate = false
    /// The album's heart or ✕ (by release group; nil: neither, or no release group).
    public var rating: AlbumRating?
    /// The album's Discogs release, when a link is stored ("View on Discogs").
    public var discogs: DiscogsLink?

    public init() {}

    /// The Discogs page to open: only an https page on discogs.com (the link came from the network).
    public var discogsPage: URL? {
        guard let url = discogs?.url, url.scheme == "https", let host = url.host,
              host == "discogs.com" || host.hasSuffix(".discogs.com") else { return nil }
        return url
    }

    /// "match 92 %" under "View on Discogs".
    public var discogsMatchText: String? {
        guard let discogs, discogsPage != nil else { return nil }
        return L10n.tr("match %@ %%", Int((discogs.score * 100).rounded()))
    }

    /// The album as the rating intents name it (nil without a MusicBrainz release group).
    public var ratedAlbum: RatedAlbum? {
        if let wallItem { return RatedAlbum(releaseGroupID: wallItem.releaseGroupID, title: wallItem.title, artist: wallItem.artist, releaseID: wallItem.releaseID) }
        guard let album, let group = MBID(validating: album.musicBrainzReleaseGroupID) else { return nil }
        return RatedAlbum(releaseGroupID: group, title: album.title, artist: album.artist, releaseID: MBID(validating: album.musicBrainzReleaseID))
    }

    /// "Released 1977 · Rock · Warner Bros." — only the parts that are known.
    public var subtitle: String {
        guard let album else { return "" }
        var parts: [String] = []
        if let year = album.year, !year.isEmpty { parts.append(L10n.tr("Released %@", year)) }
        if let genre = album.genres.first { parts.append(genre.capitalized) }
        if let label = album.label, !label.isEmpty { parts.append(label) }
        return parts.joined(separator: " · ")
    }
}

extension AlbumDetailState {
    /// A wall album that is not in the crate: the wall's title, artist and cached art at once,
    /// its release's facts and tracks still to come.
    init(wallItem item: WallItem, artworkPath: String?, rating: AlbumRating?) {
        self.init()
        wallItem = item
        album = Album(musicBrainzReleaseID: item.releaseID?.rawValue, musicBrainzReleaseGroupID: item.releaseGroupID.rawValue,
                      title: item.title, artist: item.artist, artworkStatus: artworkPath == nil ? .pending : .available,
                      artworkPath: artworkPath, thumbnailPath: artworkPath, tracksStatus: .pending)
        self.rating = rating
    }

    /// The wall album's year, label, genres and tracks, once MusicBrainz answered.
    mutating func fill(from details: ReleaseDetails) {
        album?.year = details.album.year
        album?.label = details.album.label
        album?.genres = details.album.genres
        album?.musicBrainzReleaseID = details.album.musicBrainzReleaseID
        tracks = details.makeTracks(albumID: 0)
        album?.tracksStatus = .ok
    }
}
