import Foundation

/// What a release-facts pass did.
public struct ReleaseFactsSummary: Sendable, Equatable {
    public var looked = 0
    public var stored = 0
    /// Albums still waiting when the pass ended.
    public var left = 0
    public var stoppedEarly: String?

    public init(looked: Int = 0, stored: Int = 0, left: Int = 0, stoppedEarly: String? = nil) {
        self.looked = looked
        self.stored = stored
        self.left = left
        self.stoppedEarly = stoppedEarly
    }
}

extension ScanPipeline {
    /// Looks up the release facts (barcode, catalogue numbers, labels, media, pregap tracks) of
    /// albums saved before Crate kept them, oldest first, at MusicBrainz's shared pace. Resumable:
    /// each album's facts and track list are saved in one transaction as they arrive, and an
    /// album another process is finishing is skipped. `spacing` leaves room between lookups for
    /// the user's own scans (the window's background pass uses a few seconds; `crate repair` none).
    @discardableResult
    public func repairReleaseFacts(limit: Int = .max, spacing: Duration = .zero, maxConsecutiveFailures: Int = 3) async -> ReleaseFactsSummary {
        var summary = ReleaseFactsSummary()
        guard let musicBrainz = services.musicBrainz else {
            summary.left = (try? database.countAlbumsAwaitingReleaseFacts()) ?? 0
            return summary
        }
        var tried: Set<Int64> = []
        var failuresInARow = 0
        pass: while summary.looked < limit, !Task.isCancelled {
            let batch: [Album]
            do {
                batch = try database.albumsAwaitingReleaseFacts(limit: min(32, limit - summary.looked), skipping: tried)
            } catch {
                summary.stoppedEarly = UserMessage.text(for: error)
                break
            }
            if batch.isEmpty { break }
            for album in batch {
                guard let albumID = album.id, !Task.isCancelled else { break pass }
                tried.insert(albumID)
                guard let releaseID = album.musicBrainzReleaseID.flatMap(MBID.init(validating:)) else {
                    try? database.markReleaseFactsMissing(albumID: albumID)
                    continue
                }
                // A scan (here or in another process) may be fetching this album right now.
                guard (try? database.claimDetails(albumID: albumID)) == true else { continue }
                defer { try? database.releaseDetailsClaim(albumID: albumID) }
                summary.looked += 1
                do {
                    let details = try await musicBrainz.release(releaseID)
                    try database.saveReleaseDetails(albumID: albumID, details: details)
                    summary.stored += 1
                    failuresInARow = 0
                } catch MusicBrainzError.notFound {
                    try? database.markReleaseFactsMissing(albumID: albumID)
                    failuresInARow = 0
                } catch MusicBrainzError.mustWait {
                    summary.stoppedEarly = "MusicBrainz asked Crate to pause"
                    break pass
                } catch {
                    Log.error("release facts for \(releaseID.rawValue) failed: \(UserMessage.text(for: error))")
                    failuresInARow += 1
                    if failuresInARow >= maxConsecutiveFailures {
                        summary.stoppedEarly = "\(failuresInARow) lookups in a row failed"
                        break pass
                    }
                }
                if spacing > .zero { try? await Task.sleep(for: spacing) }
            }
        }
        summary.left = (try? database.countAlbumsAwaitingReleaseFacts()) ?? 0
        return summary
    }
}
