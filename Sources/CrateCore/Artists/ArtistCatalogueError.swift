import Foundation

/// Why an artist could not be found or opened.
public enum ArtistCatalogueError: Error, Equatable, Sendable, LocalizedError {
    /// A name search found nobody.
    case noArtistNamed(String)
    /// MusicBrainz does not know this artist id (404 on browse).
    case noSuchArtist(MBID)
    /// Nothing cached for this artist and MusicBrainz cannot be asked (offline mode).
    case notCached

    public var errorDescription: String? {
        switch self {
        case .noArtistNamed(let name): return "MusicBrainz knows no artist called \u{201C}\(name)\u{201D}."
        case .noSuchArtist: return "MusicBrainz has no artist with that identifier."
        case .notCached: return "This artist's albums are not saved on this computer yet. Connect to the internet to load them."
        }
    }
}

extension ArtistCatalogueError {
    /// What the artist page says when looking up `artist` failed: MusicBrainz's "no such release"
    /// is about releases, so a 404 here is said as an artist that is not there.
    public static func message(for error: Error, artist: String) -> String {
        if let error = error as? MusicBrainzError, case .notFound = error {
            return ArtistCatalogueError.noArtistNamed(artist).errorDescription ?? UserMessage.text(for: error)
        }
        return UserMessage.text(for: error)
    }
}
