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
