import Foundation

/// Artwork files of an album, resolved against the artwork cache directory in use now (the
/// library stores them relative to it; see `ArtworkCache.url(forStoredPath:in:)`).
extension Album {
    /// The 500 px image.
    public func artworkURL(in artworkDirectory: URL) -> URL? {
        ArtworkCache.url(forStoredPath: artworkPath, in: artworkDirectory)
    }

    /// The 200 px image.
    public func thumbnailURL(in artworkDirectory: URL) -> URL? {
        ArtworkCache.url(forStoredPath: thumbnailPath, in: artworkDirectory)
    }
}
