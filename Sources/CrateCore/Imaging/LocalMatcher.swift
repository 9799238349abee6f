import CHamming
import Foundation

/// A tier-0 decision: the album whose cover the photo matched, with the evidence.
public struct LocalMatch: Equatable, Sendable {
    public let albumID: Int64
    /// Smallest Hamming distance (of 256 bits) over every crop and rotation of the photo.
    public let distance: Int
    /// The next-best album's distance (256 when there is no other album).
    public let runnerUpDistance: Int
    /// The distance without the squares run out of the frame (`EdgeSearch`): what the hash's own
    /// gate (`LocalMatcher.standard`) was calibrated on, so the only distance it may decide on.
    public let gateDistance: Int

    public init(albumID: Int64, distance: Int, runnerUpDistance: Int, gateDistance: Int? = nil) {
        self.albumID = albumID
        self.distance = distance
        self.runnerUpDistance = runnerUpDistance
        self.gateDistance = gateDistance ?? distance
    }

    /// Whether `matcher`'s gate passes on `gateDistance`. The runner-up's distance may come from
    /// an edge square too, so it only ever makes the margin look smaller than it is.
    public func passes(_ matcher: LocalMatcher) -> Bool {
        gateDistance <= matcher.maxDistance && runnerUpDistance - gateDistance >= matcher.minMargin
    }
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
    /// the crop search (re-checked with the 1/2-scale decode): true matches 8–82 bits, every
    /// wrong album ≥ 84 and every unknown cover ≥ 90. 78 keeps 6 bits clear of the nearest wrong
    /// cover; the 12-bit margin sits between the smallest accepted gap (16) and the gaps seen on
    /// negatives (0–6). At 100 000 albums the
    /// nearest random cover is ~80 bits away, but so is the runner-up, so the margin rejects it.
    public static let standard = LocalMatcher(maxDistance: 78, minMargin: 12)

    /// The hash gate in front of the verification (`CoverVerifier`): looser, because the
    /// verification is what makes tier 0 precise. The nearest two albums within 96 bits are
    /// checked, nearest first; every unknown fixture cover sits at 82 bits or more, so the
    /// verification, not the hash, turns them away (docs/decisions, "Tier 0 verification").
    public static let shortlist = LocalMatcher(maxDistance: 96, minMargin: 0)

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
    /// library: one pass keeps the best two, split across two threads, in C (AVX-512 or AVX2 when the
    /// CPU has it) — 100 000 albums × ~700 photo hashes is 70 M comparisons.
    public func match(_ photo: PhotoHashes, among covers: [StoredCover]) -> LocalMatch? {
        match(photo, in: CoverTable(covers))
    }

    /// As `match(_:among:)`, over a table kept between scans.
    public func match(_ photo: PhotoHashes, in table: CoverTable, path: ScanPath = .automatic) -> LocalMatch? {
        guard let top = nearestTwo(photo, in: table, path: path) else { return nil }
        let best = top.best
        let runnerUp = top.filled > 1 ? Int(top.second.distance) : 256
        let hit = LocalMatch(albumID: best.id, distance: Int(best.distance), runnerUpDistance: runnerUp,
                             gateDistance: gateDistance(photo, best.id, Int(best.distance), table))
        return hit.passes(self) ? hit : nil
    }

    /// The nearest two albums within `maxDistance`, nearest first, each with the next one's
    /// distance as its runner-up — what the verification then checks. `minMargin` is not applied.
    public func shortlist(_ photo: PhotoHashes, in table: CoverTable, path: ScanPath = .automatic) -> [LocalMatch] {
        guard let top = nearestTwo(photo, in: table, path: path) else { return [] }
        var hits: [LocalMatch] = []
        let second = top.filled > 1 ? Int(top.second.distance) : 256
        if Int(top.best.distance) <= maxDistance {
            hits.append(LocalMatch(albumID: top.best.id, distance: Int(top.best.distance), runnerUpDistance: second,
                                   gateDistance: gateDistance(photo, top.best.id, Int(top.best.distance), table)))
        }
        if top.filled > 1, second <= maxDistance {
            hits.append(LocalMatch(albumID: top.second.id, distance: second, runnerUpDistance: 256,
                                   gateDistance: gateDistance(photo, top.second.id, second, table)))
        }
        return hits
    }

