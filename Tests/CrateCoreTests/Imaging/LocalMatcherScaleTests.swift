import CrateCore
import Testing

/// `LocalMatcher.match` takes a fast path (one pass, best two, AVX2 or POPCNT, two threads); it must give
/// exactly the answer the exhaustive ranking gives.
@Suite("Tier 0 matcher at scale", .tags(.slow))
struct LocalMatcherScaleTests {
    struct Seeded: RandomNumberGenerator {
        var state: UInt64
        mutating func next() -> UInt64 {
            state &+= 0x9E37_79B9_7F4A_7C15
            var z = state
            z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
            z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
            return z ^ (z >> 31)
        }
    }

    func randomHash(_ g: inout Seeded) -> Hash256 { Hash256(g.next(), g.next(), g.next(), g.next()) }

    /// Flips `bits` distinct low bits of a hash: a "photo" of that cover.
    func near(_ h: Hash256, bits: Int) -> Hash256 {
        var w = [h.words.0, h.words.1, h.words.2, h.words.3]
        for i in 0..<bits { w[i % 4] ^= 1 << UInt64(i / 4) }
        return Hash256(w[0], w[1], w[2], w[3])
    }

    @Test func fastMatchEqualsExhaustiveRanking() async throws {
        try await BlockingWork.run {
            var g = Seeded(state: 42)
            let covers = (0..<10_000).map { StoredCover(albumID: Int64($0), hash: CoverHash(pHash: 0, dHash: 0, dct256: randomHash(&g))) }
            let table = CoverTable(covers)
            for (trial, distance) in [0, 20, 60, 78, 79, 90, 128].enumerated() {
                let target = covers[(trial * 977) % covers.count].hash.dct256
                // 300 − (trial mod 4) random hashes: every padding of the last group of four.
                var candidates = (0..<(300 - trial % 4)).map { _ in randomHash(&g) }
                candidates.append(near(target, bits: distance))
                candidates.append(candidates[0])  // Duplicates are allowed and must not matter.
                let photo = PhotoHashes(candidates: candidates, pHash: 0, dHash: 0)
                for matcher in [LocalMatcher.standard, LocalMatcher(maxDistance: 256, minMargin: 0)] {
                    let ranking = matcher.ranked(photo, among: covers)
                    let best = ranking[0], runnerUp = ranking[1].distance
                    let accept = best.distance <= matcher.maxDistance && runnerUp - best.distance >= matcher.minMargin
                    // Every comparison loop (AVX2, POPCNT, portable C) gives the same answer.
                    for path in LocalMatcher.ScanPath.allCases {
                        let match = matcher.match(photo, in: table, path: path)
                        #expect((match != nil) == accept, "trial \(trial) at \(distance) bits, \(path)")
                        if let match {
                            #expect(match.albumID == best.albumID && match.distance == best.distance
                                    && match.runnerUpDistance == runnerUp, "trial \(trial) at \(distance) bits, \(path)")
                        }
                    }
                }
            }
        }
    }
}

extension LocalMatcherScaleTests {
    /// A re-fetched cover replaces the album's old hash in the kept table; it is not added twice.
    @Test func coverTableUpsertReplaces() {
        var g = Seeded(state: 7)
        let old = randomHash(&g), new = randomHash(&g)
        var table = CoverTable([StoredCover(albumID: 1, hash: CoverHash(pHash: 0, dHash: 0, dct256: old)),
                                StoredCover(albumID: 2, hash: CoverHash(pHash: 0, dHash: 0, dct256: randomHash(&g)))])
        table.upsert(StoredCover(albumID: 1, hash: CoverHash(pHash: 0, dHash: 0, dct256: new)))
        #expect(table.count == 2)
        let photo = PhotoHashes(candidates: [new], pHash: 0, dHash: 0)
        #expect(LocalMatcher.standard.match(photo, in: table)?.albumID == 1)
        #expect(LocalMatcher.standard.match(PhotoHashes(candidates: [old], pHash: 0, dHash: 0), in: table) == nil)
    }
}
