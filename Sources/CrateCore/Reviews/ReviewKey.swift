import Foundation

/// The cache key of a review: the album's artist and title as `MusicText` folds them, so a
/// rescan — or a scan of the deluxe reissue — finds the review already written.
///
/// "Rumours (Super Deluxe Edition) [2013 Remaster]" and "Rumours" by "Fleetwood Mac" share the key
/// `fleetwood mac|rumours`. Keys are stored: a change to the folding re-keys the stored reviews
/// (`AppDatabase.rekeyMusicText`) and keeps the old key as a fallback for a lookup.
public enum ReviewKey {
    public static func make(artist: String, title: String) -> String {
        "\(MusicText.artist(artist))|\(MusicText.title(title))"
    }
}
