import CrateCore
import Testing

/// `LocalMatcher.match` takes a fast path (one pass, best two, AVX-512, AVX2 or POPCNT, two threads); it must give
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

extension LocalMatcherScaleTests {
    /// A square run out of the frame (`EdgeSearch`) can shortlist an album, but the hash's own gate,
    /// calibrated without such squares, never decides on it: with a verification that cannot align,
    /// tier 0 answers only when the album came that near without them.
    @Test func edgeSquaresShortlistButNeverPassTheGate() {
        var g = Seeded(state: 11)
        let cover = randomHash(&g)
        let table = CoverTable([StoredCover(albumID: 1, hash: CoverHash(pHash: 0, dHash: 0, dct256: cover)),
                                StoredCover(albumID: 2, hash: CoverHash(pHash: 0, dHash: 0, dct256: randomHash(&g)))])
        let far = (0..<4).map { _ in randomHash(&g) }
        let close = [near(cover, bits: 10)] + (0..<3).map { _ in randomHash(&g) }
        let square = CropOutline(square: CropSquare(x: -0.1, y: 0, side: 0.8))
        let viaEdge = PhotoHashes(candidates: far + close, pHash: 0, dHash: 0, cropSquares: [CropSquare(x: 0, y: 0, side: 1)],
                                  outlines: [square], edgeSquareCount: 1)
        let viaOutline = PhotoHashes(candidates: far + close, pHash: 0, dHash: 0, cropSquares: [CropSquare(x: 0, y: 0, side: 1)],
                                     outlines: [square])
        let notAligned = CoverCheck(outcome: .notAligned, correlation: 0, visible: 0, agreement: 0)

        let shortlist = LocalMatcher.shortlist.shortlist(viaEdge, in: table)
        #expect(shortlist.first?.albumID == 1 && shortlist.first?.distance == 10)
        #expect(shortlist.first.map { $0.gateDistance > LocalMatcher.standard.maxDistance } == true)
        #expect(viaEdge.nearestStart(to: cover) == square, "the check starts where the hash came nearest")
        #expect(LocalMatcher.standard.match(viaEdge, in: table) == nil)
        #expect(TierZeroRule.decide(shortlist) { _ in notAligned } == nil)

        let plain = LocalMatcher.shortlist.shortlist(viaOutline, in: table)
        #expect(LocalMatcher.standard.match(viaOutline, in: table)?.albumID == 1)
        #expect(TierZeroRule.decide(plain) { _ in notAligned }?.albumID == 1)
    }
}
