import Foundation

/// "Which pressing": the releases of an album's release group, and switching the album to one.
extension ScanPipeline {
    /// The pressings of album `albumID`: every release of its release group, official first
    /// (`MusicBrainzClient.pressings(ofReleaseGroup:)`). Throws `PressingError` for an album
    /// that is gone or has no release group, or offline; `MusicBrainzError` when MusicBrainz
    /// cannot be asked.
    public func pressings(ofAlbum albumID: Int64) async throws -> [Pressing] {
        let group = try releaseGroup(ofAlbum: albumID)
        guard let musicBrainz = services.musicBrainz else { throw PressingError.offline }
        return try await musicBrainz.pressings(ofReleaseGroup: group)
    }

    /// Switches album `albumID` to release `releaseID` (an MBID from `pressings(ofAlbum:)`): looks
    /// the release up, refuses one of another release group, saves the switch in one transaction
    /// (`AppDatabase.switchPressing`) and then fetches the new release's artwork (a failure
    /// leaves it pending for the repair pass). Returns the album that now stands for the release
    /// — another album's when the crate already had that release (this one was merged into it).
    /// Nothing changes when it throws.
    @discardableResult
    public func switchPressing(albumID: Int64, releaseID: String) async throws -> Album {
        guard let release = MBID(validating: releaseID.trimmingCharacters(in: .whitespaces)) else {
            throw PressingError.invalidRelease(releaseID)
        }
        let group = try releaseGroup(ofAlbum: albumID)
        guard let musicBrainz = services.musicBrainz else { throw PressingError.offline }
        let details = try await musicBrainz.release(release)
        // Checked before the write too (the write checks again, against the album as it is then).
        guard details.album.musicBrainzReleaseGroupID == group.rawValue else { throw PressingError.notAPressing }
        let album = try database.switchPressing(albumID: albumID, to: details)
        guard let switchedID = album.id, album.artworkStatus != .available else { return album }
        // A repair pass in another process may hold the album: it fetches the art then.
        if (try? database.claimDetails(albumID: switchedID)) == true {
            _ = await fetchArtwork(for: album)
            try? database.releaseDetailsClaim(albumID: switchedID)
        }
        return (try? database.album(id: switchedID)) ?? album
    }

    private func releaseGroup(ofAlbum albumID: Int64) throws -> MBID {
        guard let album = try database.album(id: albumID) else { throw PressingError.albumNotFound }
        guard let group = MBID(validating: album.musicBrainzReleaseGroupID) else { throw PressingError.noReleaseGroup }
        return group
    }
}
