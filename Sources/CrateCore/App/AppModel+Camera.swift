import Foundation

/// The camera's live verdict: tier 0 on a preview frame, through the window's own scan pipeline
/// (its tier-0 index is the one scans match against).
extension AppModel {
    /// The crate album the frame shows, with its verdict; nil when tier 0 does not know it, or
    /// the frame could not be read (the user can still take the photo for a full scan).
    public func sighting(in frame: RGBImage) async -> LiveSighting? {
        let pipeline = self.pipeline
        do {
            return try await Task.detached { try await pipeline.sighting(in: frame) }.value
        } catch is CancellationError {
            return nil
        } catch {
            Log.notice("camera: tier 0 could not look at the preview: \(UserMessage.text(for: error))")
            return nil
        }
    }
}
