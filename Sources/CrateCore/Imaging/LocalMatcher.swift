/// A tier-0 decision: the album whose cover the photo matched, with the evidence.
public struct LocalMatch: Equatable, Sendable {
    public let albumID: Int64
    /// Smallest Hamming distance (of 256 bits) over every crop and rotation of the photo.
    public let distance: Int
    /// The next-best album's distance (256 when there is no other album).
    public let runnerUpDistance: Int
}

/// One stored cover to compare against.
public struct StoredCover: Sendable {
    public let albumID: Int64
    public let hash: CoverHash

    public init(albumID: Int64, hash: CoverHash) {
        self.albumID = albumID
        self.hash = hash
    }
}

/// Tier 0: recognises a cover already in the library from its perceptual hashes, offline.
/// It answers only for a clear winner; anything doubtful falls through to the vision call.
public struct LocalMatcher: Sendable {
    /// Accept only distances at or below this (of 256 bits).
    public let maxDistance: Int
    /// …and only when the runner-up is at least this many bits further away.
    public let minMargin: Int

    /// Calibrated on `fixtures/images` (see `CoverCalibrationTests`) with edge-found quads plus
    /// the crop search: true matches 6–82 bits (median 36), every wrong album or unknown cover
    /// ≥ 84. 78 keeps 6 bits clear of the nearest wrong cover; the 12-bit margin sits between the
    /// smallest accepted gap (16) and the gaps seen on negatives (4–10). At 100 000 albums the
    /// nearest random cover is ~80 bits away, but so is the runner-up, so the margin rejects it.
    public static let standard = LocalMatcher(maxDistance: 78, minMargin: 12)

    public init(maxDistance: Int, minMargin: Int) {
        self.maxDistance = maxDistance
        self.minMargin = minMargin
    }

    /// Every album with its best distance to the photo, nearest first.
    public func ranked(_ photo: PhotoHashes, among covers: [StoredCover]) -> [(albumID: Int64, distance: Int)] {
        var results: [(albumID: Int64, distance: Int)] = []
        results.reserveCapacity(covers.count)
        photo.candidates.withUnsafeBufferPointer { candidates in
            for cover in covers {
                let target = cover.hash.dct256
                var best = 256
                for candidate in candidates {
                    let d = candidate.distance(to: target)
                    if d < best { best = d }
                }
                results.append((cover.albumID, best))
            }
        }
        return results.sorted { $0.distance < $1.distance || ($0.distance == $1.distance && $0.albumID < $1.albumID) }
    }

    /// The clear winner, or nil.
    public func match(_ photo: PhotoHashes, among covers: [StoredCover]) -> LocalMatch? {
        let ranking = ranked(photo, among: covers)
        guard let best = ranking.first else { return nil }
        let runnerUp = ranking.count > 1 ? ranking[1].distance : 256
        guard best.distance <= maxDistance, runnerUp - best.distance >= minMargin else { return nil }
        return LocalMatch(albumID: best.albumID, distance: best.distance, runnerUpDistance: runnerUp)
    }
}
