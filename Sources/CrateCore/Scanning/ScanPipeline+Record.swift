import Foundation

extension ScanPipeline {
    /// The scan's result with what the collection says about the record: the verdict (as the
    /// collection stood before this scan) and the release's facts. Reading them never fails a scan.
    func withRecord(_ result: ScanResult) -> ScanResult {
        var result = result
        do {
            result.verdict = try database.verdict(for: result.entry.album, excludingScan: result.entry.scan.id)
            result.releaseFacts = try result.entry.album.id.flatMap { try database.releaseFacts(albumID: $0) }
        } catch {
            Log.error("could not read the album's place in the collection: \(UserMessage.text(for: error))")
        }
        return result
    }
}
