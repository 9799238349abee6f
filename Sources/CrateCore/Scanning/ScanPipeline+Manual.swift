import Foundation

/// "Tell Crate what it is": no scan is a dead end. The user names the album, Crate lists the
/// MusicBrainz releases that fit (best first, with Crate's score), and the one chosen is saved
/// as a scan like any other (method manual): artwork, track list, review and release facts
/// follow, and its cover joins tier 0 for the next photo.
extension ScanPipeline {
    /// The releases that fit `manual`, best first (up to `limit`).
    public func candidates(for manual: ManualIdentification, limit: Int = 10) async throws -> [ScanCandidate] {
        guard let musicBrainz = services.musicBrainz else { throw ManualIdentificationError.offline }
        let match: ReleaseMatch
        do {
            match = try await musicBrainz.findRelease(manual.releaseQuery, limit: limit)
        } catch MusicBrainzError.mustWait(let seconds) {
            throw ScanFailure.mustWait(service: "MusicBrainz", seconds: seconds, queued: false)
        }
        let found = (match.best.map { [$0] } ?? []) + match.runnersUp
        return found.prefix(limit).map { ScanCandidate(album: Self.album(from: $0, answer: nil), score: $0.score) }
    }

    /// Saves `album` (one of `candidates(for:)`) as a scan, method manual, and fetches its
    /// details. With `unscannedPhoto` (a photo History lists without a scan) the photo's queue
    /// item is finished in the same transaction, so it leaves the list.
    public func identify(as album: Album, unscannedPhoto: Int64? = nil,
                         events: @escaping @Sendable (ScanEvent) -> Void = { _ in }) async throws -> ScanResult {
        try database.checkWritable()
        let entry = if let unscannedPhoto {
            try database.saveManualScan(of: album, forUnscannedPhoto: unscannedPhoto)
        } else {
            try database.saveScan(of: album, method: .manual)
        }
        events(.identified(entry.album))
        return withRecord(try await fetchDetails(for: entry, searchRelease: false, events: events))
    }
}
