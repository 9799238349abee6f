import Foundation

/// "Not this pressing?" for the album pane. Through the window's own scan pipeline, so the
/// new pressing's cover joins the tier-0 index this session matches against.
extension AppModel {
    /// The pressings of a crate album, official first (see `ScanPipeline.pressings(ofAlbum:)`).
    /// Throws `PressingError` or `MusicBrainzError`; `UserMessage.text(for:)` words either.
    public func pressings(ofAlbum albumID: Int64) async throws -> [Pressing] {
        let pipeline = self.pipeline
        return try await Task.detached { try await pipeline.pressings(ofAlbum: albumID) }.value
    }

    /// "Tell Crate what it is": the MusicBrainz releases that fit what the user says.
    public func candidates(for manual: ManualIdentification) async throws -> [ScanCandidate] {
        let pipeline = self.pipeline
        return try await Task.detached { try await pipeline.candidates(for: manual) }.value
    }

    /// Switches the album to pressing `releaseID` (one transaction; the cover is fetched after).
    /// Returns the album that now stands for the release: another one's id when the crate had
    /// that release already and this album was merged into it — show that one.
    @discardableResult
    public func switchPressing(albumID: Int64, releaseID: String) async throws -> Album {
        let pipeline = self.pipeline
        return try await Task.detached { try await pipeline.switchPressing(albumID: albumID, releaseID: releaseID) }.value
    }
}
