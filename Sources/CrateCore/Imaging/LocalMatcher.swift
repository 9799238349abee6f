import CHamming
import Foundation

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

    /// The clear winner, or nil. Same answer as the head of `ranked`, without sorting the whole
    /// library: one pass keeps the best two, over a flat copy of the (de-duplicated) photo
    /// hashes, split across two threads — 100 000 albums × ~700 variants is 70 M comparisons.
    public func match(_ photo: PhotoHashes, among covers: [StoredCover]) -> LocalMatch? {
        guard !covers.isEmpty else { return nil }
        var seen = Set<Hash256>()
        var flat: [UInt64] = []
        for candidate in photo.candidates where seen.insert(candidate).inserted {
            flat += [candidate.words.0, candidate.words.1, candidate.words.2, candidate.words.3]
        }
        let parts = covers.count >= 4096 ? 2 : 1
        var results = [Top2](repeating: Top2(), count: parts)
        let chunk = (covers.count + parts - 1) / parts
        flat.withUnsafeBufferPointer { words in
            results.withUnsafeMutableBufferPointer { out in
                DispatchQueue.concurrentPerform(iterations: parts) { part in
                    var top = Top2()
                    for cover in covers[(part * chunk)..<min(covers.count, (part + 1) * chunk)] {
                        top.insert(cover.albumID, Self.nearest(cover.hash.dct256, in: words))
                    }
                    out[part] = top
                }
            }
        }
        var top = results[0]
        for other in results.dropFirst() {
            if let b = other.best { top.insert(b.albumID, b.distance) }
            if let r = other.second { top.insert(r.albumID, r.distance) }
        }
        guard let best = top.best else { return nil }
        let runnerUp = top.second?.distance ?? 256
        guard best.distance <= maxDistance, runnerUp - best.distance >= minMargin else { return nil }
        return LocalMatch(albumID: best.albumID, distance: best.distance, runnerUpDistance: runnerUp)
    }

    /// Smallest distance from `target` to any hash in `words` (4 words per hash).
    @inline(__always)
    static func nearest(_ target: Hash256, in words: UnsafeBufferPointer<UInt64>) -> Int {
        guard let base = words.baseAddress else { return 256 }
        // A tuple of four UInt64 is laid out as four consecutive words; no per-cover allocation.
        return withUnsafePointer(to: target.words) { tuple in
            tuple.withMemoryRebound(to: UInt64.self, capacity: 4) { Int(crate_nearest256(base, words.count / 4, $0)) }
        }
    }

    /// The two nearest albums, ordered as `ranked` orders them (distance, then album id).
    struct Top2 {
        var best: (albumID: Int64, distance: Int)?
        var second: (albumID: Int64, distance: Int)?

        mutating func insert(_ id: Int64, _ distance: Int) {
            func before(_ a: (Int64, Int), _ b: (albumID: Int64, distance: Int)?) -> Bool {
                guard let b else { return true }
                return a.1 < b.distance || (a.1 == b.distance && a.0 < b.albumID)
            }
            if before((id, distance), best) {
                second = best
                best = (id, distance)
            } else if before((id, distance), second) {
                second = (id, distance)
            }
        }
    }
}