    /// `distance` again without the edge squares' hashes (one album, so cheap).
    private func gateDistance(_ photo: PhotoHashes, _ albumID: Int64, _ distance: Int, _ table: CoverTable) -> Int {
        guard photo.edgeSquareCount > 0, let hash = table.hash(of: albumID) else { return distance }
        return photo.gateDistance(to: hash)
    }

    private func nearestTwo(_ photo: PhotoHashes, in table: CoverTable, path: ScanPath) -> crate_top2? {
        guard table.count > 0, !photo.candidates.isEmpty else { return nil }
        var seen = Set<Hash256>()
        var flat: [UInt64] = []
        for candidate in photo.candidates where seen.insert(candidate).inserted {
            flat += [candidate.words.0, candidate.words.1, candidate.words.2, candidate.words.3]
        }
        let hashCount = flat.count / 4
        let groups = (hashCount + 3) / 4
        var interleaved = [UInt64](repeating: 0, count: crate_interleaved_words(hashCount))
        crate_interleave4(flat, hashCount, &interleaved)
        let parts = table.count >= 4096 ? 2 : 1
        var results = [crate_top2](repeating: crate_top2(), count: parts)
        let chunk = (table.count + parts - 1) / parts
        interleaved.withUnsafeBufferPointer { photoWords in
            table.words.withUnsafeBufferPointer { words in
                table.ids.withUnsafeBufferPointer { ids in
                    results.withUnsafeMutableBufferPointer { out in
                        // Each part writes only its own slot of `out`.
                        Parallel.perform(iterations: parts) { part in
                            let lo = part * chunk, hi = min(table.count, lo + chunk)
                            guard lo < hi else { return }
                            _ = crate_top2_scan_using(path.rawValue, words.baseAddress! + 4 * lo, ids.baseAddress! + lo,
                                                      hi - lo, photoWords.baseAddress!, groups, &out[part])
                        }
                    }
                }
            }
        }
        var top = results[0]
        for other in results.dropFirst() {
            if other.filled > 0 { crate_top2_insert(&top, other.best.id, other.best.distance) }
            if other.filled > 1 { crate_top2_insert(&top, other.second.id, other.second.distance) }
        }
        return top.filled > 0 ? top : nil
    }

    /// The comparison loop to use; tests force each one to check they agree.
    public enum ScanPath: Int32, CaseIterable, Sendable {
        case automatic = 0, portable = 1, popcnt = 2, avx2 = 3, avx512 = 4
    }
}

/// The stored covers as flat arrays (ids, and 4 words per 256-bit hash) for the matcher's C loop.
public struct CoverTable: Sendable {
    public private(set) var ids: [Int64] = []
    public private(set) var words: [UInt64] = []

    public init(_ covers: [StoredCover] = []) {
        ids.reserveCapacity(covers.count)
        words.reserveCapacity(covers.count * 4)
        for cover in covers { append(cover) }
    }

    public var count: Int { ids.count }

    public mutating func append(_ cover: StoredCover) {
        let h = cover.hash.dct256.words
        ids.append(cover.albumID)
        words += [h.0, h.1, h.2, h.3]
    }

    /// The stored 256-bit hash of an album's cover.
    public func hash(of albumID: Int64) -> Hash256? {
        guard let i = ids.firstIndex(of: albumID) else { return nil }
        return Hash256(words[4 * i], words[4 * i + 1], words[4 * i + 2], words[4 * i + 3])
    }

    /// Replaces the album's hash (a re-fetched cover) or adds it.
    public mutating func upsert(_ cover: StoredCover) {
        if let i = ids.firstIndex(of: cover.albumID) {
            let h = cover.hash.dct256.words
            words.replaceSubrange((4 * i)..<(4 * i + 4), with: [h.0, h.1, h.2, h.3])
        } else {
            append(cover)
        }
    }
}
