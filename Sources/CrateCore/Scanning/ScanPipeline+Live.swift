import Foundation

/// A cover the camera's preview shows that the crate already knows, with what the collection says
/// about it: the live verdict, before any photo is taken.
public struct LiveSighting: Equatable, Sendable {
    public let album: Album
    public let verdict: Verdict

    public init(album: Album, verdict: Verdict) {
        self.album = album
        self.verdict = verdict
    }
}

extension ScanPipeline {
    /// Tier 0 on one preview frame: the album the crate has for this cover (hash shortlist, then
    /// verification against its artwork) and its verdict — offline, nothing saved, nothing paid.
    /// Nil when tier 0 does not recognise it (the user can still take the photo for a full scan).
    public func sighting(in frame: RGBImage) async throws -> LiveSighting? {
        let preparer = self.preparer
        let photo: PreparedPhoto
        do {
            photo = try await BlockingWork.run { try preparer.preparePhoto(JPEGCodec.encode(frame, quality: 90)) }
        } catch let error as ImageError {
            throw ScanFailure.badImage(error.message)
        }
        try Task.checkCancellation()
        guard let (album, _) = try await tierZero(photo) else { return nil }
        return LiveSighting(album: album, verdict: try database.verdict(for: album))
    }
}
