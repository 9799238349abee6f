import Foundation

/// Which tracks of an album its review names as key tracks. Titles are compared loosely, as a
/// reviewer writes them: case, punctuation and a trailing "(2004 Remaster)" or "[Live]" do not
/// matter.
public enum KeyTracks {
    /// The ids of `tracks` whose title matches one of `names`.
    public static func ids(in tracks: [Track], named names: [String]) -> Set<Int64> {
        let wanted = Set(names.map(MusicText.trackTitle).filter { !$0.isEmpty })
        guard !wanted.isEmpty else { return [] }
        return Set(tracks.compactMap { track in
            guard let id = track.id, wanted.contains(MusicText.trackTitle(track.title)) else { return nil }
            return id
        })
    }
}

extension AlbumDetailState {
    /// The shown album's tracks that its review names as key tracks.
    public var keyTrackIDs: Set<Int64> {
        guard case .available(let review) = review else { return [] }
        return KeyTracks.ids(in: tracks, named: review.keyTracks)
    }
}
